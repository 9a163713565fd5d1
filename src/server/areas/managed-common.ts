import { validate, type FieldError, type Mode, type ResourceSchema } from '../../model/schema.js';
import { requireAccountAccess, type Level } from '../auth.js';
import { assertValid } from '../errors.js';
import { readingOf, type Ctx, type Handler } from '../route.js';

/** Managed monitoring is account-level: restricted users need the account_access grant. */
export const withAccess =
  (level: Level, handler: Handler): Handler =>
  (ctx) => {
    requireAccountAccess(ctx.auth, level);
    return handler(ctx);
  };

/**
 * Validates a body like bodyFor, plus checks that need the store (references,
 * uniqueness), so every problem of the request is reported in one 400. The
 * store checks see the raw body (skipping ill-typed values), so a bad item does
 * not hide a missing one beside it.
 */
export function acceptBody(
  ctx: Ctx,
  schema: ResourceSchema,
  mode: Mode,
  current?: Record<string, unknown>,
  storeChecks: (body: Record<string, unknown>) => FieldError[] = () => [],
): Record<string, unknown> {
  const body = ctx.body === undefined || ctx.body === null ? {} : ctx.body;
  const { value, errors } = validate(schema, body, readingOf(ctx, mode, current));
  const raw = typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  assertValid([...errors, ...storeChecks(raw)]);
  return value;
}
