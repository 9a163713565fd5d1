import type { Auth, User } from '../auth.js';
import { emitEvent } from '../events.js';
import { notFound } from '../errors.js';
import type { SqlFilter } from '../filter.js';
import type { Ctx } from '../route.js';
import type { Row } from '../store.js';
import { isoSeconds, parseApiTime } from '../../model/time.js';

/** Every profile endpoint needs a token, so auth is always there. */
export const actor = (ctx: Ctx): Auth => ctx.auth!;

/** The acting user's row as stored now (this request may already have changed it). */
export const currentUser = (ctx: Ctx): User => ctx.store.get<User>('user', actor(ctx).user.id)!;

/** Rows of the acting user only: another user's id is as missing as an unknown one. */
export function ownRow<T extends Row>(ctx: Ctx, kind: string, id: string | number, what: string): T {
  const row = ctx.store.get<T>(kind, id);
  if (!row || ctx.store.parentOf(kind, id) !== String(actor(ctx).user.id)) throw notFound(what);
  return row;
}

export const ownParent = (ctx: Ctx) => String(actor(ctx).user.id);

export const isExpired = (row: { expiry?: unknown }, now: number) => typeof row.expiry === 'string' && parseApiTime(row.expiry) <= now;

/** Rows whose expiry has not passed (null = until revoked); expired sessions and authorizations are gone. */
export function unexpired(now: number): SqlFilter {
  return { where: "json_extract(data, '$.expiry') IS NULL OR json_extract(data, '$.expiry') > ?", params: [isoSeconds(now)] };
}

export const profileEntity = (user: User) => ({ id: user.id, label: user.username, type: 'profile', url: '/v4/profile' });

/** Records an event about the acting user's profile, key or token. */
export function profileEvent(ctx: Ctx, action: string, entity: { id: number; label: string; type: string; url: string }): void {
  emitEvent(ctx.store, { action, entity, username: actor(ctx).user.username });
}
