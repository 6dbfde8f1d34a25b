// MnemoCheckpointSaver: LangGraph.js checkpoints kept in mnemod. One thread
// is one mnemod session of the saver's (app, user); each `put` appends one
// event holding the checkpoint, its metadata and the values of the channels
// that changed (by `newVersions`), and each `putWrites` one event holding the
// task's pending writes. Reading a thread reads its events and rebuilds each
// checkpoint's channel values from the newest stored value of each channel
// version, as LangGraph's SQL savers do.
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  copyCheckpoint,
  getCheckpointId,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';

import { MnemoClient, type ClientOptions } from '../client.js';
import { AlreadyExists, NotFound } from '../errors.js';
import type { Event, Json, NewEvent, Session } from '../types.js';
import { nameOf } from './names.js';

export interface MnemoCheckpointSaverOptions extends ClientOptions {
  /** The mnemod app the threads belong to. */
  app: string;
  /** The mnemod user whose sessions hold the threads: savers of different users never see each other's threads. */
  user: string;
  /** A client to share instead of one built from `url`, `token` and the retry options. */
  client?: MnemoClient;
  /**
   * TTL of each thread's session in seconds, refreshed by every write: a thread
   * not written for this long disappears with all its checkpoints. Absent: the
   * app's configured session TTL; 0: never.
   */
  ttlSeconds?: number;
  /**
   * Every this many puts to a thread (counted per saver instance, starting
   * with its first put to the thread), store the values of all channels, not
   * only the changed ones. Needed when the app has an `event_limit`, which
   * evicts the oldest events: a checkpoint must not read a value stored only
   * in an evicted one. Keep it well below event_limit divided by the events
   * per step (one per put and one per task's writes). Absent: never.
   */
  snapshotEvery?: number;
  /** How many threads this saver keeps read in memory, to fetch only their new events on the next read (default 100). */
  cacheThreads?: number;
  serde?: SerializerProtocol;
}

// A value as the saver stores it: JSON the serializer produced kept as JSON
// (readable in mnemod), anything else as base64 bytes.
type Stored = { json: Json } | { type: string; b64: string } | { empty: true };

interface CheckpointContent {
  lg: 'checkpoint';
  thread: string;
  ns: string;
  id: string;
  parent: string | null;
  checkpoint: Stored;
  metadata: Stored;
  /** channel → [version, value] for the channels this checkpoint changed. */
  blobs: Record<string, [string | number, Stored]>;
}

interface WritesContent {
  lg: 'writes';
  thread: string;
  ns: string;
  checkpoint: string;
  task: string;
  path: string;
  writes: [number, string, Stored][];
}

interface StoredWrite {
  task: string;
  path: string;
  idx: number;
  channel: string;
  value: Stored;
}

// One thread as read from its events.
interface Thread {
  checkpoints: Map<string, Map<string, CheckpointContent>>;
  /** blobKey(ns, channel, version) → the stored value. */
  blobs: Map<string, Stored>;
  writes: Map<string, Map<string, StoredWrite>>;
}

const blobKey = (ns: string, channel: string, version: string | number) =>
  JSON.stringify([ns, channel, String(version)]);
const writesKey = (ns: string, checkpoint: string) => JSON.stringify([ns, checkpoint]);

function missingThread(what: string): Error {
  return new Error(
    `Failed to ${what}: the RunnableConfig has no "thread_id" in its "configurable"; ` +
      'pass one, e.g. graph.invoke(input, { configurable: { thread_id: "t1" } })',
  );
}

export class MnemoCheckpointSaver extends BaseCheckpointSaver {
  readonly client: MnemoClient;
  readonly app: string;
  readonly user: string;
  readonly ttlSeconds: number | undefined;
  readonly snapshotEvery: number | undefined;
  // Puts per thread since this instance's last snapshot of it.
  private readonly sinceSnapshot = new Map<string, number>();
  // Threads read lately (by session id), so that a read fetches only the events appended since.
  private readonly cache = new Map<string, { thread: Thread; createdAt: string; lastSeq: number; count: number }>();
  private readonly cacheThreads: number;

  constructor(options: MnemoCheckpointSaverOptions) {
    super(options.serde);
    if (!options.app || !options.user) throw new Error('MnemoCheckpointSaver needs both `app` and `user`');
    this.client = options.client ?? new MnemoClient(options);
    this.app = options.app;
    this.user = options.user;
    this.ttlSeconds = options.ttlSeconds;
    this.snapshotEvery = options.snapshotEvery;
    this.cacheThreads = options.cacheThreads ?? 100;
    if (this.snapshotEvery !== undefined && !(Number.isInteger(this.snapshotEvery) && this.snapshotEvery >= 1)) {
      throw new Error(`MnemoCheckpointSaver: snapshotEvery must be an integer >= 1, not ${this.snapshotEvery}`);
    }
  }

  /** The mnemod session id that holds a thread. */
  sessionId(threadId: string): string {
    return nameOf(threadId);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = config.configurable?.['thread_id'];
    if (threadId === undefined || threadId === null) return undefined;
    const ns: string = config.configurable?.['checkpoint_ns'] ?? '';
    const thread = await this.readThread(String(threadId));
    if (!thread) return undefined;
    const checkpoints = thread.checkpoints.get(ns);
    if (!checkpoints) return undefined;
    let id: string | undefined = getCheckpointId(config);
    if (!id) id = [...checkpoints.keys()].sort().at(-1);
    const content = id === undefined ? undefined : checkpoints.get(id);
    return content && this.tupleOf(thread, content);
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let { limit } = options;
    const threadId = config.configurable?.['thread_id'];
    const ns: string | undefined = config.configurable?.['checkpoint_ns'];
    const onlyId = getCheckpointId(config);
    const beforeId = before?.configurable?.['checkpoint_id'] as string | undefined;
    const threads: Thread[] = [];
    if (threadId !== undefined && threadId !== null) {
      const thread = await this.readThread(String(threadId));
      if (thread) threads.push(thread);
    } else {
      for await (const session of this.client.iterSessions(this.app, this.user, { limit: 1000 })) {
        // Only the user's sessions that hold threads, not those of other clients.
        if (session.metadata['langgraph_thread_id'] === undefined) continue;
        const thread = await this.readSession(session.id);
        if (thread) threads.push(thread);
      }
    }
    const candidates: [Thread, CheckpointContent][] = [];
    for (const thread of threads) {
      for (const [checkpointNs, checkpoints] of thread.checkpoints) {
        if (ns !== undefined && checkpointNs !== ns) continue;
        for (const content of checkpoints.values()) {
          if (onlyId && content.id !== onlyId) continue;
          if (beforeId && content.id >= beforeId) continue;
          candidates.push([thread, content]);
        }
      }
    }
    // Newest first: checkpoint ids are time-ordered UUIDv6.
    candidates.sort(([, a], [, b]) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    for (const [thread, content] of candidates) {
      if (limit !== undefined && limit <= 0) return;
      const tuple = await this.tupleOf(thread, content);
      const metadata = (tuple.metadata ?? {}) as Record<string, unknown>;
      if (filter && !Object.entries(filter).every(([key, value]) => sameJson(metadata[key], value))) continue;
      if (limit !== undefined) limit -= 1;
      yield tuple;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (!config.configurable) throw missingThread('put checkpoint');
    const threadId = config.configurable['thread_id'];
    if (threadId === undefined || threadId === null) throw missingThread('put checkpoint');
    const thread = String(threadId);
    const ns: string = config.configurable['checkpoint_ns'] ?? '';
    const stripped = copyCheckpoint(checkpoint) as Partial<Checkpoint>;
    const values = stripped.channel_values ?? {};
    delete stripped.channel_values;
    const blobs: CheckpointContent['blobs'] = {};
    let changed: ChannelVersions = newVersions;
    if (this.snapshotEvery !== undefined) {
      const key = JSON.stringify([thread, ns]);
      const count = this.sinceSnapshot.get(key);
      if (count === undefined || count + 1 >= this.snapshotEvery) {
        // Only channels that have a value: an "empty" mark would hide the value stored for that version.
        const held = Object.entries(stripped.channel_versions ?? {}).filter(([channel]) =>
          Object.prototype.hasOwnProperty.call(values, channel),
        );
        changed = { ...Object.fromEntries(held), ...newVersions };
        this.sinceSnapshot.set(key, 0);
      } else {
        this.sinceSnapshot.set(key, count + 1);
      }
    }
    for (const [channel, version] of Object.entries(changed)) {
      const present = Object.prototype.hasOwnProperty.call(values, channel);
      blobs[channel] = [
        version,
        present ? await this.encode((values as Record<string, unknown>)[channel]) : { empty: true },
      ];
    }
    const content: CheckpointContent = {
      lg: 'checkpoint',
      thread,
      ns,
      id: checkpoint.id,
      parent: (config.configurable['checkpoint_id'] as string | undefined) ?? null,
      checkpoint: await this.encode(stripped),
      metadata: await this.encode(metadata),
      blobs,
    };
    await this.append(thread, { author: 'langgraph', role: 'system', content: content as unknown as Json });
    return { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = config.configurable?.['thread_id'];
    if (threadId === undefined || threadId === null) throw missingThread('put writes');
    const checkpointId = config.configurable?.['checkpoint_id'];
    if (!checkpointId) {
      throw new Error(
        'Failed to put writes: the RunnableConfig has no "checkpoint_id" in its "configurable" ' +
          '(the config put() answered has one)',
      );
    }
    const content: WritesContent = {
      lg: 'writes',
      thread: String(threadId),
      ns: config.configurable?.['checkpoint_ns'] ?? '',
      checkpoint: String(checkpointId),
      task: taskId,
      path: taskPath ?? '',
      writes: await Promise.all(
        writes.map(
          async ([channel, value], idx) =>
            [WRITES_IDX_MAP[channel] ?? idx, channel, await this.encode(value)] as [number, string, Stored],
        ),
      ),
    };
    await this.append(String(threadId), { author: 'langgraph', role: 'system', content: content as unknown as Json });
  }

  async deleteThread(threadId: string): Promise<void> {
    this.cache.delete(this.sessionId(threadId));
    try {
      await this.client.deleteSession(this.app, this.user, this.sessionId(threadId), { hard: true });
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  /**
   * Keeps the newest `keepLast` checkpoints of each namespace of a thread (and
   * their pending writes), dropping the older ones in one atomic rewrite of the
   * thread's session. The values the kept checkpoints still read from dropped
   * ones move into the oldest kept checkpoint, so every kept checkpoint reads
   * back whole. Answers how many checkpoints were dropped. A write to the
   * thread in between makes it fail with Conflict and change nothing.
   */
  async prune(threadId: string, { keepLast }: { keepLast: number }): Promise<number> {
    if (!Number.isInteger(keepLast) || keepLast < 1)
      throw new Error(`prune: keepLast must be an integer >= 1, not ${keepLast}`);
    const session = this.sessionId(threadId);
    let version: number;
    try {
      version = (await this.client.getSession(this.app, this.user, session, { num_recent_events: 1 })).session.version;
    } catch (error) {
      if (error instanceof NotFound) return 0;
      throw error;
    }
    const thread = await this.readSession(session);
    if (!thread) return 0;
    const events: NewEvent[] = [];
    let dropped = 0;
    for (const [ns, checkpoints] of thread.checkpoints) {
      const ids = [...checkpoints.keys()].sort();
      const kept = ids.slice(-keepLast);
      dropped += ids.length - kept.length;
      const emitted = new Set<string>();
      for (const id of kept) {
        const content = checkpoints.get(id)!;
        const checkpoint = (await this.decode(content.checkpoint)) as Checkpoint;
        const blobs: CheckpointContent['blobs'] = {};
        for (const [channel, version] of Object.entries(checkpoint.channel_versions ?? {})) {
          const key = blobKey(ns, channel, version);
          const stored = thread.blobs.get(key);
          if (stored && !emitted.has(key)) blobs[channel] = [version, stored];
          emitted.add(key);
        }
        events.push({ author: 'langgraph', role: 'system', content: { ...content, blobs } as unknown as Json });
        const writes = this.orderedWrites(thread, ns, id);
        for (const w of writes) {
          const writesContent: WritesContent = {
            lg: 'writes',
            thread: content.thread,
            ns,
            checkpoint: id,
            task: w.task,
            path: w.path,
            writes: [[w.idx, w.channel, w.value]],
          };
          events.push({ author: 'langgraph', role: 'system', content: writesContent as unknown as Json });
        }
      }
    }
    if (dropped === 0) return 0;
    this.cache.delete(session);
    await this.client.rewriteEvents(this.app, this.user, session, events, { expected_version: version });
    return dropped;
  }

  // Appends to the thread's session; the first write creates it (with the TTL and the thread id in its metadata).
  private async append(threadId: string, event: NewEvent): Promise<void> {
    const session = this.sessionId(threadId);
    try {
      await this.client.appendEvent(this.app, this.user, session, event);
      return;
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
    try {
      await this.client.createSession(this.app, this.user, {
        id: session,
        metadata: { langgraph_thread_id: threadId },
        ...(this.ttlSeconds === undefined ? {} : { ttl_seconds: this.ttlSeconds }),
      });
    } catch (error) {
      if (!(error instanceof AlreadyExists)) throw error;
    }
    await this.client.appendEvent(this.app, this.user, session, event);
  }

  private readThread(threadId: string): Promise<Thread | undefined> {
    return this.readSession(this.sessionId(threadId));
  }

  // Reads a thread: from this saver's cache plus the events appended since,
  // or whole when the session is not the one cached (deleted and created
  // again, pruned, or events evicted: its event count then disagrees).
  private async readSession(session: string): Promise<Thread | undefined> {
    let now: Session;
    try {
      now = (await this.client.getSession(this.app, this.user, session, { num_recent_events: 1 })).session;
    } catch (error) {
      if (error instanceof NotFound) {
        this.cache.delete(session);
        return undefined;
      }
      throw error;
    }
    const cached = this.cache.get(session);
    if (cached && cached.createdAt === now.created_at) {
      const lastSeq = cached.lastSeq;
      const fresh = await this.eventsAfter(session, lastSeq);
      // Unless another read of this thread absorbed events meanwhile.
      const untouched = this.cache.get(session) === cached && cached.lastSeq === lastSeq;
      if (fresh && untouched && cached.count + fresh.length === now.event_count) {
        absorb(cached.thread, fresh);
        cached.count += fresh.length;
        cached.lastSeq = fresh.at(-1)?.seq ?? cached.lastSeq;
        return cached.thread;
      }
    }
    const events = await this.eventsAfter(session, 0);
    if (!events) {
      this.cache.delete(session);
      return undefined;
    }
    const thread: Thread = { checkpoints: new Map(), blobs: new Map(), writes: new Map() };
    absorb(thread, events);
    this.cache.delete(session);
    this.cache.set(session, {
      thread,
      createdAt: now.created_at,
      lastSeq: events.at(-1)?.seq ?? 0,
      count: events.length,
    });
    // The least recently read threads go first.
    while (this.cache.size > this.cacheThreads) this.cache.delete(this.cache.keys().next().value!);
    return thread;
  }

  private async eventsAfter(session: string, afterSeq: number): Promise<Event[] | undefined> {
    const events: Event[] = [];
    try {
      for await (const event of this.client.iterEvents(this.app, this.user, session, {
        after_seq: afterSeq,
        limit: 1000,
      }))
        events.push(event);
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
    return events;
  }

  private orderedWrites(thread: Thread, ns: string, checkpointId: string): StoredWrite[] {
    const stored = [...(thread.writes.get(writesKey(ns, checkpointId))?.values() ?? [])];
    return stored.sort((a, b) =>
      compareWritesSortKeys(writesSortKey(a.path, a.task, a.idx), writesSortKey(b.path, b.task, b.idx)),
    );
  }

  private async tupleOf(thread: Thread, content: CheckpointContent): Promise<CheckpointTuple> {
    const checkpoint = (await this.decode(content.checkpoint)) as Checkpoint;
    const values: Record<string, unknown> = {};
    for (const [channel, version] of Object.entries(checkpoint.channel_versions ?? {})) {
      const stored = thread.blobs.get(blobKey(content.ns, channel, version));
      if (stored && !('empty' in stored)) values[channel] = await this.decode(stored);
    }
    checkpoint.channel_values = values;
    if (checkpoint.v < 4 && content.parent !== null) {
      // Checkpoints before format 4 kept pending sends as the parent's TASKS writes.
      const sends = this.orderedWrites(thread, content.ns, content.parent).filter((w) => w.channel === TASKS);
      checkpoint.channel_values[TASKS] = await Promise.all(sends.map((w) => this.decode(w.value)));
      checkpoint.channel_versions ??= {};
      const versions = Object.values(checkpoint.channel_versions);
      checkpoint.channel_versions[TASKS] =
        versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
    }
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      this.orderedWrites(thread, content.ns, content.id).map(
        async (w) => [w.task, w.channel, await this.decode(w.value)] as CheckpointPendingWrite,
      ),
    );
    const tuple: CheckpointTuple = {
      config: { configurable: { thread_id: content.thread, checkpoint_ns: content.ns, checkpoint_id: content.id } },
      checkpoint,
      metadata: (await this.decode(content.metadata)) as CheckpointMetadata,
      pendingWrites,
    };
    if (content.parent !== null) {
      tuple.parentConfig = {
        configurable: { thread_id: content.thread, checkpoint_ns: content.ns, checkpoint_id: content.parent },
      };
    }
    return tuple;
  }

  private async encode(value: unknown): Promise<Stored> {
    const [type, bytes] = await this.serde.dumpsTyped(value);
    if (type === 'json') return { json: JSON.parse(Buffer.from(bytes).toString('utf8')) as Json };
    return { type, b64: Buffer.from(bytes).toString('base64') };
  }

  private decode(stored: Stored): Promise<unknown> {
    if ('json' in stored) return this.serde.loadsTyped('json', JSON.stringify(stored.json));
    if ('b64' in stored) return this.serde.loadsTyped(stored.type, new Uint8Array(Buffer.from(stored.b64, 'base64')));
    return Promise.resolve(undefined);
  }
}

// Adds a thread's events, oldest first, to what was read of it before.
function absorb(thread: Thread, events: Event[]): void {
  for (const event of events) {
    const content = event.content as unknown as CheckpointContent | WritesContent | null;
    if (!content || typeof content !== 'object') continue;
    if (content.lg === 'checkpoint') {
      let byId = thread.checkpoints.get(content.ns);
      if (!byId) thread.checkpoints.set(content.ns, (byId = new Map()));
      // A checkpoint put again replaces the earlier one, as in LangGraph's SQL savers.
      byId.set(content.id, content);
      for (const [channel, [version, value]] of Object.entries(content.blobs)) {
        thread.blobs.set(blobKey(content.ns, channel, version), value);
      }
    } else if (content.lg === 'writes') {
      const key = writesKey(content.ns, content.checkpoint);
      let stored = thread.writes.get(key);
      if (!stored) thread.writes.set(key, (stored = new Map()));
      for (const [idx, channel, value] of content.writes) {
        const slot = JSON.stringify([content.task, idx]);
        // A regular write is kept from its first put; a special one (error, interrupt) is replaced.
        if (idx >= 0 && stored.has(slot)) continue;
        stored.set(slot, { task: content.task, path: content.path, idx, channel, value });
      }
    }
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
