import type { FieldError } from '../model/schema.js';

/** `unavailable`: the server never started (the embedded service failed); no retry can help. `aborted`: the app is closing. */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'shape' | 'unavailable' | 'aborted';

/**
 * Every failure of a request, whatever its cause, so screens show one kind of
 * message. `errors` keeps the service's field errors for forms.
 */
export class ApiError extends Error {
  /** From a 429's Retry-After header. */
  retryAfterMs?: number;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Worth another try for an idempotent request. */
  get retryable(): boolean {
    return this.kind === 'network' || this.status === 429 || this.status >= 500;
  }
}

/** The service's `{errors: [{field, reason}]}` body, tolerating anything else. */
export function errorsOf(body: unknown): FieldError[] {
  const list = (body as { errors?: unknown })?.errors;
  if (!Array.isArray(list)) return [];
  return list
    .filter((e): e is { reason: unknown; field?: unknown } => typeof e === 'object' && e !== null)
    .map((e) => ({ reason: String(e.reason ?? 'unknown error'), ...(typeof e.field === 'string' && e.field ? { field: e.field } : {}) }));
}

export function httpError(status: number, what: string, body: unknown): ApiError {
  const errors = errorsOf(body);
  const reasons = errors.map((e) => e.reason).join('; ');
  const prefix = status === 401 ? 'The token was rejected' : status === 403 ? 'Not permitted' : `HTTP ${status}`;
  return new ApiError('http', reasons ? `${prefix}: ${reasons}` : `${prefix} from ${what}`, status, errors);
}

/** A short text for the message line, from any thrown value. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
