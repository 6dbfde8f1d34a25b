// MnemoClient: every route of mnemod's HTTP API (apps and users, sessions, events, state,
// summaries, tracks, search, lanes, memories, operations) as typed async
// methods, with pagination as async iterators and automatic client ids on
// appends so that a retried append is stored once.
import { ApiError } from './errors.js';
import { uuidv7 } from './ids.js';
import { Transport, seg, type TransportOptions } from './transport.js';
import type {
  AppActivity,
  AppendOptions,
  AppendResult,
  Event,
  EventPage,
  GetSessionQuery,
  Info,
  JsonObject,
  Json,
  Lane,
  LanePage,
  ListEventsQuery,
  ListMemoriesQuery,
  ListSessionsQuery,
  Memory,
  MemoryPage,
  MemoryPatch,
  NewEvent,
  NewMemory,
  NewSession,
  PurgeCounts,
  RecallMode,
  RecallRequest,
  RecallResult,
  ResetPolicies,
  ResolveLane,
  RewindResult,
  RewriteResult,
  SearchQuery,
  SearchResult,
  Session,
  SessionPage,
  SessionWithEvents,
  StateResult,
  Summary,
  Timestamp,
  TrackEvent,
  TrackInfo,
  TrackPage,
  UserActivity,
  UserPage,
  WrittenMemory,
} from './types.js';

export type ClientOptions = TransportOptions;

const userPath = (app: string, user: string) => `/v1/apps/${seg(app)}/users/${seg(user)}`;
const sessionPath = (app: string, user: string, session: string) => `${userPath(app, user)}/sessions/${seg(session)}`;
const lanePath = (app: string, lane: string) => `/v1/apps/${seg(app)}/lanes/${seg(lane)}`;

function withIds(events: NewEvent[]): NewEvent[] {
  return events.map((event) => (event.id === undefined ? { ...event, id: uuidv7() } : event));
}

// The items of every page of a listing that pages by token, fetched as they are consumed.
async function* pages<T>(
  first: string | undefined,
  fetchPage: (pageToken: string | undefined) => Promise<[T[], string | null]>,
): AsyncGenerator<T> {
  let pageToken = first;
  do {
    const [items, next] = await fetchPage(pageToken);
    yield* items;
    pageToken = next ?? undefined;
  } while (pageToken);
}

export class MnemoClient {
  readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
  }

  private get<T>(path: string, query?: Record<string, unknown>): Promise<T> {
    return this.transport.request<T>('GET', path, { query: query as never, safe: true });
  }

  // ---- apps and users

  /** Every app holding data or configured, by name, with its counts (an admin token only). */
  async listApps(): Promise<AppActivity[]> {
    return (await this.get<{ apps: AppActivity[] }>('/v1/apps')).apps;
  }

  /** One page of the app's users holding data, most recently active first. */
  listUsers(app: string, query: { limit?: number; page_token?: string } = {}): Promise<UserPage> {
    return this.get(`/v1/apps/${seg(app)}/users`, { ...query });
  }

  iterUsers(app: string, query: { limit?: number; page_token?: string } = {}): AsyncGenerator<UserActivity> {
    return pages(query.page_token, async (page_token) => {
      const page = await this.listUsers(app, { ...query, page_token });
      return [page.users, page.next_page_token];
    });
  }

  // ---- sessions

  createSession(app: string, user: string, session: NewSession = {}): Promise<Session> {
    // With an id, a lost answer is safe to repeat: the retry's already_exists says it was stored.
    return this.transport.request('POST', `${userPath(app, user)}/sessions`, { body: session });
  }

  getSession(app: string, user: string, session: string, query: GetSessionQuery = {}): Promise<SessionWithEvents> {
    return this.get(sessionPath(app, user, session), { ...query });
  }

  /** One page of a user's sessions, or of the whole app's when `user` is null. */
  listSessions(app: string, user: string | null, query: ListSessionsQuery = {}): Promise<SessionPage> {
    if (user === null) return this.get(`/v1/apps/${seg(app)}/sessions`, { ...query });
    return this.get(`${userPath(app, user)}/sessions`, { ...query });
  }

  iterSessions(app: string, user: string | null, query: ListSessionsQuery = {}): AsyncGenerator<Session> {
    return pages(query.page_token, async (page_token) => {
      const page = await this.listSessions(app, user, { ...query, page_token });
      return [page.sessions, page.next_page_token];
    });
  }

  async deleteSession(app: string, user: string, session: string, options: { hard?: boolean } = {}): Promise<void> {
    await this.transport.request('DELETE', sessionPath(app, user, session), {
      query: { hard: options.hard ? 'true' : undefined },
      safe: true,
    });
  }

  /** Everything of one user in one app, purged at once; the counts say what was removed. */
  purgeUser(app: string, user: string): Promise<PurgeCounts> {
    return this.transport.request('DELETE', userPath(app, user), { safe: true });
  }

  // ---- events

  /**
   * Appends a batch atomically. Events without an `id` get a UUIDv7 before the
   * first attempt, so a retry after a lost answer is recognised by the daemon
   * and stored once.
   */
  appendEvents(
    app: string,
    user: string,
    session: string,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    return this.transport.request('POST', `${sessionPath(app, user, session)}/events`, {
      body: { events: withIds(events), ...options },
      safe: true,
    });
  }

  appendEvent(app: string, user: string, session: string, event: NewEvent, options: AppendOptions = {}) {
    return this.appendEvents(app, user, session, [event], options);
  }

  listEvents(app: string, user: string, session: string, query: ListEventsQuery = {}): Promise<EventPage> {
    return this.get(`${sessionPath(app, user, session)}/events`, { ...query });
  }

  async *iterEvents(app: string, user: string, session: string, query: ListEventsQuery = {}): AsyncGenerator<Event> {
    let after = query.after_seq;
    for (;;) {
      const page = await this.listEvents(app, user, session, { ...query, after_seq: after });
      yield* page.events;
      if (page.next_after_seq === null || page.events.length === 0) return;
      after = page.next_after_seq;
    }
  }

  /** Replaces the whole transcript atomically (the old events are soft-deleted). */
  rewriteEvents(
    app: string,
    user: string,
    session: string,
    events: NewEvent[],
    options: { expected_version?: number } = {},
  ): Promise<RewriteResult> {
    return this.transport.request('PUT', `${sessionPath(app, user, session)}/events`, {
      body: { events: withIds(events), ...options },
      // Repeating a rewrite is harmless unless it was conditional: the retry would see its own version.
      safe: options.expected_version === undefined,
    });
  }

  rewind(app: string, user: string, session: string, turns = 1): Promise<RewindResult> {
    return this.transport.request('POST', `${sessionPath(app, user, session)}/rewind`, { body: { turns } });
  }

  // ---- state

  patchSessionState(
    app: string,
    user: string,
    session: string,
    stateDelta: JsonObject,
    options: { expected_version?: number } = {},
  ): Promise<StateResult> {
    return this.transport.request('PATCH', `${sessionPath(app, user, session)}/state`, {
      body: { state_delta: stateDelta, ...options },
      safe: options.expected_version === undefined,
    });
  }

  getAppState(app: string): Promise<StateResult> {
    return this.get(`/v1/apps/${seg(app)}/state`);
  }

  patchAppState(app: string, stateDelta: JsonObject): Promise<StateResult> {
    return this.transport.request('PATCH', `/v1/apps/${seg(app)}/state`, {
      body: { state_delta: stateDelta },
      safe: true,
    });
  }

  async deleteAppStateKey(app: string, key: string): Promise<void> {
    await this.transport.request('DELETE', `/v1/apps/${seg(app)}/state/${seg(key)}`, { safe: true });
  }

  getUserState(app: string, user: string): Promise<StateResult> {
    return this.get(`${userPath(app, user)}/state`);
  }

  patchUserState(app: string, user: string, stateDelta: JsonObject): Promise<StateResult> {
    return this.transport.request('PATCH', `${userPath(app, user)}/state`, {
      body: { state_delta: stateDelta },
      safe: true,
    });
  }

  async deleteUserStateKey(app: string, user: string, key: string): Promise<void> {
    await this.transport.request('DELETE', `${userPath(app, user)}/state/${seg(key)}`, { safe: true });
  }

  // ---- summaries

  async listSummaries(app: string, user: string, session: string): Promise<Summary[]> {
    const answer = await this.get<{ summaries: Summary[] }>(`${sessionPath(app, user, session)}/summaries`);
    return answer.summaries;
  }

  postSummary(
    app: string,
    user: string,
    session: string,
    summary: { text: string; filter_key?: string; up_to_seq?: number },
  ): Promise<Summary> {
    return this.transport.request('POST', `${sessionPath(app, user, session)}/summaries`, { body: summary });
  }

  /** `wait: true` answers the Summary once written; otherwise `{enqueued: true}`. */
  summarize(
    app: string,
    user: string,
    session: string,
    options: { filter_key?: string; force?: boolean; wait?: boolean } = {},
  ): Promise<Summary | { enqueued: boolean }> {
    return this.transport.request('POST', `${sessionPath(app, user, session)}/summarize`, {
      body: options,
      safe: !options.force,
    });
  }

  // ---- tracks

  appendTrack(
    app: string,
    user: string,
    session: string,
    track: string,
    payload: Json,
    timestamp?: Timestamp,
  ): Promise<{ seq: number; timestamp: string }> {
    return this.transport.request('POST', `${sessionPath(app, user, session)}/tracks/${seg(track)}`, {
      body: timestamp === undefined ? { payload } : { payload, timestamp },
    });
  }

  async listTrack(
    app: string,
    user: string,
    session: string,
    track: string,
    query: { after_seq?: number; limit?: number } = {},
  ): Promise<TrackEvent[]> {
    const answer = await this.get<{ events: TrackEvent[] }>(`${sessionPath(app, user, session)}/tracks/${seg(track)}`, {
      ...query,
    });
    return answer.events;
  }

  async *iterTrack(
    app: string,
    user: string,
    session: string,
    track: string,
    pageSize = 1000,
  ): AsyncGenerator<TrackEvent> {
    let after = 0;
    for (;;) {
      const events = await this.listTrack(app, user, session, track, { after_seq: after, limit: pageSize });
      yield* events;
      if (events.length < pageSize) return;
      after = events[events.length - 1]!.seq;
    }
  }

  /** One page of the session's tracks by name, each with its count and last event. */
  listTracks(
    app: string,
    user: string,
    session: string,
    query: { limit?: number; page_token?: string } = {},
  ): Promise<TrackPage> {
    return this.get(`${sessionPath(app, user, session)}/tracks`, { ...query });
  }

  iterTracks(
    app: string,
    user: string,
    session: string,
    query: { limit?: number; page_token?: string } = {},
  ): AsyncGenerator<TrackInfo> {
    return pages(query.page_token, async (page_token) => {
      const page = await this.listTracks(app, user, session, { ...query, page_token });
      return [page.tracks, page.next_page_token];
    });
  }

  // ---- search

  search(app: string, query: SearchQuery = {}): Promise<SearchResult> {
    return this.get(`/v1/apps/${seg(app)}/search`, { ...query });
  }

  // ---- lanes

  resolveLane(
    app: string,
    lane: string,
    request: ResolveLane,
  ): Promise<{ lane: Lane; session: Session; created: boolean }> {
    return this.transport.request('POST', `${lanePath(app, lane)}/resolve`, {
      body: request,
      safe: !request.force_new,
    });
  }

  getLane(app: string, lane: string): Promise<Lane> {
    return this.get(lanePath(app, lane));
  }

  listLanes(
    app: string,
    query: { active_within?: number; limit?: number; page_token?: string } = {},
  ): Promise<LanePage> {
    return this.get(`/v1/apps/${seg(app)}/lanes`, { ...query });
  }

  iterLanes(app: string, query: { active_within?: number; limit?: number } = {}): AsyncGenerator<Lane> {
    return pages(undefined, async (page_token) => {
      const page = await this.listLanes(app, { ...query, page_token });
      return [page.lanes, page.next_page_token];
    });
  }

  /** The reset policies lanes follow, as the daemon runs them (the same for every app). */
  getResetPolicies(app: string): Promise<ResetPolicies> {
    return this.get(`/v1/apps/${seg(app)}/reset-policies`);
  }

  resetLane(app: string, lane: string): Promise<{ lane: Lane; session: Session }> {
    return this.transport.request('POST', `${lanePath(app, lane)}/reset`);
  }

  switchLane(app: string, lane: string, sessionId: string): Promise<{ lane: Lane; session: Session }> {
    return this.transport.request('POST', `${lanePath(app, lane)}/switch`, {
      body: { session_id: sessionId },
      safe: true,
    });
  }

  suspendLane(app: string, lane: string): Promise<Lane> {
    return this.transport.request('POST', `${lanePath(app, lane)}/suspend`, { safe: true });
  }

  resumePending(
    app: string,
    lane: string,
    reason: 'restart_timeout' | 'shutdown_timeout' | 'restart_interrupted',
  ): Promise<Lane> {
    return this.transport.request('POST', `${lanePath(app, lane)}/resume-pending`, { body: { reason }, safe: true });
  }

  turnComplete(
    app: string,
    lane: string,
    tokens: { input_tokens?: number; output_tokens?: number } = {},
  ): Promise<Lane> {
    const counted = tokens.input_tokens !== undefined || tokens.output_tokens !== undefined;
    return this.transport.request('POST', `${lanePath(app, lane)}/turn-complete`, { body: tokens, safe: !counted });
  }

  // ---- memories

  async writeMemories(
    app: string,
    user: string,
    memories: NewMemory[],
    options: { wait?: boolean } = {},
  ): Promise<WrittenMemory[]> {
    // Safe to repeat: the same id with the same text is a retry, and text without an id is deduplicated.
    const answer = await this.transport.request<{ memories: WrittenMemory[] }>(
      'POST',
      `${userPath(app, user)}/memories`,
      {
        body: { memories, ...options },
        safe: true,
      },
    );
    return answer.memories;
  }

  async writeMemory(
    app: string,
    user: string,
    text: string,
    fields: Omit<NewMemory, 'text'> = {},
    options: { wait?: boolean } = {},
  ) {
    const [written] = await this.writeMemories(app, user, [{ ...fields, text }], options);
    return written!;
  }

  listMemories(app: string, user: string, query: ListMemoriesQuery = {}): Promise<MemoryPage> {
    return this.get(`${userPath(app, user)}/memories`, { ...query });
  }

  iterMemories(app: string, user: string, query: ListMemoriesQuery = {}): AsyncGenerator<Memory> {
    return pages(query.page_token, async (page_token) => {
      const page = await this.listMemories(app, user, { ...query, page_token });
      return [page.memories, page.next_page_token];
    });
  }

  getMemory(app: string, user: string, id: string, options: { include_embedding?: boolean } = {}): Promise<Memory> {
    return this.get(`${userPath(app, user)}/memories/${seg(id)}`, { ...options });
  }

  updateMemory(app: string, user: string, id: string, patch: MemoryPatch): Promise<Memory> {
    return this.transport.request('PATCH', `${userPath(app, user)}/memories/${seg(id)}`, { body: patch, safe: true });
  }

  async deleteMemory(app: string, user: string, id: string): Promise<void> {
    await this.transport.request('DELETE', `${userPath(app, user)}/memories/${seg(id)}`, { safe: true });
  }

  /** Recall over the app's memories (every filter); without `user`, the whole app (an app or admin token). */
  recall(app: string, request: RecallRequest): Promise<RecallResult> {
    return this.transport.request('POST', `/v1/apps/${seg(app)}/memories/search`, { body: request, safe: true });
  }

  /** The GET form of recall for one user. */
  recallUser(
    app: string,
    user: string,
    q: string,
    query: { namespace?: string; mode?: RecallMode; limit?: number } = {},
  ) {
    return this.get<RecallResult>(`${userPath(app, user)}/memories/search`, { q, ...query });
  }

  // ---- operations

  healthz(): Promise<{ status: string }> {
    return this.get('/healthz');
  }

  /** True when /readyz answers 200; false for 503 (draining, storage down) or 429. */
  async ready(): Promise<boolean> {
    try {
      await this.transport.request('GET', '/readyz', { once: true });
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 503 || error.status === 429)) return false;
      throw error;
    }
  }

  info(): Promise<Info> {
    return this.get('/v1/info');
  }

  metrics(): Promise<string> {
    return this.transport.request('GET', '/metrics', { safe: true, text: true });
  }
}
