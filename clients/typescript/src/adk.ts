// Google ADK (@google/adk) services over mnemod: MnemoSessionService (a
// BaseSessionService: ADK app = mnemod app, ADK user = mnemod user, one ADK
// event = one mnemod event with its state delta applied atomically by mnemod's
// app:/user:/temp: rules) and MnemoMemoryService (a BaseMemoryService over
// mnemod memories and recall). Entry point `@mnemod/client/adk`.
import {
  BaseSessionService,
  createEvent,
  createSession,
  type AppendEventRequest,
  type BaseMemoryService,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event as AdkEvent,
  type GetSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type MemoryEntry,
  type SearchMemoryRequest,
  type SearchMemoryResponse,
  type Session as AdkSession,
} from '@google/adk';

import { MnemoClient, type ClientOptions } from './client.js';
import { Conflict, NotFound } from './errors.js';
import { uuidv7 } from './ids.js';
import { nameOf } from './langgraph/names.js';
import type { Event, Json, JsonObject, NewMemory, Session, Usage } from './types.js';

export interface MnemoAdkOptions extends ClientOptions {
  client?: MnemoClient;
}

const TEMP = 'temp:';
const withoutTemp = (state: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries(state).filter(([key]) => !key.startsWith(TEMP))) as JsonObject;

const ms = (rfc3339: string) => Date.parse(rfc3339);

// mnemod's `after` is strictly after; ADK's afterTimestamp (ms) keeps events at or after it.
function atOrAfter(afterMs: number): string {
  const micros = Math.round(afterMs * 1000) - 1;
  const seconds = Math.floor(micros / 1e6);
  return `${seconds}.${String(micros - seconds * 1e6).padStart(6, '0')}`;
}

function textOf(event: AdkEvent): string {
  return (event.content?.parts ?? [])
    .map((part) => (typeof part.text === 'string' && !part.thought ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

function usageOf(event: AdkEvent): Usage | undefined {
  const u = event.usageMetadata;
  if (!u) return undefined;
  return {
    input_tokens: u.promptTokenCount ?? 0,
    output_tokens: u.candidatesTokenCount ?? 0,
    cache_read_tokens: u.cachedContentTokenCount ?? 0,
    total_tokens: u.totalTokenCount ?? 0,
  };
}

// An ADK event back from a mnemod event: as written when this service wrote
// it, else (another client's event) a text event.
function adkEventOf(event: Event): AdkEvent {
  const content = event.content as { adk?: AdkEvent; text?: unknown } | string | null;
  if (content && typeof content === 'object' && content.adk) return content.adk;
  const text =
    typeof content === 'string' ? content : typeof content?.text === 'string' ? content.text : JSON.stringify(content);
  return createEvent({
    id: event.id,
    invocationId: event.invocation_id ?? '',
    author: event.author,
    content: { role: event.role === 'user' ? 'user' : 'model', parts: [{ text }] },
    timestamp: ms(event.timestamp),
  });
}

export class MnemoSessionService extends BaseSessionService {
  readonly client: MnemoClient;
  // The mnemod version each session object handed out reflects: an append
  // through a stale object is refused instead of overwriting newer writes.
  private readonly versions = new WeakMap<AdkSession, number>();

  constructor(options: MnemoAdkOptions = {}) {
    super();
    this.client = options.client ?? new MnemoClient(options);
  }

  private sessionOf(session: Session, events: Event[]): AdkSession {
    const adk = createSession({
      id: session.id,
      appName: session.app,
      userId: session.user,
      state: session.state ?? {},
      events: events.map(adkEventOf),
      lastUpdateTime: ms(session.updated_at),
    });
    this.versions.set(adk, session.version);
    return adk;
  }

  async createSession({ appName, userId, state, sessionId }: CreateSessionRequest): Promise<AdkSession> {
    // app: and user: keys go to those scopes by mnemod's state rules, in the same write.
    const created = await this.client.createSession(appName, userId, {
      id: sessionId ?? uuidv7(),
      state: withoutTemp(state),
    });
    return this.sessionOf({ ...created, state: withoutTemp(created.state) }, []);
  }

  async getSession({ appName, userId, sessionId, config }: GetSessionRequest): Promise<AdkSession | undefined> {
    try {
      const answer = await this.client.getSession(appName, userId, sessionId, {
        num_recent_events: config?.numRecentEvents || undefined,
        after: config?.afterTimestamp ? atOrAfter(config.afterTimestamp) : undefined,
      });
      return this.sessionOf(answer.session, answer.events);
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }

  /** Sessions without events or state, as ADK specifies; without `userId`, the whole app. */
  async listSessions({
    appName,
    userId,
    limit,
    offset,
    page,
    order,
  }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const all: AdkSession[] = [];
    for await (const s of this.client.iterSessions(appName, userId ?? null, { limit: 1000 })) {
      all.push(
        createSession({
          id: s.id,
          appName: s.app,
          userId: s.user,
          state: {},
          events: [],
          lastUpdateTime: ms(s.updated_at),
        }),
      );
    }
    if (order === 'asc') all.sort((a, b) => a.lastUpdateTime - b.lastUpdateTime || a.id.localeCompare(b.id));
    if (order === 'desc') all.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime || a.id.localeCompare(b.id));
    const totalItems = all.length;
    if (limit === undefined) {
      return {
        sessions: all.slice(offset ?? 0),
        page: 1,
        limit: totalItems,
        totalItems,
        totalPages: totalItems ? 1 : 0,
      };
    }
    const start = page !== undefined ? (page - 1) * limit : (offset ?? 0);
    return {
      sessions: all.slice(start, start + limit),
      page: page ?? (limit === 0 ? 1 : Math.floor(start / limit) + 1),
      limit,
      totalItems,
      totalPages: limit === 0 ? 0 : Math.ceil(totalItems / limit),
    };
  }

  async deleteSession({ appName, userId, sessionId }: DeleteSessionRequest): Promise<void> {
    try {
      await this.client.deleteSession(appName, userId, sessionId);
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  /**
   * Stores the event and its state delta in one atomic write (a partial event
   * is not stored), then updates the session object as ADK's base class does.
   * Refuses a stale session object (one that missed a write made through
   * another object or client) with an Error, as ADK's database service does.
   */
  override async appendEvent({ session, event }: AppendEventRequest): Promise<AdkEvent> {
    if (event.partial) return event;
    const stateDelta = withoutTemp(event.actions?.stateDelta);
    const stored = JSON.parse(JSON.stringify({ ...event, actions: { ...event.actions, stateDelta } })) as Json;
    const usage = usageOf(event);
    const expected = this.versions.get(session);
    let answer;
    try {
      answer = await this.client.appendEvent(
        session.appName,
        session.userId,
        session.id,
        {
          id: event.id,
          invocation_id: event.invocationId || undefined,
          author: event.author ?? 'agent',
          role: event.author === 'user' ? 'user' : 'assistant',
          content: { adk: stored, text: textOf(event) },
          ...(Object.keys(stateDelta).length ? { state_delta: stateDelta } : {}),
          ...(usage ? { usage } : {}),
          timestamp: event.timestamp / 1000,
        },
        expected === undefined ? {} : { expected_version: expected },
      );
    } catch (error) {
      if (error instanceof Conflict) {
        throw new Error(
          `session ${session.appName}/${session.userId}/${session.id} changed since this session object was read ` +
            `(version ${expected}, now ${error.currentVersion}): get the session again and retry`,
        );
      }
      throw error;
    }
    const result = await super.appendEvent({ session, event });
    session.lastUpdateTime = event.timestamp;
    this.versions.set(session, answer.version);
    return result;
  }
}

/** Long-term memory for ADK agents: session events become mnemod memories, found by recall. */
export class MnemoMemoryService implements BaseMemoryService {
  readonly client: MnemoClient;
  /** The memory namespace written (and searched when `searchNamespace` is unset). */
  readonly namespace: string;
  private readonly limit: number;

  constructor(options: MnemoAdkOptions & { namespace?: string; limit?: number } = {}) {
    this.client = options.client ?? new MnemoClient(options);
    this.namespace = options.namespace ?? 'adk';
    this.limit = options.limit ?? 10;
  }

  /**
   * Each text event becomes a memory whose id comes from the session and event
   * ids: adding a session again adds only its new events.
   */
  async addSessionToMemory(session: AdkSession): Promise<void> {
    const memories: NewMemory[] = [];
    for (const event of session.events) {
      const text = textOf(event);
      if (!text) continue;
      memories.push({
        id: nameOf(`adk.${session.id}.${event.id}`),
        text,
        namespace: this.namespace,
        session_id: nameOf(session.id),
        metadata: {
          author: event.author ?? '',
          timestamp: event.timestamp,
          event_id: event.id,
          session_id: session.id,
        },
      });
    }
    for (let i = 0; i < memories.length; i += 256) {
      await this.client.writeMemories(session.appName, session.userId, memories.slice(i, i + 256));
    }
  }

  /** Recall over the user's memories (every namespace): hybrid with an embedder, else by words. */
  async searchMemory({ appName, userId, query }: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const answer = await this.client.recall(appName, { query, user: userId, limit: this.limit });
    const memories: MemoryEntry[] = answer.memories.map((memory) => {
      const author = typeof memory.metadata['author'] === 'string' ? memory.metadata['author'] : undefined;
      return {
        content: { role: author === 'user' ? 'user' : 'model', parts: [{ text: memory.text }] },
        ...(author ? { author } : {}),
        timestamp: memory.created_at,
      };
    });
    return { memories };
  }
}
