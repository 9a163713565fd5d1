import type * as Api from './library-api.js';
import { TOKEN_FORMAT } from './serve-command.js';
import { startService as startRunningService } from './service.js';

/**
 * `vmtui/service`: the service for a test suite, started in its process the
 * way `vmtui serve` starts it, with the defaults a test wants (a throwaway
 * empty account, instant transitions). Its control calls are requests to the
 * control interface, so they answer exactly what any other client would get.
 */

const OPTIONS = new Set(['data', 'seed', 'speed', 'token', 'strict']);
const SEEDS: readonly Api.SeedKind[] = ['empty', 'demo'];
const SPEEDS: readonly Api.Speed[] = ['instant', 'realistic'];

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value);

function checkOne<T>(name: string, value: unknown, allowed: readonly T[]): void {
  if (value !== undefined && !allowed.includes(value as T)) throw new TypeError(`startService: ${name} must be ${allowed.join(' or ')}, not ${shown(value)}`);
}

/** A mistyped option would be silently ignored, leaving a test on defaults it did not ask for. */
function checkOptions(options: unknown): Api.StartOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError('startService: the options must be an object');
  const unknown = Object.keys(options).filter((key) => !OPTIONS.has(key));
  if (unknown.length > 0) throw new TypeError(`startService: no option ${unknown.map(shown).join(', ')} (it takes ${[...OPTIONS].join(', ')})`);
  const { data, seed, speed, token, strict } = options as Api.StartOptions;
  if (data !== undefined && (typeof data !== 'string' || data.trim() === '')) throw new TypeError("startService: data must name a file, or be ':memory:'");
  checkOne('seed', seed, SEEDS);
  checkOne('speed', speed, SPEEDS);
  // The token is never echoed: it is a secret.
  if (token !== undefined && (typeof token !== 'string' || !TOKEN_FORMAT.test(token))) throw new TypeError('startService: token must be 1 to 256 printable characters without spaces');
  if (strict !== undefined && typeof strict !== 'boolean') throw new TypeError('startService: strict must be true or false');
  return options as Api.StartOptions;
}

export const ControlError: typeof Api.ControlError = class ControlError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: { field?: string; reason: string }[],
  ) {
    super(message);
    this.name = 'ControlError';
  }
};

/** The errors of an answer in the service's shape; anything else (a proxy's page) is named by its status alone. */
function errorsOf(body: unknown): { field?: string; reason: string }[] {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors.filter((e): e is { field?: string; reason: string } => typeof e?.reason === 'string') : [];
}

function controlOf(origin: string, token: string): Api.Control {
  const send = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${origin}/__control${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let answer: unknown;
    try {
      answer = text === '' ? undefined : JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (!res.ok) {
      const errors = errorsOf(answer);
      const why = errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join('; ');
      throw new ControlError(`${method} /__control${path}: HTTP ${res.status}${why ? `: ${why}` : ''}`, res.status, errors);
    }
    return answer as T;
  };
  const named = (name: string) => encodeURIComponent(name);
  return {
    snapshot: (name) => send('POST', '/snapshots', { name }),
    restore: (name) => send('POST', `/snapshots/${named(name)}/restore`),
    reset: (seed) => send('POST', '/reset', { seed }),
    advanceClock: (seconds) => send('POST', '/clock', { advance_seconds: seconds }),
    addFault: (rule) => send('POST', '/faults', rule),
    // It answers {}: nothing a caller could use.
    clearFaults: async () => void (await send('DELETE', '/faults')),
    createAccount: (options) => send('POST', '/accounts', options),
  };
}

export const startService: typeof Api.startService = async (options) => {
  const { data = ':memory:', seed = 'empty', speed = 'instant', token, strict } = checkOptions(options);
  const svc = await startRunningService({ data, seed, speed, token, strict, port: 0 });
  return {
    baseUrl: svc.baseUrl,
    betaUrl: svc.betaUrl,
    token: svc.token,
    restrictedToken: svc.restrictedToken,
    control: controlOf(svc.origin, svc.token),
    close: () => svc.close(),
  };
};
