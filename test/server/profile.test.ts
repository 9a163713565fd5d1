import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { emptyGrants, issueToken, newTokenValue, type User } from '../../src/server/auth.js';
import { isoSeconds } from '../../src/model/time.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const DAY = 86_400_000;
const ago = (ms: number) => isoSeconds(Date.now() - ms);

/** A token issued straight into the store, for scope and per-client cases. */
function mint(fields: { user_id?: number; scopes?: string; client?: string } = {}): string {
  const value = newTokenValue();
  svc.store.tx(() => issueToken(svc.store, value, { user_id: fields.user_id ?? 1, label: 'test', scopes: fields.scopes ?? '*', client: fields.client }));
  return value;
}

const user = (id: number) => svc.store.get<User>('user', id)!;
const patchUser = (id: number, patch: Record<string, unknown>) => svc.store.tx(() => svc.store.put('user', id, { ...user(id), ...patch }));
const eventsOf = (action: string) => svc.store.all<{ action: string; username: string; entity: Record<string, unknown> }>('event').filter((e) => e.action === action);

describe('GET /profile', () => {
  it('returns the acting user in the Profile shape, with no scope needed', async () => {
    const noScopes = mint({ scopes: 'vms:read_only' });
    const r = await call(svc, 'GET', '/profile', { token: noScopes });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      uid: 1,
      username: 'demo-owner',
      email: 'demo-owner@example.com',
      email_notifications: true,
      timezone: 'UTC',
      authentication_type: 'password',
      authorized_keys: null,
      lish_auth_method: 'password_keys',
      ip_whitelist_enabled: false,
      restricted: false,
      two_factor_auth: false,
      referrals: { code: 'ref-demo-owner', url: expect.any(String), total: 0, completed: 0, pending: 0, credit: 0 },
    });
    const ops = await call(svc, 'GET', '/profile', { token: RESTRICTED_TOKEN });
    expect(ops.body).toMatchObject({ uid: 2, username: 'demo-ops', restricted: true });
    expect((await call(svc, 'GET', '/profile', { token: null })).status).toBe(401);
  });
});

describe('PUT /profile', () => {
  beforeEach(() => patchUser(1, { email: 'demo-owner@example.com', timezone: 'UTC', ip_whitelist_enabled: false, restricted: false, two_factor_auth: false }));

  it('updates the writable fields, ignores read-only ones and records profile_update', async () => {
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKRPkNJHGt48HmaTyFyyGPCaRhcS7l9jT9HWjdCmTn18 me@host';
    const before = eventsOf('profile_update').length;
    const r = await call(svc, 'PUT', '/profile', {
      body: { email: 'ops@example.org', email_notifications: false, timezone: 'Europe/Berlin', lish_auth_method: 'keys_only', authorized_keys: [key], uid: 99, username: 'mallory' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ uid: 1, username: 'demo-owner', email: 'ops@example.org', email_notifications: false, timezone: 'Europe/Berlin', lish_auth_method: 'keys_only', authorized_keys: [key] });
    expect((await call(svc, 'GET', '/profile')).body).toEqual(r.body);
    const events = eventsOf('profile_update');
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({ username: 'demo-owner', entity: { id: 1, type: 'profile', label: 'demo-owner' } });
    expect((await call(svc, 'PUT', '/profile', { body: { authorized_keys: null } })).body.authorized_keys).toBeNull();
  });

  it('accepts time zone aliases Intl resolves, and UTC', async () => {
    for (const tz of ['US/Eastern', 'Asia/Kolkata', 'UTC', 'Etc/GMT+5']) {
      const r = await call(svc, 'PUT', '/profile', { body: { timezone: tz } });
      expect(r.status, tz).toBe(200);
      expect(r.body.timezone).toBe(tz);
    }
  });

  it('reports every invalid field at once and changes nothing', async () => {
    const r = await call(svc, 'PUT', '/profile', {
      body: { email: 'not-an-email', timezone: 'Mars/Olympus', lish_auth_method: 'telepathy', authorized_keys: ['ssh-nope xyz'], email_notifications: 'yes', favourite: 1 },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['authorized_keys.0', 'email', 'email_notifications', 'lish_auth_method', 'timezone']);
    expect(r.headers['x-ignored-fields']).toBe('favourite');
    expect((await call(svc, 'GET', '/profile')).body).toMatchObject({ email: 'demo-owner@example.com', timezone: 'UTC' });
    expect((await call(svc, 'PUT', '/profile', { body: { timezone: 'america/new_york' } })).status).toBe(400);
    expect((await call(svc, 'PUT', '/profile', { body: [1] })).status).toBe(400);
  });

  it('refuses password_keys for a third-party login', async () => {
    patchUser(1, { authentication_type: 'github', lish_auth_method: 'keys_only' });
    const r = await call(svc, 'PUT', '/profile', { body: { lish_auth_method: 'password_keys' } });
    patchUser(1, { authentication_type: 'password', lish_auth_method: 'password_keys' });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['lish_auth_method']);
  });

  it('never turns ip_whitelist_enabled on; once off it stays off', async () => {
    const on = await call(svc, 'PUT', '/profile', { body: { ip_whitelist_enabled: true } });
    expect(on.status).toBe(400);
    expect(errorFields(on)).toEqual(['ip_whitelist_enabled']);
    patchUser(1, { ip_whitelist_enabled: true });
    expect((await call(svc, 'PUT', '/profile', { body: { ip_whitelist_enabled: true } })).status).toBe(200);
    expect((await call(svc, 'PUT', '/profile', { body: { ip_whitelist_enabled: false } })).body.ip_whitelist_enabled).toBe(false);
    expect((await call(svc, 'PUT', '/profile', { body: { ip_whitelist_enabled: true } })).status).toBe(400);
  });

  it('will not restrict the owner, nor let a restricted user lift its restriction', async () => {
    const owner = await call(svc, 'PUT', '/profile', { body: { restricted: true } });
    expect(owner.status).toBe(400);
    expect(owner.body.errors).toEqual([{ field: 'restricted', reason: 'cannot restrict the account owner' }]);
    expect((await call(svc, 'PUT', '/profile', { body: { restricted: false } })).status).toBe(200);
    const lift = await call(svc, 'PUT', '/profile', { token: RESTRICTED_TOKEN, body: { restricted: false } });
    expect(lift.status).toBe(403);
    expect(lift.body.errors[0].reason).toMatch(/restricted user cannot lift/);
    expect(user(2).restricted).toBe(true);
    const same = await call(svc, 'PUT', '/profile', { token: RESTRICTED_TOKEN, body: { restricted: true, email_notifications: false } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ restricted: true, email_notifications: false });
  });

  it('changes two_factor_auth only through the two-factor endpoints', async () => {
    const r = await call(svc, 'PUT', '/profile', { body: { two_factor_auth: true } });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['two_factor_auth']);
    expect(r.body.errors[0].reason).toMatch(/tfa-enable/);
    expect((await call(svc, 'PUT', '/profile', { body: { two_factor_auth: false } })).status).toBe(200);
  });

  it('needs account:read_write, naming the missing scope', async () => {
    const r = await call(svc, 'PUT', '/profile', { token: mint({ scopes: 'account:read_only' }), body: { timezone: 'UTC' } });
    expect(r.status).toBe(403);
    expect(r.body.errors[0].reason).toContain('account:read_write');
  });
});

describe('GET /profile/grants', () => {
  it('answers 204 with no body for an unrestricted user', async () => {
    const r = await call(svc, 'GET', '/profile/grants', { token: mint({ scopes: 'vms:read_only' }) });
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
  });

  it('gives a restricted user the Grants object, labelled from live entities, dropping gone and no-access ones', async () => {
    svc.store.tx(() => {
      svc.store.insert('vm', 501, { id: 501, label: 'web-1' });
      svc.store.insert('vm', 502, { id: 502, label: 'db-1' });
      svc.store.insert('nodebalancer', 601, { id: 601, label: 'edge-lb' });
      svc.store.insert('image', 'private/77', { id: 'private/77', label: 'golden', is_public: false });
    });
    const grants = emptyGrants();
    grants.global.account_access = 'read_only';
    grants.vm = [
      { id: 501, permissions: 'read_write' },
      { id: 502, permissions: 'read_only' },
      { id: 503, permissions: 'read_write' },
      { id: 504, permissions: null },
    ];
    grants.nodebalancer = [{ id: 601, permissions: 'read_only' }];
    grants.image = [{ id: 'private/77', permissions: 'read_only' }];
    grants.domain = [{ id: 9, permissions: 'read_write' }];
    patchUser(2, { grants });
    svc.store.tx(() => svc.store.put('vm', 501, { id: 501, label: 'web-1-renamed' }));

    const r = await call(svc, 'GET', '/profile/grants', { token: RESTRICTED_TOKEN });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      global: { ...grants.global },
      vm: [
        { id: 501, label: 'web-1-renamed', permissions: 'read_write' },
        { id: 502, label: 'db-1', permissions: 'read_only' },
      ],
      nodebalancer: [{ id: 601, label: 'edge-lb', permissions: 'read_only' }],
      image: [{ id: 77, label: 'golden', permissions: 'read_only' }],
      stackscript: [],
      domain: [],
      longview: [],
      volume: [],
    });
  });
});

describe('preferences', () => {
  it('are stored per OAuth client of the acting token', async () => {
    expect((await call(svc, 'GET', '/profile/preferences')).body).toEqual({});
    const prefs = { theme: 'dark', columns: ['label', 'status'], nested: { a: 1 } };
    const put = await call(svc, 'PUT', '/profile/preferences', { body: prefs });
    expect(put.status).toBe(200);
    expect(put.body).toEqual(prefs);
    expect((await call(svc, 'GET', '/profile/preferences')).body).toEqual(prefs);

    const personal = mint({ scopes: 'account:read_write' });
    expect((await call(svc, 'GET', '/profile/preferences', { token: personal })).body).toEqual(prefs);
    const app = mint({ client: 'oauth-dashboard' });
    expect((await call(svc, 'GET', '/profile/preferences', { token: app })).body).toEqual({});
    await call(svc, 'PUT', '/profile/preferences', { token: app, body: { theme: 'light' } });
    expect((await call(svc, 'GET', '/profile/preferences', { token: app })).body).toEqual({ theme: 'light' });
    expect((await call(svc, 'GET', '/profile/preferences')).body).toEqual(prefs);
    expect((await call(svc, 'GET', '/profile/preferences', { token: RESTRICTED_TOKEN })).body).toEqual({});
  });

  it('must be a JSON object of at most 64 KiB', async () => {
    for (const body of [[1, 2], 'dark', 5]) expect((await call(svc, 'PUT', '/profile/preferences', { body })).status).toBe(400);
    expect((await call(svc, 'PUT', '/profile/preferences', { raw: 'null' })).status).toBe(400);
    expect((await call(svc, 'PUT', '/profile/preferences')).status).toBe(400);
    const big = await call(svc, 'PUT', '/profile/preferences', { body: { blob: 'x'.repeat(64 * 1024) } });
    expect(big.status).toBe(400);
    expect(big.body.errors[0].reason).toMatch(/64 KiB/);
    expect((await call(svc, 'PUT', '/profile/preferences', { body: { blob: 'x'.repeat(60 * 1024) } })).status).toBe(200);
  });

  it('need account scopes to read and write', async () => {
    const r = await call(svc, 'GET', '/profile/preferences', { token: mint({ scopes: 'vms:read_write' }) });
    expect(r.status).toBe(403);
    expect(r.body.errors[0].reason).toContain('account:read_only');
  });
});

describe('authorized apps', () => {
  it('lists unexpired apps, filters on created and expiry, and revoking expires the app token', async () => {
    const appToken = mint({ client: 'oauth-terraform', scopes: 'vms:read_write' });
    const app = (id: number, label: string, created: string, expiry: string | null, client: string, parent = '1') =>
      svc.store.insert('app', id, { id, label, scopes: 'vms:read_write', created, expiry, thumbnail_url: `https://${client}.example/logo.png`, website: `https://${client}.example`, _client: client }, { parent });
    const old = ago(10 * DAY);
    const recent = ago(2 * DAY);
    svc.store.tx(() => {
      app(1, 'Terraform', old, null, 'oauth-terraform');
      app(2, 'Grafana', recent, isoSeconds(Date.now() + 5 * DAY), 'oauth-grafana');
      app(3, 'Stale', old, ago(DAY), 'oauth-stale');
      app(4, 'Someone else', old, null, 'oauth-other', '2');
    });

    const list = await call(svc, 'GET', '/profile/apps');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 2 });
    expect(list.body.data[0]).toEqual({ id: 1, label: 'Terraform', scopes: 'vms:read_write', created: old, expiry: null, thumbnail_url: 'https://oauth-terraform.example/logo.png', website: 'https://oauth-terraform.example' });
    expect((await call(svc, 'GET', '/profile/apps', { filter: { created: { '+gt': ago(5 * DAY) } } })).body.data.map((a: { id: number }) => a.id)).toEqual([2]);
    expect((await call(svc, 'GET', '/profile/apps', { filter: { expiry: null } })).body.data.map((a: { id: number }) => a.id)).toEqual([1]);
    expect((await call(svc, 'GET', '/profile/apps', { filter: { label: 'Grafana' } })).status).toBe(400);

    expect((await call(svc, 'GET', '/profile/apps/2')).body.label).toBe('Grafana');
    expect((await call(svc, 'GET', '/profile/apps/3')).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/apps/4')).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/apps/4', { token: RESTRICTED_TOKEN })).status).toBe(200);

    expect((await call(svc, 'GET', '/profile', { token: appToken })).status).toBe(200);
    expect((await call(svc, 'DELETE', '/profile/apps/1', { token: mint({ scopes: 'account:read_only' }) })).status).toBe(403);
    const del = await call(svc, 'DELETE', '/profile/apps/1');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await call(svc, 'GET', '/profile', { token: appToken })).status).toBe(401);
    expect((await call(svc, 'GET', '/profile/apps/1')).status).toBe(404);
    expect((await call(svc, 'DELETE', '/profile/apps/1')).status).toBe(404);
  });
});

describe('trusted devices', () => {
  it('lists, shows and revokes the user’s unexpired devices', async () => {
    const created = ago(5 * DAY);
    const device = (id: number, expiry: string, parent = '1') =>
      svc.store.insert('device', id, { id, created, expiry, last_authenticated: ago(DAY), last_remote_addr: '203.0.113.9', user_agent: 'Firefox' }, { parent });
    const soon = isoSeconds(Date.now() + 2 * DAY);
    svc.store.tx(() => {
      device(1, soon);
      device(2, isoSeconds(Date.now() + 20 * DAY));
      device(3, ago(1000));
      device(4, soon, '2');
    });
    const list = await call(svc, 'GET', '/profile/devices');
    expect(list.body.results).toBe(2);
    expect(list.body.data[0]).toEqual({ id: 1, created, expiry: soon, last_authenticated: expect.any(String), last_remote_addr: '203.0.113.9', user_agent: 'Firefox' });
    expect((await call(svc, 'GET', '/profile/devices/1')).body.id).toBe(1);
    expect((await call(svc, 'GET', '/profile/devices/3')).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/devices/4')).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/devices/abc')).status).toBe(404);
    expect((await call(svc, 'DELETE', '/profile/devices/1')).body).toEqual({});
    expect((await call(svc, 'GET', '/profile/devices/1')).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/devices')).body.data.map((d: { id: number }) => d.id)).toEqual([2]);
    expect((await call(svc, 'GET', '/profile/devices', { token: RESTRICTED_TOKEN })).body.data.map((d: { id: number }) => d.id)).toEqual([4]);
  });
});

describe('logins', () => {
  it('hold only the last 90 days, decided at request time', async () => {
    const now = Date.now();
    const at = (daysAgo: number) => isoSeconds(now - daysAgo * DAY);
    const login = (id: number, daysAgo: number, parent = '1') =>
      svc.store.insert('login', id, { id, datetime: at(daysAgo), ip: '192.0.2.1', restricted: parent === '2', username: parent === '2' ? 'demo-ops' : 'demo-owner' }, { parent });
    svc.store.tx(() => {
      login(1, 120);
      login(2, 91);
      login(3, 89);
      login(4, 1);
      login(5, 3, '2');
    });
    const list = await call(svc, 'GET', '/profile/logins');
    expect(list.status).toBe(200);
    expect(list.body.results).toBe(2);
    expect(list.body.data[1]).toEqual({ id: 4, datetime: at(1), ip: '192.0.2.1', restricted: false, username: 'demo-owner' });
    expect((await call(svc, 'GET', '/profile/logins/3')).status).toBe(200);
    expect((await call(svc, 'GET', '/profile/logins/2')).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/logins/5')).status).toBe(404);
    const ops = await call(svc, 'GET', '/profile/logins', { token: RESTRICTED_TOKEN });
    expect(ops.body.data).toEqual([{ id: 5, datetime: at(3), ip: '192.0.2.1', restricted: true, username: 'demo-ops' }]);
    expect((await call(svc, 'GET', '/profile/logins?page_size=10')).status).toBe(400);
  });
});
