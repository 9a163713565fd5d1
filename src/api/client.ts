import { setMaxListeners } from 'node:events';
import { createdShape, itemShape, recordProblem } from '../model/response.js';
import { ApiError, httpError } from './errors.js';
import { checkPage, type FlawedRows, type Page } from './pages.js';
import { NoReply, send, type HttpReply } from './http.js';
import { RequestLog, type RequestRecord } from './request-log.js';
import { scopeReport, type ScopeReport } from './scope-reports.js';

export type Root = 'base' | 'beta';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined>;

export interface Connection {
  /** The version 4 root, e.g. http://127.0.0.1:8484/v4. */
  baseUrl: string;
  /** The beta root; firewall paths live there. */
  betaUrl: string;
  token: string;
}

export interface ClientOptions extends Connection {
  timeoutMs?: number;
  /** Waits before each retry of a GET; its length is the number of retries. */
  retryDelaysMs?: number[];
}

export interface RequestOptions {
  root?: Root;
  query?: Query;
  body?: unknown;
  /** Sent as the X-Filter header. */
  filter?: unknown;
  /** Reads the answer into what the caller gets; its 'shape' error marks the call in the request log as one the app could not use. */
  read?: (body: unknown) => unknown;
}

export interface PageOptions {
  root?: Root;
  page?: number;
  pageSize?: number;
  filter?: unknown;
  /** What becomes of an item the client cannot read: the whole page fails (default), or the item stays, marked. */
  flawed?: FlawedRows;
}

/**
 * What the client knows of its server between answers. `down`: no answer
 * came (refused, reset, timed out); requests fail at once without being sent
 * and one probe asks again, backing off, until one answers. `refused`: the
 * token was rejected (401); nothing is sent with it any more.
 */
export type Link = { state: 'up' } | { state: 'down'; since: number; error: ApiError } | { state: 'refused'; error: ApiError };

/** The probe's waits while the server is down: 1 s, doubling to 30 s; never more than a request a second. */
export const PROBE_FIRST_MS = 1000;
export const PROBE_MAX_MS = 30_000;
/** What a probe asks for: small, and answered for any token that works. */
const PROBE_PATH = '/profile';

// A retry's wait never keeps a finished app alive (the embedded service's thread may be gone under it).
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
const jitter = (ms: number) => ms + Math.floor(Math.random() * ms * 0.25);
const MAX_RETRY_AFTER_MS = 30_000;

/** HTTP/JSON client for the API: bearer auth, timeouts, and retries for GETs only. */
export class ApiClient {
  private connection!: Connection;
  /** Set while the server is still starting: requests wait for it. */
  private connecting?: Promise<void>;
  private readonly timeoutMs: number;
  private readonly retryDelaysMs: number[];
  /** Every request listens to it: aborting ends all of them at once (the app quitting). */
  private readonly closing = new AbortController();
  /** Every call this client made, for the `:requests` view: it is the client's record, so it works against any server. */
  readonly requests = new RequestLog();
  /** Who hears what answers tell of the token's scopes (the session's scope knowledge). */
  private readonly scopeListeners = new Set<(report: ScopeReport) => void>();
  private linkNow: Link = { state: 'up' };
  private readonly linkListeners = new Set<(link: Link) => void>();
  private probeTimer?: NodeJS.Timeout;

  constructor(opts: ClientOptions) {
    // One listener per request in flight: the first screen alone sends twenty.
    setMaxListeners(0, this.closing.signal);
    this.connect(opts);
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.retryDelaysMs = opts.retryDelaysMs ?? [200, 400, 800];
  }

  /** A client for a server still starting (the embedded service): the app draws meanwhile, and its first requests wait. */
  static whenReady(connection: Promise<Connection>, opts: Omit<ClientOptions, keyof Connection> = {}): ApiClient {
    const client = new ApiClient({ baseUrl: '', betaUrl: '', token: '', ...opts });
    client.connecting = connection.then(
      (c) => {
        client.connect(c);
        client.connecting = undefined;
      },
      (err: unknown) => {
        throw new ApiError('unavailable', err instanceof Error ? err.message : String(err));
      },
    );
    // Whoever started the server reports its failure; requests made meanwhile fail with it.
    client.connecting.catch(() => {});
    return client;
  }

  private connect(c: Connection) {
    this.connection = { baseUrl: c.baseUrl.replace(/\/+$/, ''), betaUrl: c.betaUrl.replace(/\/+$/, ''), token: c.token };
  }

  get baseUrl(): string {
    return this.connection.baseUrl;
  }
  get betaUrl(): string {
    return this.connection.betaUrl;
  }
  private get token(): string {
    return this.connection.token;
  }

  /** Abandons every request in flight and refuses new ones: quitting never waits for a server. */
  abort(): void {
    this.closing.abort();
    clearTimeout(this.probeTimer);
  }

  get link(): Link {
    return this.linkNow;
  }

  /** Calls `listener` each time the link changes (down, up again, token refused); returns the way to stop. */
  onLink(listener: (link: Link) => void): () => void {
    this.linkListeners.add(listener);
    return () => this.linkListeners.delete(listener);
  }

  private setLink(link: Link) {
    this.linkNow = link;
    for (const listener of this.linkListeners) listener(link);
  }

  /** No answer: the server is down until the probe hears from it; what is asked meanwhile fails with this. */
  private wentDown(error: ApiError) {
    if (this.linkNow.state !== 'up' || this.closing.signal.aborted) return;
    this.setLink({ state: 'down', since: Date.now(), error });
    this.probeAfter(PROBE_FIRST_MS);
  }

  private probeAfter(ms: number) {
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => {
      this.once('GET', PROBE_PATH, {}, 1, true).then(
        () => this.linkNow.state === 'down' && this.setLink({ state: 'up' }),
        (err: unknown) => {
          // An answer, even an error, is the server back (a 401 has refused the token already); only silence keeps it down.
          if (this.linkNow.state !== 'down') return;
          if (err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout')) this.probeAfter(Math.min(ms * 2, PROBE_MAX_MS));
          else this.setLink({ state: 'up' });
        },
      );
    }, ms);
    this.probeTimer.unref();
  }

  /** The token itself, for a plugin the config file lets have it (VM_TOKEN); nothing else reads it. */
  tokenForPlugin(): string {
    return this.token;
  }

  /** Calls `listener` with what each answer from now on tells of the token's scopes; returns the way to stop. */
  onScopeReport(listener: (report: ScopeReport) => void): () => void {
    this.scopeListeners.add(listener);
    return () => this.scopeListeners.delete(listener);
  }

  /** The first characters of the token, enough to find it in GET /profile/tokens. */
  get tokenPrefix(): string {
    return this.token.slice(0, 16);
  }

  get<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, opts);
  }
  post<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, { ...opts, body });
  }
  put<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  delete<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, opts);
  }

  /** One page of a paginated list, its envelope checked. */
  async page<T>(path: string, opts: PageOptions = {}): Promise<Page<T>> {
    return this.get<Page<T>>(path, {
      root: opts.root,
      filter: opts.filter,
      query: { page: opts.page, page_size: opts.pageSize },
      read: (body) => checkPage<T>(body, path, { page: opts.page ?? 1, flawed: opts.flawed ?? 'fail' }),
    });
  }

  /** POST, PUT and DELETE are never retried: the first attempt may have been applied. */
  async request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.once(method, path, opts, attempt + 1)) as T;
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        // No answer at all: the server is down until the probe hears from it, and the probe is the only one to ask again
        // (retrying every read that was on its way would be a burst a second while it stays down).
        if (err instanceof ApiError && (err.kind === 'network' || (err.kind === 'timeout' && method === 'GET'))) this.wentDown(err);
        if (method !== 'GET' || !(err instanceof ApiError) || !err.retryable || delay === undefined || this.linkNow.state !== 'up') throw err;
        await sleep(err.retryAfterMs !== undefined ? Math.min(err.retryAfterMs, MAX_RETRY_AFTER_MS) : jitter(delay));
        if (this.closing.signal.aborted) throw closed();
      }
    }
  }

  url(path: string, root: Root = 'base', query?: Query): URL {
    const url = new URL((root === 'beta' ? this.betaUrl : this.baseUrl) + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  private async once(method: Method, path: string, opts: RequestOptions, attempt: number, probe = false): Promise<unknown> {
    if (this.connecting) await this.connecting;
    if (this.closing.signal.aborted) throw closed();
    const link = this.linkNow;
    if (link.state === 'refused' || (link.state === 'down' && !probe)) throw link.error;
    const what = `${method} ${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    // A header holds bytes, and undici refuses any character past Latin-1: non-ASCII goes as JSON's \u escapes.
    if (opts.filter !== undefined) headers['x-filter'] = JSON.stringify(opts.filter).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const url = this.url(path, opts.root, opts.query);
    const text = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const record = this.requests.begin({ method, url, path, root: opts.root ?? 'base', attempt, headers, body: opts.body, text });
    let reply: HttpReply;
    try {
      reply = await send(method, url, headers, text, this.timeoutMs, this.closing.signal);
    } catch (err) {
      const failed = this.failure(err, method, what, url);
      this.requests.finish(record, { failure: failed.message });
      throw failed;
    }
    try {
      const body = this.answer(method, path, what, reply, record);
      return opts.read ? opts.read(body) : body;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'shape') this.requests.problem(record, err.message);
      throw err;
    }
  }

  /** Why no answer came, as the error the caller gets. */
  private failure(err: unknown, method: Method, what: string, url: URL): ApiError {
    if (this.closing.signal.aborted) return closed();
    if (err instanceof NoReply && err.timedOut) {
      const after = `${this.timeoutMs / 1000} s`;
      // The server has the write and may be doing it still: saying it failed would invite doing it twice.
      if (method !== 'GET') return new ApiError('timeout', `${what}: no answer yet after ${after}; it may still be applied — refresh to see`);
      return new ApiError('timeout', `${what} timed out after ${after}`);
    }
    const code = err instanceof NoReply ? err.code : undefined;
    return new ApiError('network', `Cannot reach ${url.host}${code ? ` (${code})` : ''}`);
  }

  /** The answer's body, checked; recorded as it came. */
  private answer(method: Method, path: string, what: string, reply: HttpReply, record: RequestRecord): unknown {
    const { status, text } = reply;
    let body: unknown;
    let parsed = true;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = false;
    }
    this.requests.finish(record, { status, headers: reply.headers, text, parsed: parsed ? body : undefined });
    const report = this.scopeListeners.size > 0 ? scopeReport(method, path, status, reply.headers, parsed ? body : undefined) : null;
    if (report) for (const listener of this.scopeListeners) listener(report);
    // Not followed: a redirect could carry the token elsewhere, and an API root that moved should be configured where it is.
    if (status >= 300 && status < 400) {
      const to = reply.headers.location;
      throw new ApiError('http', `${what} was redirected${to ? ` to ${to}` : ''} (HTTP ${status}); use the address it moved to as the API URL`, status);
    }
    const retryAfter = reply.headers['retry-after'] ?? null;
    if (status >= 400) {
      const err = httpError(status, what, parsed ? body : undefined);
      if (status === 401 && this.linkNow.state !== 'refused') this.setLink({ state: 'refused', error: new ApiError('http', `The token no longer works (HTTP 401 from ${what}); :ctx switches to another account`, 401) });
      const seconds = Number(retryAfter);
      if (status === 429 && retryAfter !== null && Number.isFinite(seconds) && seconds >= 0) err.retryAfterMs = seconds * 1000;
      throw err;
    }
    if (!parsed) {
      const wrote = method === 'GET' ? '' : ' (it may have been applied — refresh to see)';
      throw new ApiError('shape', `The response to ${what} is not JSON${wrote}: ${preview(text)}`, status);
    }
    checkRecord(method, path, what, status, body);
    return body;
  }
}

const closed = () => new ApiError('aborted', 'Cancelled: the app is closing');

/** The start of a body that is not JSON (an HTML error page, a truncated reply), on one line. */
function preview(text: string): string {
  const line = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return line === '' ? 'an empty body' : `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
}

/** A resource the app reads (GET of an item, or what a POST or PUT returns) must be one: else a message, not a crash later in a view. */
function checkRecord(method: Method, path: string, what: string, status: number, body: unknown): void {
  if (method === 'DELETE' || status === 204) return;
  const shape = method === 'POST' ? createdShape(path) : itemShape(path);
  const problem = shape && recordProblem(shape, body);
  if (!problem) return;
  const name = shape.schema.name.replace(/_/g, ' ');
  if (method === 'GET') throw new ApiError('shape', `The response to ${what} is not a readable ${name}: ${problem}`, status);
  throw new ApiError('shape', `${what} was sent, but its answer is not a readable ${name} (${problem}); refresh to see whether it was applied`, status);
}
