// One HTTP exchange with mnemod and its retries: bearer token, timeout,
// JSON in and out, error answers turned into ApiError subclasses, 429/503
// retried after Retry-After, and a request whose answer was lost sent again
// only when it is safe to repeat.
import { ApiError, ConnectionFailed, MnemoError, Timeout, apiError } from './errors.js';

export interface RetryOptions {
  /** How often a failed request is tried again (default 2). */
  retries?: number;
  /** First backoff in ms for an unreachable daemon, doubled each retry (default 100). */
  backoffMs?: number;
  /** Longest backoff in ms (default 2000). */
  maxBackoffMs?: number;
  /** Longest Retry-After honoured, in ms; a longer one raises at once (default 30000). */
  maxRetryAfterMs?: number;
}

export interface TransportOptions extends RetryOptions {
  /** `http://host:port` or `https://host:port` (default MNEMO_URL, else http://127.0.0.1:7420). */
  url?: string;
  /** Sent as `Authorization: Bearer` (default MNEMO_TOKEN). */
  token?: string;
  /** Bound on each attempt, in ms (default 30000). */
  timeoutMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Whether a request whose answer was lost may be sent again (reads, idempotent writes). */
  safe?: boolean;
  /** Answer the body as text instead of JSON (the metrics). */
  text?: boolean;
  /** One attempt only (a probe such as /readyz, whose 503 is the answer). */
  once?: boolean;
}

export function encodeQuery(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A path segment: names are percent-encoded, so a bad one reaches the daemon and its 400 names it. */
export function seg(name: string): string {
  return encodeURIComponent(name);
}

function retryAfterSeconds(value: string | null): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

// A refused or unresolvable connection never reached the daemon, so even an
// unsafe request may go again.
function neverSent(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? '';
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Transport {
  readonly url: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly headers: Record<string, string>;

  constructor(options: TransportOptions = {}) {
    const url = options.url ?? process.env['MNEMO_URL'] ?? 'http://127.0.0.1:7420';
    if (!/^https?:\/\//.test(url)) {
      throw new MnemoError(`mnemod url ${JSON.stringify(url)} is not http://host:port or https://host:port`);
    }
    this.url = url.replace(/\/+$/, '');
    this.token = options.token ?? process.env['MNEMO_TOKEN'] ?? undefined;
    this.timeoutMs = options.timeoutMs ?? 30000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 2000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30000;
    this.headers = options.headers ?? {};
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const target = `${this.url}${path}${encodeQuery(options.query)}`;
    const headers: Record<string, string> = { Accept: 'application/json', ...this.headers };
    if (this.token) headers['Authorization'] = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const retries = options.once ? 0 : this.retries;
    for (let attempt = 1; ; ++attempt) {
      let response: Response;
      try {
        response = await fetch(target, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        const again = attempt <= retries && (neverSent(error) || options.safe === true);
        if (again) {
          await sleep(Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1)));
          continue;
        }
        const what = `${method} ${path}`;
        if (timedOut)
          throw new Timeout(`${what}: no answer from mnemod at ${this.url} within ${this.timeoutMs} ms`, attempt);
        const reason = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
        throw new ConnectionFailed(`${what}: mnemod at ${this.url} could not be reached (${reason})`, attempt);
      }
      if (response.ok) {
        if (response.status === 204) return null as T;
        if (options.text) return (await response.text()) as T;
        const text = await response.text();
        return (text ? JSON.parse(text) : null) as T;
      }
      const error = await this.errorOf(response, attempt);
      // A 429 or 503 changed nothing, so any request may go again after it.
      if ((response.status === 429 || response.status === 503) && attempt <= retries) {
        const waitMs = (error.retryAfter ?? 1) * 1000;
        if (waitMs <= this.maxRetryAfterMs) {
          await sleep(waitMs);
          continue;
        }
      }
      throw error;
    }
  }

  private async errorOf(response: Response, attempts: number): Promise<ApiError> {
    const text = await response.text();
    let code = '';
    let message = text.slice(0, 200) || response.statusText;
    let details: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text) as {
        error?: { code?: string; message?: string; details?: Record<string, unknown> };
      };
      code = parsed.error?.code ?? '';
      message = parsed.error?.message ?? message;
      details = parsed.error?.details ?? {};
    } catch {
      // not mnemod's error shape (a proxy in between): keep the raw text
    }
    return apiError({
      status: response.status,
      code: code || `http_${response.status}`,
      message,
      details,
      requestId: response.headers.get('x-request-id'),
      retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
      attempts,
    });
  }
}
