import { AuthorizedApp, Login, TrustedDevice } from '../../model/profile.js';
import { filterableFields, present, type ResourceSchema } from '../../model/schema.js';
import type { TokenRecord } from '../auth.js';
import { notFound } from '../errors.js';
import { filterFields, type SqlFilter } from '../filter.js';
import { listPage, type Ctx, type Router } from '../route.js';
import type { Row } from '../store.js';
import { isoSeconds, parseApiTime } from '../../model/time.js';
import { isExpired, ownParent, ownRow, unexpired } from './profile-common.js';

/** The seed's login history limit. */
export const LOGIN_HISTORY_DAYS = 90;
const DAY_MS = 86_400_000;

/** An authorized app as stored: `_client` is the OAuth client whose tokens it holds. */
export interface AppRecord extends Row {
  id: number;
  label: string;
  _client: string;
}

/** Authorized apps, trusted devices and login history: what can act as, or has acted as, the user. */
export function accessRoutes(r: Router): void {
  sessionRoutes(r, { path: '/profile/apps', param: 'appId', kind: 'app', schema: AuthorizedApp, what: 'App not found', revoke: revokeApp });
  sessionRoutes(r, { path: '/profile/devices', param: 'deviceId', kind: 'device', schema: TrustedDevice, what: 'Device not found' });

  r.get('/profile/logins', 'account:read_only', (ctx) =>
    listPage(ctx, 'login', { parent: ownParent(ctx), restrict: recentLogins(ctx.store.clock.now()), present: (row) => present(Login, row) }),
  );
  r.get('/profile/logins/{loginId}', 'account:read_only', (ctx) => {
    const login = ownRow<Row>(ctx, 'login', ctx.params.loginId!, 'Login not found');
    if (parseApiTime(String(login.datetime)) < ctx.store.clock.now() - LOGIN_HISTORY_DAYS * DAY_MS) throw notFound('Login not found');
    return present(Login, login);
  });
}

/** Logins within the history window, decided at request time. */
function recentLogins(now: number): SqlFilter {
  return { where: "json_extract(data, '$.datetime') >= ?", params: [isoSeconds(now - LOGIN_HISTORY_DAYS * DAY_MS)] };
}

interface SessionKind {
  path: string;
  param: string;
  kind: string;
  schema: ResourceSchema;
  what: string;
  /** What else revoking takes away. */
  revoke?: (ctx: Ctx, row: Row) => void;
}

/**
 * Apps and devices share one life: listed while unexpired, revoked by DELETE,
 * after which (as after expiry) they are not found.
 */
function sessionRoutes(r: Router, s: SessionKind): void {
  const { path, param, kind, schema, what, revoke } = s;
  const itemPath = `${path}/{${param}}`;
  const active = (ctx: Ctx) => {
    const row = ownRow<Row>(ctx, kind, ctx.params[param]!, what);
    if (isExpired(row, ctx.store.clock.now())) throw notFound(what);
    return row;
  };
  const filterable = filterFields(filterableFields(schema));
  r.get(path, 'account:read_only', (ctx) =>
    listPage(ctx, kind, { parent: ownParent(ctx), filterable, restrict: unexpired(ctx.store.clock.now()), present: (row) => present(schema, row) }),
  );
  r.get(itemPath, 'account:read_only', (ctx) => present(schema, active(ctx)));
  r.delete(itemPath, 'account:read_write', (ctx) => {
    const row = active(ctx);
    ctx.store.delete(kind, String(row.id));
    revoke?.(ctx, row);
  });
}

/** Revoking an app expires its tokens: they get 401 from the next request on. */
function revokeApp(ctx: Ctx, row: Row): void {
  const app = row as AppRecord;
  for (const token of ctx.store.all<TokenRecord>('token', ownParent(ctx))) {
    if (token.client === app._client) ctx.store.delete('token', token.id);
  }
}
