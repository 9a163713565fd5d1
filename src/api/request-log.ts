import type { IncomingHttpHeaders } from 'node:http';
import { scopesForRequest } from '../model/scopes.js';
import { secretFieldNames } from '../model/secrets.js';
import type { Method, Root } from './client.js';

/** One HTTP exchange the client made (a retry is an exchange of its own, with its attempt number). */
export interface RequestRecord {
  id: number;
  method: Method;
  /** The whole URL, query included. */
  url: string;
  /** The path under the API root, as the app named it. */
  path: string;
  root: Root;
  /** 1 for the first try; a GET retried after a 429, a 5xx or a network failure has 2, 3… */
  attempt: number;
  /** As sent, the token cut to its first characters. */
  requestHeaders: Record<string, string>;
  /** The JSON text sent, secret fields replaced by shell variables (see `variables`), cut at BODY_LIMIT. */
  requestBody?: string;
  /** The shell variables standing for masked fields of the body, e.g. VM_ROOT_PASS. */
  variables: string[];
  requestCut: boolean;
  /** Epoch milliseconds. */
  started: number;
  /** Milliseconds until the whole answer came, or the failure; undefined while pending. */
  duration?: number;
  status?: number;
  /** No answer: the network's error, a timeout or the app cancelling it. */
  failure?: string;
  /** An answer the client could not use (not JSON, not a readable record). */
  problem?: string;
  responseHeaders?: Record<string, string>;
  /** The answer's text, secret fields masked, cut at BODY_LIMIT. */
  responseBody?: string;
  responseCut: boolean;
  /** The answer's body was let go to keep the log within LOG_CHARS: newer answers' bodies took its place. */
  responseDropped?: boolean;
  /** The answer's whole length in bytes. */
  responseBytes?: number;
}

/** Calls kept: enough for a few minutes of polling and paging, bounded whatever runs. */
export const LOG_SIZE = 500;
/**
 * Characters of bodies kept in all. Polling alone fills it within minutes, so
 * the log holds this much all day instead of whatever the last 500 calls
 * happened to carry (it drifted with the mix of views and the account's size).
 */
export const LOG_CHARS = 1024 * 1024;
/** Bytes of a body kept per call: 500 calls hold at most some 64 MB even if every answer were huge. */
export const BODY_LIMIT = 64 * 1024;
/** What a masked value in an answer reads as. */
export const MASKED = '•••• (masked)';

/** The token's first characters, enough to tell tokens apart, never enough to use one. */
export const maskBearer = (value: string) => value.replace(/^(Bearer\s+)(.{0,4}).*$/is, (_, b: string, head: string) => `${b}${head}…`);

const SECRET_NAMES = secretFieldNames();
// A body is walked only when it may hold one: the test is one regex pass, the common case.
const MAY_HOLD_SECRET = new RegExp(`"(?:${[...SECRET_NAMES].join('|')})"\\s*:`);
const variableOf = (key: string) => `VM_${key.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

/** A copy of a JSON value with every secret field's value replaced by `mask(key)`, at any depth. */
function maskValue(value: unknown, mask: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => maskValue(v, mask));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(value)) {
    // <REDACTED> and null say nothing; a value the server already hid stays as it came.
    out[k] = SECRET_NAMES.has(k) && typeof v === 'string' && v !== '' && v !== '<REDACTED>' ? mask(k) : maskValue(v, mask);
  }
  return out;
}

const cut = (text: string) => (text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text);

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** How a pending call ends: its answer, or why none came. */
export interface Finish {
  status?: number;
  headers?: IncomingHttpHeaders;
  text?: string;
  /** The answer as the client parsed it, when it is JSON: masking walks it instead of parsing again. */
  parsed?: unknown;
  failure?: string;
}

/**
 * The client's record of its own calls, newest last, in a bounded ring: the
 * `:requests` view reads it, whatever server the app talks to. Secrets never
 * enter it: the token is cut to its first characters, secret fields of
 * bodies (the model's `secret` fields, tokens, keys) are replaced.
 */
export class RequestLog {
  private readonly ring: RequestRecord[] = [];
  private next = 1;
  private readonly listeners = new Set<() => void>();
  /** Bumped on every change: a view compares it to know whether to draw again. */
  version = 0;
  /** Every scope a call of this session needed, however old: the ring forgets calls, this does not. */
  readonly needed = new Set<string>();

  /** Characters of the bodies in the ring. */
  private held = 0;
  /** Index in the ring of the oldest call whose answer's body may still be held: the ones before it were let go. */
  private bodiesFrom = 0;
  /**
   * What entries() gave for each call, until the call changes (a record is
   * filled in as its answer comes): views get a new object for a changed
   * call only, so a table draws again just the rows that changed.
   */
  private readonly shown = new WeakMap<RequestRecord, RequestRecord>();

  constructor(
    readonly size = LOG_SIZE,
    readonly chars = LOG_CHARS,
  ) {}

  private static bodyChars = (r: RequestRecord) => (r.requestBody?.length ?? 0) + (r.responseBody?.length ?? 0);

  /**
   * The oldest calls go while there are more than `size`. While the bodies hold
   * more than `chars`, the oldest answers' bodies go first (the call, its
   * headers and what was sent stay, for `:requests` and a curl line), then
   * the oldest calls; the newest always stays whole.
   */
  private trim() {
    const drop = () => {
      this.held -= RequestLog.bodyChars(this.ring.shift()!);
      this.bodiesFrom = Math.max(0, this.bodiesFrom - 1);
    };
    while (this.ring.length > this.size) drop();
    while (this.held > this.chars && this.bodiesFrom < this.ring.length - 1) {
      const record = this.ring[this.bodiesFrom++]!;
      if (record.responseBody === undefined) continue;
      this.held -= record.responseBody.length;
      record.responseBody = undefined;
      record.responseDropped = true;
      this.shown.delete(record);
    }
    while (this.ring.length > 1 && this.held > this.chars) drop();
  }

  /** A call leaving; returns its record, to finish when the answer (or failure) comes. */
  begin(req: { method: Method; url: URL; path: string; root: Root; attempt: number; headers: Record<string, string>; body?: unknown; text?: string }): RequestRecord {
    const requestHeaders: Record<string, string> = Object.create(null);
    for (const [k, v] of Object.entries(req.headers)) requestHeaders[k] = k === 'authorization' ? maskBearer(v) : v;
    const variables: string[] = [];
    let requestBody = req.text;
    if (requestBody !== undefined && MAY_HOLD_SECRET.test(requestBody)) {
      requestBody = JSON.stringify(
        maskValue(req.body, (key) => {
          const name = variableOf(key);
          if (!variables.includes(name)) variables.push(name);
          return `$${name}`;
        }),
      );
    }
    for (const scope of scopesForRequest(req.method, req.path)) this.needed.add(scope);
    const record: RequestRecord = {
      id: this.next++,
      method: req.method,
      url: req.url.href,
      path: req.path,
      root: req.root,
      attempt: req.attempt,
      requestHeaders,
      requestBody: requestBody === undefined ? undefined : cut(requestBody),
      requestCut: requestBody !== undefined && requestBody.length > BODY_LIMIT,
      variables,
      started: Date.now(),
      responseCut: false,
    };
    this.ring.push(record);
    this.held += RequestLog.bodyChars(record);
    this.trim();
    this.changed();
    return record;
  }

  finish(record: RequestRecord, end: Finish): void {
    this.shown.delete(record);
    record.duration = Date.now() - record.started;
    record.status = end.status;
    record.failure = end.failure;
    if (end.headers) record.responseHeaders = flatHeaders(end.headers);
    if (end.text !== undefined) {
      const masked = end.parsed !== undefined && MAY_HOLD_SECRET.test(end.text) ? JSON.stringify(maskValue(end.parsed, () => MASKED)) : end.text;
      record.responseBody = cut(masked);
      record.responseCut = masked.length > BODY_LIMIT;
      record.responseBytes = Buffer.byteLength(end.text);
      const at = this.ring.indexOf(record);
      // A record already trimmed away counts for nothing; one whose answer came after older bodies went is let go at once.
      if (at !== -1 && at < this.bodiesFrom) {
        record.responseBody = undefined;
        record.responseDropped = true;
      } else if (at !== -1) {
        this.held += record.responseBody.length;
        this.trim();
      }
    }
    this.changed();
  }

  /** The client refused what came (not JSON, not a readable record): the record says why. */
  problem(record: RequestRecord, why: string): void {
    record.problem = why;
    this.shown.delete(record);
    this.changed();
  }

  /** Newest first, each call as it stands now (the same object while the call does not change). */
  entries(): RequestRecord[] {
    const out: RequestRecord[] = [];
    for (let i = this.ring.length - 1; i >= 0; i--) {
      const record = this.ring[i]!;
      let shown = this.shown.get(record);
      if (!shown) this.shown.set(record, (shown = { ...record }));
      out.push(shown);
    }
    return out;
  }

  /** The call that began last: a listener's way to see a call leave. */
  latest(): RequestRecord | undefined {
    return this.ring.at(-1);
  }

  get(id: number): RequestRecord | undefined {
    return this.ring.find((r) => r.id === id);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    this.version++;
    for (const l of this.listeners) l();
  }
}
