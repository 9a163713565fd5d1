import type { FieldError } from '../model/schema.js';
import type { AccessDecision } from './auth.js';

/**
 * The request journal: what the service did with each recent request and
 * why, for a client's developer. It holds no secret: no body, no header but
 * the token's first characters, and a query's secret-looking values redacted.
 */

/** Entries kept: the oldest go first. */
export const JOURNAL_SIZE = 1000;

export interface JournalEntry {
  id: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string> | null;
  /** null when the connection closed before the answer: a drop fault, or a client that gave up. */
  status: number | null;
  duration_ms: number;
  /** The route it matched, as the API's tables name it (`GET /vm/instances/{vmId}`). */
  operation: string | null;
  token: string | null;
  user: string | null;
  access: AccessDecision[];
  /** For a refusal by scope or grant, what would have allowed the request. */
  denial: string | null;
  errors: FieldError[];
  ignored_fields: string[];
  fault: number | null;
}

/** Query parameters whose values are credentials (a pre-signed URL's signature and key). */
const SECRET_PARAM = /sig|token|key|secret|pass|credential|auth/i;

/** A token as its first characters only: at most 6, and at most a quarter of it, so a short token is not given away. */
export function tokenHint(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const value = authorization.replace(/^\s*Bearer\s+/i, '').trim();
  return `${value.slice(0, Math.min(6, Math.floor(value.length / 4)))}…`;
}

function queryOf(url: string): Record<string, string> | null {
  const at = url.indexOf('?');
  if (at < 0) return null;
  // A null-prototype record: the query's names are data.
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) query[name] = SECRET_PARAM.test(name) ? '<REDACTED>' : value.slice(0, 200);
  return query;
}

/**
 * One request's notes as it goes through the service; the hooks of
 * src/server/app.ts open and close it, the router and the checks fill it in.
 */
export class Trace {
  operation: string | null = null;
  access: AccessDecision[] | null = null;
  user: string | null = null;
  errors: FieldError[] = [];
  ignored: string[] = [];
  fault: number | null = null;
  readonly started = performance.now();
  /** Set when the journal takes it: its entry is built only when someone reads it. */
  id = 0;
  status: number | null = null;
  durationMs = 0;
  ended = 0;

  /** Only the token's first characters are kept, even in memory: the ring holds a thousand requests. */
  readonly token: string | null;

  constructor(
    readonly method: string,
    /** The URL as the client sent it, before the beta root's rewrite. */
    readonly url: string,
    authorization: string | undefined,
  ) {
    this.token = tokenHint(authorization);
  }

  /** Closes the trace with its answer's status; the rest of its entry waits for a reader. */
  end(id: number, status: number | null): void {
    this.id = id;
    this.status = status;
    this.ended = Date.now();
    this.durationMs = performance.now() - this.started;
  }

  entry(): JournalEntry {
    const access = this.access ?? [];
    const refused = access.find((d) => !d.allowed);
    return {
      id: this.id,
      time: new Date(this.ended).toISOString(),
      method: this.method,
      path: this.url.split('?', 1)[0]!.slice(0, 2048),
      query: queryOf(this.url),
      status: this.status,
      duration_ms: Math.round(this.durationMs * 1000) / 1000,
      operation: this.operation,
      token: this.token,
      user: this.user,
      access,
      denial: refused ? `needs ${refused.needs}; the ${refused.kind === 'scope' ? 'token' : 'user'} has ${refused.has}` : null,
      errors: this.errors,
      ignored_fields: this.ignored,
      fault: this.fault,
    };
  }
}

type Listener = (entry: JournalEntry) => void;

/** A bounded ring of entries, numbered from 1, with listeners for the live stream. */
export class Journal {
  private readonly ring: (Trace | undefined)[];
  private lastId = 0;
  private readonly listeners = new Set<Listener>();

  constructor(
    readonly size = JOURNAL_SIZE,
    /** Told of every request as it is numbered: what keeps counts beyond the ring. */
    private readonly onRecord?: (trace: Trace) => void,
  ) {
    this.ring = new Array<Trace | undefined>(size);
  }

  /** Takes a finished request once: a connection that closes after its answer was recorded adds nothing. */
  record(trace: Trace, status: number | null): void {
    if (trace.id !== 0) return;
    trace.end(++this.lastId, status);
    this.ring[trace.id % this.size] = trace;
    this.onRecord?.(trace);
    if (this.listeners.size === 0) return;
    const entry = trace.entry();
    for (const listener of this.listeners) listener(entry);
  }

  /** Entries after `since` (an entry id), oldest first, at most `limit`; without `since` the latest `limit`. */
  list(limit: number, since?: number): JournalEntry[] {
    const oldest = this.oldestId;
    const from = since === undefined ? Math.max(oldest, this.lastId - limit + 1) : Math.max(oldest, since + 1);
    const to = Math.min(this.lastId, from + limit - 1);
    const out: JournalEntry[] = [];
    for (let id = from; id <= to; id++) out.push(this.ring[id % this.size]!.entry());
    return out;
  }

  get latestId(): number {
    return this.lastId;
  }

  /** The id of the oldest entry kept (of the next one while none is). */
  get oldestId(): number {
    return Math.max(1, this.lastId - this.size + 1);
  }

  /** Adds a listener; returns what removes it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get streams(): number {
    return this.listeners.size;
  }
}
