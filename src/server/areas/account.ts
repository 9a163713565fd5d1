import { AccountEvent, EVENT_FILTERABLE } from '../../model/events.js';
import { present } from '../../model/schema.js';
import { grantFilter, type Auth, type GrantKind } from '../auth.js';
import { notFound } from '../errors.js';
import type { AccountEvent as EventRecord } from '../events.js';
import { filterFields, type SqlFilter } from '../filter.js';
import { defineArea, listPage, type Ctx } from '../route.js';
import { isoSeconds } from '../../model/time.js';
import type { SqlValue } from '../sqlite.js';

/** Account events (not in the seed; shaped as upstream): the last 90 days, newest first. */

const RO = 'account:read_only';
const RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** Entity types whose grants decide which events a restricted user sees. */
const GRANTED_TYPES: GrantKind[] = ['vm', 'nodebalancer', 'image', 'stackscript'];
/** Account-level entities: visible with the account_access grant. */
const ACCOUNT_LEVEL_TYPES = ['account', 'firewall', 'managed_service', 'ticket', 'tag'];

const json = (path: string) => `json_extract(data, '$.${path}')`;

/** Restricted users see events they performed, events on entities granted to them, and account-level events with account_access. */
function visibility(auth: Auth): SqlFilter {
  const parts = [`${json('username')} = ?`];
  const params: SqlValue[] = [auth.user.username];
  for (const kind of GRANTED_TYPES) {
    const granted = grantFilter(auth, kind, '$.entity.id')!;
    parts.push(`(${json('entity.type')} = ? AND ${granted.where})`);
    params.push(kind, ...granted.params);
  }
  if (auth.user.grants?.global.account_access) {
    parts.push(`${json('entity.type')} IN (${ACCOUNT_LEVEL_TYPES.map(() => '?').join(',')})`);
    params.push(...ACCOUNT_LEVEL_TYPES);
  }
  return { where: parts.join(' OR '), params };
}

/** What the caller may see: the retention window, the caller's visibility, optionally one event or those up to it. */
function scope(ctx: Ctx, extra?: SqlFilter): SqlFilter {
  const where = [`${json('created')} >= ?`];
  const params: SqlValue[] = [isoSeconds(ctx.store.clock.now() - RETENTION_MS)];
  const restricted = ctx.auth?.user.restricted ? visibility(ctx.auth) : undefined;
  for (const f of [restricted, extra]) {
    if (!f) continue;
    where.push(`(${f.where})`);
    params.push(...f.params);
  }
  return { where: where.join(' AND '), params, orderBy: `${json('created')} DESC` };
}

const everything = { page: 1, pageSize: Number.MAX_SAFE_INTEGER };

function visibleEvent(ctx: Ctx): EventRecord {
  const found = ctx.store.page<EventRecord>('event', { ...everything, filter: scope(ctx, { where: 'id = ?', params: [ctx.params.eventId] }) }).data[0];
  if (!found) throw notFound('Event not found');
  return found;
}

const show = (row: Record<string, unknown>) => present(AccountEvent, row);

export default defineArea('account', (r) => {
  r.get('/account/events', RO, (ctx) =>
    listPage(ctx, 'event', { filterable: filterFields(EVENT_FILTERABLE), restrict: scope(ctx), descending: true, present: show }),
  );
  r.get('/account/events/{eventId}', RO, (ctx) => show(visibleEvent(ctx)));
  r.post('/account/events/{eventId}/seen', RO, (ctx) => {
    const upTo = visibleEvent(ctx);
    const unseen = ctx.store.page<EventRecord>('event', {
      ...everything,
      filter: scope(ctx, { where: `CAST(id AS INTEGER) <= ? AND ${json('seen')} = 0`, params: [upTo.id] }),
    }).data;
    for (const e of unseen) ctx.store.put('event', e.id, { ...e, seen: true });
  });
  r.post('/account/events/{eventId}/read', RO, (ctx) => {
    const e = visibleEvent(ctx);
    ctx.store.put('event', e.id, { ...e, read: true });
  });
});
