
/**
 * The account an import reads: GET only, to the two roots it was given and
 * nowhere else (no redirect is followed), each answer bounded in time and
 * size, a 429 waited out as its Retry-After says (within bounds).
 */

export interface SourceOptions {
  base: string;
  beta: string;
  token: string;
  /** One request's limit, connect to last byte. */
  timeoutMs?: number;
  /** The largest body taken: a page of 500 instances is about 1 MB. */
  maxBytes?: number;
  /** Told when a 429 makes the import wait. */
  onWait?: (seconds: number, path: string) => void;
  /** Stops the import: the request under way and any wait. */
  signal?: AbortSignal;
}

export interface Answer {
  status: number;
  body: unknown;
  /** What the error body says, for a refusal. */
  reason: string;
}

export class SourceError extends Error {}

const TIMEOUT_MS = 30_000;
const MAX_BYTES = 16 * 1024 * 1024;
const RETRIES_429 = 8;
/** A Retry-After longer than this is not waited for: the import says so and goes on with the next list. */
const LONGEST_WAIT_S = 120;

function errorReason(body: unknown): string {
  const errors = (body as { errors?: { reason?: unknown }[] } | null)?.errors;
  const reason = Array.isArray(errors) ? errors.map((e) => (typeof e?.reason === 'string' ? e.reason : '')).filter(Boolean).join('; ') : '';
  return reason.slice(0, 300);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new SourceError('stopped'))), { once: true });
  });

export class Source {
  /** The latest `Date` the source answered with: its clock, in milliseconds. */
  latestDate: number | undefined;
  requests = 0;

  constructor(private readonly opts: SourceOptions) {}

  get origin(): string {
    return new URL(this.opts.base).origin;
  }

  /** GET a path under a root; a network failure, a body too large or not JSON is a SourceError, an HTTP refusal an Answer. */
  async get(root: 'base' | 'beta', path: string, headers: Record<string, string> = {}): Promise<Answer> {
    const url = (root === 'beta' ? this.opts.beta : this.opts.base) + path;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.once(url, headers);
      if (answer.status !== 429 || attempt >= RETRIES_429) return answer;
      const seconds = answer.retryAfter ?? 2 ** attempt;
      if (seconds > LONGEST_WAIT_S) return { ...answer, reason: `rate limited: the source asks to wait ${seconds} s` };
      this.opts.onWait?.(seconds, path.split('?', 1)[0]!);
      await sleep(seconds * 1000, this.opts.signal);
    }
  }

  private async once(url: string, headers: Record<string, string>): Promise<Answer & { retryAfter?: number }> {
    this.requests++;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? TIMEOUT_MS);
    const signal = this.opts.signal ? AbortSignal.any([timeout, this.opts.signal]) : timeout;
    let res;
    try {
      // undici's request follows no redirect: a 3xx is an answer like any other, never a request elsewhere.
      // undici loads zlib and more: only an import pays for it, not every start of the service.
      const { request } = await import('undici');
      res = await request(url, { method: 'GET', headers: { ...headers, authorization: `Bearer ${this.opts.token}`, accept: 'application/json' }, signal });
    } catch (err) {
      throw new SourceError(timeout.aborted ? `no answer from ${new URL(url).origin} within ${(this.opts.timeoutMs ?? TIMEOUT_MS) / 1000} s` : `cannot reach ${new URL(url).origin}: ${(err as Error).message}`);
    }
    const date = Date.parse(String(res.headers.date ?? ''));
    if (Number.isFinite(date)) this.latestDate = Math.max(this.latestDate ?? date, date);
    const chunks: Buffer[] = [];
    let size = 0;
    const max = this.opts.maxBytes ?? MAX_BYTES;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > max) {
          res.body.destroy();
          throw new SourceError(`the answer to GET ${new URL(url).pathname} is larger than ${max} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof SourceError) throw err;
      throw new SourceError(`the answer to GET ${new URL(url).pathname} broke off: ${(err as Error).message}`);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        if (res.statusCode < 300) throw new SourceError(`the answer to GET ${new URL(url).pathname} is not JSON`);
      }
    }
    const retry = Number(res.headers['retry-after']);
    return { status: res.statusCode, body, reason: errorReason(body) || `HTTP ${res.statusCode}`, retryAfter: Number.isFinite(retry) && retry >= 0 ? retry : undefined };
  }
}
