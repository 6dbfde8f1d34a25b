// The request and answer shapes of mnemod's HTTP API, with the wire's field
// names. Timestamps in requests may be RFC 3339 strings or Unix seconds.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Timestamp = string | number;
export type Role = 'user' | 'assistant' | 'system' | 'tool' | 'summary';

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  total_tokens?: number;
  cost_usd?: number;
}

export interface Session {
  app: string;
  user: string;
  id: string;
  title: string;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  version: number;
  /** Absent in lists. */
  state?: JsonObject;
  metadata: JsonObject;
  event_count: number;
  usage: Required<Usage>;
}

export interface NewSession {
  id?: string;
  state?: JsonObject;
  metadata?: JsonObject;
  title?: string;
  parent_id?: string;
  /** 0: never expires; absent: the configured TTL. */
  ttl_seconds?: number;
}

export interface ToolCall {
  name: string;
  arguments?: Json;
  result_summary?: string;
  status?: string;
}

export interface Media {
  kind: string;
  path?: string;
  mime_type?: string;
  sha256?: string;
}

export interface NewEvent {
  /** Client id, unique within the session; the client assigns a UUIDv7 when absent. */
  id?: string;
  invocation_id?: string;
  author: string;
  role?: Role;
  content?: Json;
  partial?: boolean;
  state_delta?: JsonObject;
  usage?: Usage;
  tool_calls?: ToolCall[];
  media?: Media[];
  filter_key?: string;
  timestamp?: Timestamp;
  metadata?: JsonObject;
}

export interface Event {
  id: string;
  seq: number;
  timestamp: string;
  invocation_id?: string | null;
  author: string;
  role: Role;
  content?: Json;
  state_delta?: JsonObject;
  usage?: Usage;
  tool_calls?: ToolCall[];
  media?: Media[];
  filter_key?: string;
  metadata?: JsonObject;
  deleted?: boolean;
}

export interface Summary {
  filter_key: string;
  text: string;
  from_seq: number;
  up_to_seq: number;
  events_covered: number;
  created_at: string;
  source: 'lua' | 'command' | 'client';
}

export interface SessionWithEvents {
  session: Session;
  events: Event[];
  summary: Summary | null;
}

export interface GetSessionQuery {
  num_recent_events?: number;
  after?: Timestamp;
  from_checkpoint?: boolean;
  filter_key?: string;
}

export interface ListSessionsQuery {
  /** Only with the app-wide listing. */
  user?: string;
  limit?: number;
  page_token?: string;
  active_within?: number;
}

export interface SessionPage {
  sessions: Session[];
  next_page_token: string | null;
}

export interface PurgeCounts {
  sessions: number;
  events: number;
  summaries: number;
  tracks: number;
  lanes: number;
  state_keys: number;
  memories?: number;
}

export interface AppendOptions {
  expected_version?: number;
  create_if_missing?: boolean;
}

export interface AppendResult {
  version: number;
  appended: { id: string; seq: number; timestamp: string }[];
  skipped_partial: number;
  dropped: number;
  evicted: number;
  summary_enqueued: boolean;
  state?: JsonObject;
}

export interface ListEventsQuery {
  after_seq?: number;
  limit?: number;
  role?: Role | Role[];
  include_deleted?: boolean;
}

export interface EventPage {
  events: Event[];
  next_after_seq: number | null;
}

export interface RewriteResult {
  version: number;
  replaced: number;
}

export interface RewindResult {
  rewound_count: number;
  turns_undone: number;
  target_text: string | null;
  version: number;
}

export interface StateResult {
  version?: number;
  state: JsonObject;
}

export interface TrackEvent {
  seq: number;
  payload: Json;
  timestamp: string;
}

/** One track of a session, as the session's list of tracks names it. */
export interface TrackInfo {
  track: string;
  events: number;
  last_seq: number;
  last_timestamp: string;
}

export interface TrackPage {
  tracks: TrackInfo[];
  next_page_token: string | null;
}

export interface SearchQuery {
  q?: string;
  user?: string;
  channel?: string;
  exclude_session?: string;
  role?: Role | Role[];
  limit?: number;
  context?: number;
}

export interface SearchResult {
  results: {
    session: Pick<Session, 'app' | 'user' | 'id' | 'title' | 'updated_at' | 'metadata'>;
    hits: { seq: number; role: Role; excerpt: string; context: Event[] }[];
  }[];
}

export interface Lane {
  app: string;
  lane: string;
  session_id: string;
  user: string;
  platform: string;
  chat_type: string;
  updated_at: string;
  suspended: boolean;
  resume_pending: boolean;
  resume_reason: string | null;
  was_auto_reset: boolean;
  auto_reset_reason: 'idle' | 'daily' | 'suspended' | null;
  reset_had_activity: boolean;
  is_fresh_reset: boolean;
}

export interface ResolveLane {
  user: string;
  platform?: string;
  chat_type?: ChatType;
  force_new?: boolean;
  metadata?: JsonObject;
}

export interface LanePage {
  lanes: Lane[];
  next_page_token: string | null;
}

export type ChatType = 'dm' | 'group' | 'channel' | 'thread';

export interface ResetPolicy {
  mode: 'none' | 'idle' | 'daily' | 'both';
  at_hour: number;
  idle_minutes: number;
  notify: boolean;
}

/** The reset section as the daemon runs it: each override's policy merged over the default. */
export interface ResetPolicies {
  timezone: string;
  default: ResetPolicy;
  overrides: { match: { platform?: string; chat_type?: ChatType }; policy: ResetPolicy }[];
}

/** An app holding data or configured, with its counts (GET /v1/apps). */
export interface AppActivity {
  app: string;
  configured: boolean;
  users: number;
  sessions: number;
  events: number;
  memories: number;
  last_active_at: string | null;
}

export interface UserActivity {
  user: string;
  sessions: number;
  events: number;
  memories: number;
  last_active_at: string | null;
}

export interface UserPage {
  users: UserActivity[];
  next_page_token: string | null;
}

export type EmbeddingStatus = 'ready' | 'pending' | 'failed' | 'none';

export interface Memory {
  id: string;
  app: string;
  user: string;
  namespace: string;
  text: string;
  metadata: JsonObject;
  session_id: string | null;
  source: { session: string; seq: number } | null;
  embedding: EmbeddingStatus;
  embedding_model: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  vector?: number[];
}

export interface NewMemory {
  id?: string;
  text: string;
  namespace?: string;
  metadata?: JsonObject;
  session_id?: string;
  embedding?: number[];
  embedding_model?: string;
  ttl_seconds?: number;
}

export interface WrittenMemory {
  id: string;
  created: boolean;
  embedding: EmbeddingStatus;
}

export interface MemoryPatch {
  text?: string;
  namespace?: string;
  metadata?: JsonObject;
  embedding?: number[];
  ttl_seconds?: number;
}

export interface ListMemoriesQuery {
  namespace?: string;
  session_id?: string;
  limit?: number;
  page_token?: string;
}

export interface MemoryPage {
  memories: Memory[];
  next_page_token: string | null;
}

export type RecallMode = 'hybrid' | 'semantic' | 'keyword';

export interface RecallRequest {
  query?: string;
  embedding?: number[];
  user?: string;
  namespace?: string;
  session_id?: string;
  metadata?: Record<string, string | number | boolean | null>;
  created_after?: Timestamp;
  created_before?: Timestamp;
  mode?: RecallMode;
  limit?: number;
  min_similarity?: number;
}

export interface RecalledMemory extends Memory {
  score: number;
  similarity: number | null;
  keyword_rank: number | null;
  vector_rank: number | null;
}

export interface RecallResult {
  mode: RecallMode;
  memories: RecalledMemory[];
}

export interface Info {
  version: string;
  storage: { plugin: string; abi_version: number; capabilities: string[] };
  uptime_seconds: number;
}
