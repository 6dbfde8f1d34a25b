// MnemoStore: LangGraph's BaseStore over the memories of one mnemod user.
// An item is one memory: its id a hash of (namespace, key), its memory
// namespace the escaped labels joined by "." (hashed past 128 bytes), its
// text the indexed fields of the value (what recall searches), and its
// metadata the value itself plus one key per namespace label and per
// top-level scalar of the value, so that namespace prefixes and equality
// filters run in mnemod; other filter operators apply after recall.
import { createHash } from 'node:crypto';

import {
  BaseStore,
  getTextAtPath,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from '@langchain/langgraph-checkpoint';

import { MnemoClient, type ClientOptions } from '../client.js';
import { NotFound } from '../errors.js';
import type { Json, JsonObject, Memory } from '../types.js';
import { escapeName, nameOf } from './names.js';

export interface MnemoStoreOptions extends ClientOptions {
  app: string;
  /** The mnemod user whose memories hold the items. */
  user: string;
  client?: MnemoClient;
  /**
   * Which fields of a value make the searchable text ("a.b", "list[*].c";
   * "$" is every string, number and boolean of the value, the default). A put's own
   * `index` list replaces it for that item; `index: false` makes only the key searchable.
   */
  index?: { fields?: string[] };
  /** TTL of each item in seconds, refreshed by each put; absent: the app's `memory.ttl`. */
  ttlSeconds?: number;
  /** Longest text sent for an item (mnemod's `memory.max_text_bytes`, default 8 KiB). */
  maxTextBytes?: number;
}

const NS_DEPTH = 'lg.depth';
const nsLabel = (i: number) => `lg.ns.${i}`;
const valueField = (field: string) => `lg.v.${field}`;

type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v);

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin'];
const isOperators = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => OPERATORS.includes(k));

// LangGraph's own operator semantics (InMemoryStore), applied to the value after recall.
function matches(itemValue: unknown, filterValue: unknown): boolean {
  if (!isOperators(filterValue)) return JSON.stringify(itemValue) === JSON.stringify(filterValue);
  return Object.entries(filterValue).every(([op, value]) => {
    switch (op) {
      case '$eq':
        return itemValue === value;
      case '$ne':
        return itemValue !== value;
      case '$gt':
        return Number(itemValue) > Number(value);
      case '$gte':
        return Number(itemValue) >= Number(value);
      case '$lt':
        return Number(itemValue) < Number(value);
      case '$lte':
        return Number(itemValue) <= Number(value);
      case '$in':
        return Array.isArray(value) && value.includes(itemValue);
      case '$nin':
        return !Array.isArray(value) || !value.includes(itemValue);
      default:
        return false;
    }
  });
}

// The whole value as searchable text: its string and number leaves, not its
// JSON (whose keys and punctuation would match keyword queries).
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [];
}

function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  // Cut at a character boundary: drop continuation bytes at the cut.
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) --end;
  return bytes.subarray(0, end).toString('utf8');
}

export class MnemoStore extends BaseStore {
  readonly client: MnemoClient;
  readonly app: string;
  readonly user: string;
  private readonly fields: string[];
  private readonly ttlSeconds: number | undefined;
  private readonly maxTextBytes: number;

  constructor(options: MnemoStoreOptions) {
    super();
    if (!options.app || !options.user) throw new Error('MnemoStore needs both `app` and `user`');
    this.client = options.client ?? new MnemoClient(options);
    this.app = options.app;
    this.user = options.user;
    this.fields = options.index?.fields ?? ['$'];
    this.ttlSeconds = options.ttlSeconds;
    this.maxTextBytes = options.maxTextBytes ?? 8192;
  }

  /** The memory namespace of a store namespace. */
  memoryNamespace(namespace: string[]): string {
    const joined = namespace.map((label) => escapeName(label)).join('.');
    return joined.length <= 128 ? joined : nameOf(JSON.stringify(namespace), 0);
  }

  /** The memory id of an item. */
  memoryId(namespace: string[], key: string): string {
    return `lg-${createHash('sha256')
      .update(JSON.stringify([namespace, key]), 'utf8')
      .digest('hex')}`;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) {
      if ('key' in op && 'value' in op) results.push(await this.putOp(op as PutOperation));
      else if ('key' in op) results.push(await this.getOp(op as GetOperation));
      else if ('namespacePrefix' in op) results.push(await this.searchOp(op as SearchOperation));
      else results.push(await this.listNamespacesOp(op as ListNamespacesOperation));
    }
    return results as OperationResults<Op>;
  }

  private async getOp({ namespace, key }: GetOperation): Promise<Item | null> {
    try {
      return this.itemOf(await this.client.getMemory(this.app, this.user, this.memoryId(namespace, key)));
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  private async putOp({ namespace, key, value, index }: PutOperation): Promise<void> {
    const id = this.memoryId(namespace, key);
    if (value === null) {
      try {
        await this.client.deleteMemory(this.app, this.user, id);
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
      }
      return;
    }
    const metadata: JsonObject = {
      'lg.key': key,
      'lg.namespace': namespace,
      'lg.value': value as Json,
      [NS_DEPTH]: namespace.length,
    };
    namespace.forEach((label, i) => (metadata[nsLabel(i)] = label));
    for (const [field, v] of Object.entries(value)) if (isScalar(v)) metadata[valueField(field)] = v;
    const fields = index === false ? [] : (index ?? this.fields);
    const texts = fields.flatMap((path) => (path === '$' ? leaves(value) : getTextAtPath(value, path)));
    const text = truncateUtf8(texts.join('\n').trim() || key, this.maxTextBytes);
    await this.client.writeMemories(this.app, this.user, [
      {
        id,
        text,
        namespace: this.memoryNamespace(namespace),
        metadata,
        ...(this.ttlSeconds === undefined ? {} : { ttl_seconds: this.ttlSeconds }),
      },
    ]);
  }

  private async searchOp({
    namespacePrefix,
    filter,
    limit = 10,
    offset = 0,
    query,
  }: SearchOperation): Promise<SearchItem[]> {
    // Namespace labels and equality filters on top-level scalars go to mnemod as metadata equalities.
    const exact: Record<string, Scalar> = {};
    namespacePrefix.forEach((label, i) => (exact[nsLabel(i)] = label));
    const rest: [string, unknown][] = [];
    for (const [field, wanted] of Object.entries(filter ?? {})) {
      const eq = isOperators(wanted) && Object.keys(wanted).length === 1 && '$eq' in wanted ? wanted['$eq'] : wanted;
      if (isScalar(eq) && !isOperators(eq)) exact[valueField(field)] = eq;
      else rest.push([field, wanted]);
    }
    const keep = (memory: Memory) => {
      if (memory.metadata['lg.key'] === undefined) return false; // not an item of a store
      const value = (memory.metadata['lg.value'] ?? {}) as Record<string, unknown>;
      return rest.every(([field, wanted]) => matches(value[field], wanted));
    };
    const found: SearchItem[] = [];
    if (query) {
      // Recall ranks at most 100; operators other than equality can only thin that list.
      const answer = await this.client.recall(this.app, { query, user: this.user, metadata: exact, limit: 100 });
      for (const memory of answer.memories)
        if (keep(memory)) found.push({ ...this.itemOf(memory), score: memory.score });
    } else {
      for await (const memory of this.client.iterMemories(this.app, this.user, { limit: 1000 })) {
        const labels = Object.entries(exact).every(
          ([k, v]) => JSON.stringify(memory.metadata[k]) === JSON.stringify(v),
        );
        if (labels && keep(memory)) found.push(this.itemOf(memory));
        if (found.length >= offset + limit) break;
      }
    }
    return found.slice(offset, offset + limit);
  }

  private async listNamespacesOp({
    matchConditions = [],
    maxDepth,
    limit,
    offset,
  }: ListNamespacesOperation): Promise<string[][]> {
    const seen = new Map<string, string[]>();
    for await (const memory of this.client.iterMemories(this.app, this.user, { limit: 1000 })) {
      const namespace = memory.metadata['lg.namespace'];
      if (!Array.isArray(namespace)) continue;
      const labels = namespace as string[];
      const ok = matchConditions.every(({ matchType, path }) => {
        if (path.length > labels.length) return false;
        const part = matchType === 'prefix' ? labels.slice(0, path.length) : labels.slice(labels.length - path.length);
        return path.every((p, i) => p === '*' || p === part[i]);
      });
      if (!ok) continue;
      const cut = maxDepth === undefined ? labels : labels.slice(0, maxDepth);
      seen.set(JSON.stringify(cut), cut);
    }
    const sorted = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ns]) => ns);
    return sorted.slice(offset, offset + limit);
  }

  private itemOf(memory: Memory): Item {
    return {
      namespace: memory.metadata['lg.namespace'] as string[],
      key: memory.metadata['lg.key'] as string,
      value: memory.metadata['lg.value'] as Record<string, unknown>,
      createdAt: new Date(memory.created_at),
      updatedAt: new Date(memory.updated_at),
    };
  }
}
