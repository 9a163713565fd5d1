import type { FieldError } from '../model/schema.js';

/** An error the service answers with: a status and the seed's errors array. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: FieldError[],
    /** Response headers the answer needs, such as Retry-After. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(errors.map((e) => e.reason).join('; '));
  }
}

export const badRequest = (reason: string, field?: string) => new ApiError(400, [field ? { field, reason } : { reason }]);
export const invalid = (errors: FieldError[]) => new ApiError(400, errors);
export const notFound = (what = 'Not found') => new ApiError(404, [{ reason: what }]);
export const forbidden = (reason = 'Unauthorized') => new ApiError(403, [{ reason }]);
export const unauthorized = (reason = 'Invalid Token') => new ApiError(401, [{ reason }]);
export const conflict = (reason: string, field?: string) => new ApiError(400, [field ? { field, reason } : { reason }]);

/** Throws the collected errors when there are any: every problem is reported at once. */
export function assertValid(errors: FieldError[]): void {
  if (errors.length > 0) throw invalid(errors);
}
