import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { emitEvent, type NewEvent } from '../../src/server/events.js';
import { ownerTokenWith, setRestrictedGrants } from './managed-fixtures.js';

let svc: RunningService;
const DAY = 24 * 60 * 60 * 1000;

const vm = (id: number) => ({ id, label: `vm-${id}`, type: 'vm', url: `/v4/vm/instances/${id}` });
const emit = (e: NewEvent, ago = 0) => svc.store.tx(() => emitEvent(svc.store, e, Date.now() - ago));

let ids: Record<string, number>;
beforeAll(async () => {
  svc = await startTestService();
  ids = {
    old: emit({ action: 'vm_create', entity: vm(5), username: 'demo-owner' }, 3 * DAY).id,
    boot: emit({ action: 'vm_boot', entity: vm(5), status: 'finished', username: 'demo-owner' }, 2 * DAY).id,
    other: emit({ action: 'vm_boot', entity: vm(6), status: 'finished', username: 'demo-owner' }, DAY).id,
    byOps: emit({ action: 'vm_reboot', entity: vm(6), status: 'finished', username: 'demo-ops' }, 60_000).id,
    managed: emit({ action: 'managed_service_create', entity: { id: 3, label: 'shop', type: 'managed_service', url: '/v4/managed/services/3' }, username: 'demo-owner' }).id,
    expired: emit({ action: 'vm_create', entity: vm(5), username: 'demo-owner' }, 91 * DAY).id,
  };
  // Made after the others but dated earlier: order follows the date.
  ids.backdated = emit({ action: 'nodebalancer_create', entity: { id: 9, label: 'nb', type: 'nodebalancer', url: '/v4/nodebalancers/9' }, username: 'demo-owner' }, 2.5 * DAY).id;
});
afterAll(() => svc.close());

const listIds = async (opts: Parameters<typeof call>[3] = {}) => ((await call(svc, 'GET', '/account/events', opts)).body.data as { id: number }[]).map((e) => e.id);

describe('account events', () => {
  it('lists the last 90 days newest first, in the page envelope, with the full event shape', async () => {
    const r = await call(svc, 'GET', '/account/events');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, pages: 1, results: 6 });
    expect(r.body.data.map((e: { id: number }) => e.id)).toEqual([ids.managed, ids.byOps, ids.other, ids.boot, ids.backdated, ids.old]);
    expect(r.body.data[0]).toEqual({
      id: ids.managed,
      action: 'managed_service_create',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      duration: 0,
      entity: { id: 3, label: 'shop', type: 'managed_service', url: '/v4/managed/services/3' },
      secondary_entity: null,
      percent_complete: null,
      rate: null,
      read: false,
      seen: false,
      status: 'notification',
      time_remaining: null,
      username: 'demo-owner',
      message: null,
    });
    expect((await call(svc, 'GET', `/account/events/${ids.expired}`)).status).toBe(404);
  });

  it('filters on id, action, created, entity.id and entity.type only', async () => {
    expect(await listIds({ filter: { action: 'vm_boot' } })).toEqual([ids.other, ids.boot]);
    expect(await listIds({ filter: { entity: { id: 6 } } })).toEqual([ids.byOps, ids.other]);
    expect(await listIds({ filter: { 'entity.type': 'nodebalancer' } })).toEqual([ids.backdated]);
    expect(await listIds({ filter: { id: { '+gt': ids.other } } })).toEqual([ids.managed, ids.byOps, ids.backdated]);
    const since = new Date(Date.now() - 1.5 * DAY).toISOString().slice(0, 19);
    expect(await listIds({ filter: { created: { '+gte': since } } })).toEqual([ids.managed, ids.byOps, ids.other]);
    expect(await listIds({ filter: { '+order_by': 'id', '+order': 'asc' } })).toEqual([ids.old, ids.boot, ids.other, ids.byOps, ids.managed, ids.backdated]);
    const bad = await call(svc, 'GET', '/account/events', { filter: { username: 'demo-ops' } });
    expect(bad.status).toBe(400);
    expect(errorFields(bad)).toEqual(['X-Filter']);
  });

  it('pages with page_size', async () => {
    const r = await call(svc, 'GET', '/account/events?page=2&page_size=25');
    expect(r.body).toMatchObject({ page: 1, pages: 1, results: 6 });
    expect((await call(svc, 'GET', '/account/events?page_size=101')).status).toBe(400);
  });

  it('shows one event; 404 for unknown ids', async () => {
    const r = await call(svc, 'GET', `/account/events/${ids.boot}`);
    expect(r.body).toMatchObject({ id: ids.boot, action: 'vm_boot', status: 'finished', entity: vm(5) });
    expect((await call(svc, 'GET', '/account/events/999999')).status).toBe(404);
    expect((await call(svc, 'GET', '/account/events/abc')).status).toBe(404);
  });

  it('needs the account scope', async () => {
    expect((await call(svc, 'GET', '/account/events', { token: ownerTokenWith(svc, 'vms:read_write') })).status).toBe(403);
    expect((await call(svc, 'GET', '/account/events', { token: ownerTokenWith(svc, 'account:read_only') })).status).toBe(200);
    expect((await call(svc, 'GET', '/account/events', { token: null })).status).toBe(401);
  });
});

describe('seen and read', () => {
  it('seen marks every event up to and including that one; read marks just one', async () => {
    const seen = await call(svc, 'POST', `/account/events/${ids.other}/seen`);
    expect(seen).toMatchObject({ status: 200, body: {} });
    const flags = async () =>
      Object.fromEntries(((await call(svc, 'GET', '/account/events')).body.data as { id: number; seen: boolean; read: boolean }[]).map((e) => [e.id, e]));
    let byId = await flags();
    expect([ids.old, ids.boot, ids.other].map((id) => byId[id]!.seen)).toEqual([true, true, true]);
    expect([ids.byOps, ids.managed, ids.backdated].map((id) => byId[id]!.seen)).toEqual([false, false, false]);

    expect(await call(svc, 'POST', `/account/events/${ids.byOps}/read`)).toMatchObject({ status: 200, body: {} });
    byId = await flags();
    expect(Object.values(byId).filter((e) => e.read).map((e) => e.id)).toEqual([ids.byOps]);
    expect(byId[ids.byOps]!.seen).toBe(false);
    expect((await call(svc, 'POST', '/account/events/999999/seen')).status).toBe(404);
    expect((await call(svc, 'POST', '/account/events/999999/read')).status).toBe(404);
  });
});

describe('restricted users and events', () => {
  it('see events on granted entities and their own, without account_access', async () => {
    setRestrictedGrants(svc, (g) => {
      g.vm.push({ id: 5, permissions: 'read_only' });
    });
    const seen = await listIds({ token: RESTRICTED_TOKEN });
    expect(seen).toEqual([ids.byOps, ids.boot, ids.old]);
    expect((await call(svc, 'GET', `/account/events/${ids.other}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'GET', `/account/events/${ids.managed}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'POST', `/account/events/${ids.other}/read`, { token: RESTRICTED_TOKEN })).status).toBe(404);
  });

  it('see account-level events (managed) with account_access, and still not ungranted instances', async () => {
    setRestrictedGrants(svc, (g) => {
      g.global.account_access = 'read_only';
      g.nodebalancer.push({ id: 9, permissions: 'read_write' });
    });
    expect(await listIds({ token: RESTRICTED_TOKEN })).toEqual([ids.managed, ids.byOps, ids.backdated]);
  });

  it('marking seen touches only what the restricted user can see', async () => {
    const fresh = emit({ action: 'vm_boot', entity: vm(6), username: 'demo-owner' });
    const mine = emit({ action: 'vm_shutdown', entity: vm(6), username: 'demo-ops' });
    setRestrictedGrants(svc, () => {});
    await call(svc, 'POST', `/account/events/${mine.id}/seen`, { token: RESTRICTED_TOKEN });
    expect((await call(svc, 'GET', `/account/events/${mine.id}`)).body.seen).toBe(true);
    expect((await call(svc, 'GET', `/account/events/${fresh.id}`)).body.seen).toBe(false);
  });
});
