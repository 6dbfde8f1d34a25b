// MnemoSession: the OpenAI Agents SDK's `Session` (@openai/agents-core) over
// one mnemod session. Each history item is one event (the item in
// `content.item`, its text in `content.text`), a call of addItems is one
// atomic append, and a window of recent items never starts with a tool
// result whose call it left out. Entry point `@mnemod/client/openai-agents`.
import type { AgentInputItem, Session } from '@openai/agents-core';

import { MnemoClient, type ClientOptions } from './client.js';
import { NotFound } from './errors.js';
import { uuidv7 } from './ids.js';
import type { Event, Json, NewEvent, Role } from './types.js';

export interface MnemoSessionOptions extends ClientOptions {
  app: string;
  user: string;
  /** The mnemod session id (name rules); a new UUIDv7 when absent. */
  sessionId?: string;
  client?: MnemoClient;
  /** Items per atomic append: mnemod's `limits.max_batch_events` (default 256). */
  batch?: number;
}

type AnyItem = AgentInputItem & { type?: string; role?: string; callId?: string; content?: unknown };

// The item kinds that answer a call, and the kinds of those calls, matched by `callId`.
const RESULT_TYPES = new Set([
  'function_call_result',
  'computer_call_result',
  'shell_call_output',
  'apply_patch_call_output',
  'program_call_result',
  'tool_search_output',
]);

function roleOf(item: AnyItem): Role {
  if (item.role === 'user') return 'user';
  if (item.role === 'system' || item.role === 'developer') return 'system';
  if (item.type && RESULT_TYPES.has(item.type)) return 'tool';
  return 'assistant';
}

// The item's words, for mnemod's transcript search and memory capture.
function textOf(item: AnyItem): string {
  const content = item.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { text?: unknown; transcript?: unknown }) =>
        typeof part?.text === 'string' ? part.text : typeof part?.transcript === 'string' ? part.transcript : '',
      )
      .filter(Boolean)
      .join('\n');
  }
  const output = (item as { output?: unknown }).output;
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && typeof (output as { text?: unknown }).text === 'string') {
    return (output as { text: string }).text;
  }
  return '';
}

const itemOf = (event: Event): AgentInputItem | undefined => {
  const content = event.content as { item?: AgentInputItem } | null;
  return content && typeof content === 'object' && content.item ? content.item : undefined;
};

export class MnemoSession implements Session {
  readonly client: MnemoClient;
  readonly app: string;
  readonly user: string;
  readonly sessionId: string;
  private readonly batch: number;

  constructor(options: MnemoSessionOptions) {
    if (!options.app || !options.user) throw new Error('MnemoSession needs both `app` and `user`');
    this.client = options.client ?? new MnemoClient(options);
    this.app = options.app;
    this.user = options.user;
    this.sessionId = options.sessionId ?? uuidv7();
    this.batch = options.batch ?? 256;
  }

  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  /**
   * The history oldest first, or its newest `limit` items. A window that would
   * start with tool results whose calls fall outside it reaches back to those
   * calls, so it may hold more than `limit` items: the model rejects a tool
   * result without its call.
   */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && limit <= 0) return [];
    let events: Event[];
    try {
      if (limit === undefined) {
        events = await this.allEvents();
      } else {
        events = (await this.client.getSession(this.app, this.user, this.sessionId, { num_recent_events: limit }))
          .events;
        if (events.length === limit && this.orphans(events)) events = this.withCalls(await this.allEvents(), limit);
      }
    } catch (error) {
      if (error instanceof NotFound) return [];
      throw error;
    }
    return events.map(itemOf).filter((item): item is AgentInputItem => item !== undefined);
  }

  /** Appends the items in order, each call one atomic write (per `batch` items). */
  async addItems(items: AgentInputItem[]): Promise<void> {
    for (let start = 0; start < items.length; start += this.batch) {
      const events: NewEvent[] = items.slice(start, start + this.batch).map((item) => {
        const role = roleOf(item as AnyItem);
        return {
          author: role === 'tool' ? 'tool' : role,
          role,
          content: { item: item as unknown as Json, text: textOf(item as AnyItem) },
        };
      });
      await this.client.appendEvents(this.app, this.user, this.sessionId, events, { create_if_missing: true });
    }
  }

  /**
   * Removes and answers the newest item. A user item goes by `rewind` (it is
   * the last user turn); any other by rewriting the transcript without it
   * under `expected_version`, so a write in between makes it fail (Conflict)
   * rather than lose that write.
   */
  async popItem(): Promise<AgentInputItem | undefined> {
    let session;
    try {
      session = await this.client.getSession(this.app, this.user, this.sessionId, { num_recent_events: 1 });
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
    const last = session.events.at(-1);
    if (!last) return undefined;
    if (last.role === 'user') {
      await this.client.rewind(this.app, this.user, this.sessionId, 1);
    } else {
      const kept = (await this.allEvents()).slice(0, -1);
      if (kept.length === 0) {
        await this.client.deleteSession(this.app, this.user, this.sessionId, { hard: true });
      } else {
        await this.client.rewriteEvents(
          this.app,
          this.user,
          this.sessionId,
          kept.map((e) => ({ author: e.author, role: e.role, content: e.content as Json })),
          { expected_version: session.session.version },
        );
      }
    }
    return itemOf(last);
  }

  /** Deletes the mnemod session; the next addItems starts a fresh one under the same id. */
  async clearSession(): Promise<void> {
    try {
      await this.client.deleteSession(this.app, this.user, this.sessionId, { hard: true });
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  private async allEvents(): Promise<Event[]> {
    const events: Event[] = [];
    for await (const event of this.client.iterEvents(this.app, this.user, this.sessionId, { limit: 1000 }))
      events.push(event);
    return events;
  }

  // Whether the window holds a result whose call is not in it.
  private orphans(events: Event[]): boolean {
    const calls = new Set<string>();
    for (const event of events) {
      const item = itemOf(event) as AnyItem | undefined;
      if (!item?.callId) continue;
      if (item.type && RESULT_TYPES.has(item.type)) {
        if (!calls.has(item.callId)) return true;
      } else {
        calls.add(item.callId);
      }
    }
    return false;
  }

  // The newest `limit` events, reaching back to the calls of the results in them.
  private withCalls(all: Event[], limit: number): Event[] {
    let start = Math.max(0, all.length - limit);
    while (start > 0 && this.orphans(all.slice(start))) --start;
    return all.slice(start);
  }
}
