import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { instanceWasDeleted } from '../../src/server/hooks.js';
import { addInstance, setRestrictedGrants } from './managed-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const web = { label: 'shop frontend', service_type: 'url', address: 'https://shop.example.com/health', timeout: 30 };
const create = (body: Record<string, unknown>) => call(svc, 'POST', '/managed/services', { body });
const eventsFor = async (action: string) => (await call(svc, 'GET', '/account/events', { filter: { action } })).body.data as { entity: { id: number } }[];

describe('managed services: create and read', () => {
  it('creates a service pending its first check; the check makes it ok', async () => {
    const { body: cred } = await call(svc, 'POST', '/managed/credentials', { body: { label: 'web.deploy', password: 'p' } });
    const r = await create({ ...web, body: 'ok', consultation_group: 'on-call', credentials: [cred.id, cred.id], notes: 'restart nginx', status: 'ok' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(Number),
      ...web,
      body: 'ok',
      consultation_group: 'on-call',
      credentials: [cred.id],
      notes: 'restart nginx',
      region: null,
      status: 'pending',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      updated: expect.any(String),
    });
    const got = await call(svc, 'GET', `/managed/services/${r.body.id}`);
    expect(got.body.status).toBe('ok');
    expect((await eventsFor('managed_service_create')).map((e) => e.entity.id)).toContain(r.body.id);
  });

  it('fills defaults for optional fields and drops URL fragments', async () => {
    const r = await create({ ...web, label: 'fragment', address: 'https://example.com/health?no-cache=1#monitor' });
    expect(r.body).toMatchObject({ address: 'https://example.com/health?no-cache=1', body: null, consultation_group: '', credentials: [], notes: null, region: null });
  });

  it('requires address, label, service_type and timeout, all reported at once', async () => {
    const r = await create({});
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['address', 'label', 'service_type', 'timeout']);
  });

  it('checks timeout 1..255 and integers', async () => {
    for (const timeout of [0, 256, 1.5, '30']) expect(errorFields(await create({ ...web, timeout }))).toEqual(['timeout']);
    expect((await create({ ...web, label: 'timeout 1', timeout: 1 })).status).toBe(200);
    expect((await create({ ...web, label: 'timeout 255', timeout: 255 })).status).toBe(200);
  });

  it('checks lengths, characters and the enum', async () => {
    const r = await create({ label: 'ab', service_type: 'icmp', address: 'ab', timeout: 5, body: 'b'.repeat(101), consultation_group: 'g'.repeat(51), notes: null });
    expect(errorFields(r).sort()).toEqual(['address', 'body', 'consultation_group', 'label', 'service_type']);
    expect(errorFields(await create({ ...web, label: 'l'.repeat(65) }))).toEqual(['label']);
    expect(errorFields(await create({ ...web, label: 'bad/label' }))).toEqual(['label']);
    expect((await create({ ...web, label: 'l'.repeat(64), body: 'b'.repeat(100), consultation_group: 'g'.repeat(50) })).status).toBe(200);
  });

  it('names each credential that does not exist', async () => {
    const { body: cred } = await call(svc, 'POST', '/managed/credentials', { body: { label: 'exists', password: 'p' } });
    const r = await create({ ...web, credentials: [cred.id, 98765, 98766] });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['credentials.1', 'credentials.2']);
    expect(errorFields(await create({ ...web, credentials: ['x', 98765] }))).toEqual(['credentials.0', 'credentials.1']);
  });

  it('a url service needs an http(s) URL; a tcp service takes host:port', async () => {
    expect(errorFields(await create({ ...web, address: 'shop.example.com:443' }))).toEqual(['address']);
    expect((await create({ label: 'db primary', service_type: 'tcp', address: 'db.example.com:5432', timeout: 5 })).status).toBe(200);
  });
});

describe('managed services: region and private addresses', () => {
  it('requires a region for a private address (URL, host:port, IPv6)', async () => {
    for (const [type, address] of [
      ['url', 'http://192.168.130.12/health'],
      ['tcp', '10.0.0.5:6379'],
      ['tcp', '[fd00::12]:6379'],
      ['tcp', 'fd00::12'],
    ]) {
      const r = await create({ label: 'private', service_type: type, address, timeout: 3 });
      expect(errorFields(r), address).toEqual(['region']);
      expect((await create({ label: 'private', service_type: type, address, timeout: 3, region: 'us-east' })).status, address).toBe(200);
    }
  });

  it('rejects a region with a public address, and an unknown region', async () => {
    expect(errorFields(await create({ ...web, region: 'us-east' }))).toEqual(['region']);
    expect((await create({ ...web, region: null })).status).toBe(200);
    const unknown = await create({ label: 'private', service_type: 'tcp', address: '10.0.0.5:6379', timeout: 3, region: 'mars-1' });
    expect(errorFields(unknown)).toEqual(['region']);
  });

  it('re-checks the rule on update against the merged service', async () => {
    const { body: s } = await create({ ...web, label: 'moving' });
    expect(errorFields(await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { address: 'http://10.1.2.3/' } }))).toEqual(['region']);
    const moved = await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { address: 'http://10.1.2.3/', region: 'eu-west' } });
    expect(moved.body).toMatchObject({ address: 'http://10.1.2.3/', region: 'eu-west' });
    expect((await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { timeout: 9 } })).status).toBe(200);
    expect(errorFields(await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { address: 'https://public.example.com/' } }))).toEqual(['region']);
    const back = await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { address: 'https://public.example.com/', region: null } });
    expect(back.body).toMatchObject({ region: null, timeout: 9 });
    expect(errorFields(await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { service_type: 'url', address: 'example.com:80' } }))).toEqual(['address']);
  });
});

describe('managed services: update, status and delete', () => {
  it('updates partially; status is read-only; a new address waits for a check', async () => {
    const { body: s } = await create({ ...web, label: 'partial' });
    const put = await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { notes: 'hi', status: 'problem' } });
    expect(put.body).toMatchObject({ ...web, label: 'partial', notes: 'hi', status: 'ok' });
    const retarget = await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { address: 'https://shop2.example.com/' } });
    expect(retarget.body.status).toBe('pending');
    expect((await call(svc, 'GET', `/managed/services/${s.id}`)).body.status).toBe('ok');
    // A null label is taken as absent (the label stays), as the real API takes it.
    const nullLabel = await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { timeout: 0, label: null } });
    expect(errorFields(nullLabel)).toEqual(['timeout']);
    expect(nullLabel.headers['x-ignored-fields']).toBe('label');
  });

  it('disables and enables: disabled, then pending, then ok; each emits its event', async () => {
    const { body: s } = await create({ ...web, label: 'toggle' });
    const off = await call(svc, 'POST', `/managed/services/${s.id}/disable`);
    expect(off.body).toMatchObject({ id: s.id, status: 'disabled' });
    expect((await call(svc, 'GET', `/managed/services/${s.id}`)).body.status).toBe('disabled');
    expect((await call(svc, 'POST', `/managed/services/${s.id}/disable`)).body.status).toBe('disabled');
    const on = await call(svc, 'POST', `/managed/services/${s.id}/enable`);
    expect(on.body.status).toBe('pending');
    expect((await call(svc, 'GET', `/managed/services/${s.id}`)).body.status).toBe('ok');
    expect((await call(svc, 'POST', `/managed/services/${s.id}/enable`)).body.status).toBe('ok');
    expect((await eventsFor('managed_disabled')).filter((e) => e.entity.id === s.id)).toHaveLength(1);
    expect((await eventsFor('managed_enabled')).filter((e) => e.entity.id === s.id)).toHaveLength(1);
  });

  it('a disabled service stays disabled across updates', async () => {
    const { body: s } = await create({ ...web, label: 'stays off' });
    await call(svc, 'POST', `/managed/services/${s.id}/disable`);
    await call(svc, 'PUT', `/managed/services/${s.id}`, { body: { address: 'https://elsewhere.example.com/' } });
    expect((await call(svc, 'GET', `/managed/services/${s.id}`)).body.status).toBe('disabled');
  });

  it('deletes a service: {} then 404, with a delete event', async () => {
    const { body: s } = await create({ ...web, label: 'doomed' });
    expect(await call(svc, 'DELETE', `/managed/services/${s.id}`)).toMatchObject({ status: 200, body: {} });
    expect((await call(svc, 'GET', `/managed/services/${s.id}`)).status).toBe(404);
    expect((await call(svc, 'POST', `/managed/services/${s.id}/enable`)).status).toBe(404);
    expect((await eventsFor('managed_service_delete')).map((e) => e.entity.id)).toContain(s.id);
  });

  it('lists services as a page', async () => {
    const r = await call(svc, 'GET', '/managed/services?page_size=25');
    expect(r.body).toMatchObject({ page: 1, results: expect.any(Number) });
    expect(r.body.data.length).toBe(Math.min(25, r.body.results));
    expect(r.body.pages).toBe(Math.ceil(r.body.results / 25));
    expect((await call(svc, 'GET', '/managed/services/abc')).status).toBe(404);
  });
});

describe('managed instance settings', () => {
  it('has one entry per instance with defaults from the instance', async () => {
    const a = addInstance(svc, 'web-1');
    const b = addInstance(svc, 'db-1');
    const list = await call(svc, 'GET', '/managed/vm-settings');
    expect(list.body.results).toBe(svc.store.count('vm'));
    expect(list.body.data).toContainEqual({ id: a.id, label: 'web-1', group: 'web', ssh: { access: true, user: 'root', ip: a.publicIp, port: 22 } });
    expect((await call(svc, 'GET', `/managed/vm-settings/${b.id}`)).body).toEqual({ id: b.id, label: 'db-1', group: 'web', ssh: { access: true, user: 'root', ip: b.publicIp, port: 22 } });
    expect((await call(svc, 'GET', '/managed/vm-settings/424242')).status).toBe(404);
  });

  it('updates ssh partially; id, label and group are read-only', async () => {
    const vm = addInstance(svc, 'app-1');
    const r = await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { label: 'renamed', ssh: { user: 'deploy', port: 2222 } } });
    expect(r.body).toEqual({ id: vm.id, label: 'app-1', group: 'web', ssh: { access: true, user: 'deploy', ip: vm.publicIp, port: 2222 } });
    const again = await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { access: false, ip: 'any' } } });
    expect(again.body.ssh).toEqual({ access: false, user: 'deploy', ip: 'any', port: 2222 });
    expect((await call(svc, 'GET', `/managed/vm-settings/${vm.id}`)).body).toEqual(again.body);
  });

  it('rejects bad ssh values, every one at once', async () => {
    const vm = addInstance(svc, 'app-2');
    const r = await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { access: 'yes', user: 'u'.repeat(33), ip: '300.1.1.1', port: 0 } } });
    expect(errorFields(r).sort()).toEqual(['ssh.access', 'ssh.ip', 'ssh.port', 'ssh.user']);
    expect(errorFields(await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { port: 65536 } } }))).toEqual(['ssh.port']);
    expect((await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { port: 65535, user: '', ip: '2600:3c00::1' } } })).status).toBe(200);
    expect((await call(svc, 'PUT', '/managed/vm-settings/424242', { body: { ssh: { port: 22 } } })).status).toBe(404);
  });

  it('forgets an instance’s override when the instance is deleted', async () => {
    const vm = addInstance(svc, 'gone-1');
    await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { port: 2200 } } });
    expect(svc.store.get('managed_ssh', vm.id)).toBeDefined();
    svc.store.tx(() => instanceWasDeleted(svc.store, vm.id));
    expect(svc.store.get('managed_ssh', vm.id)).toBeUndefined();
  });

  it('shows a restricted user only the instances granted to them', async () => {
    const mine = addInstance(svc, 'granted-1');
    const other = addInstance(svc, 'hidden-1');
    setRestrictedGrants(svc, (g) => {
      g.global.account_access = 'read_write';
      g.vm.push({ id: mine.id, permissions: 'read_only' });
    });
    const list = await call(svc, 'GET', '/managed/vm-settings', { token: RESTRICTED_TOKEN });
    expect(list.body.data.map((s: { id: number }) => s.id)).toEqual([mine.id]);
    expect((await call(svc, 'GET', `/managed/vm-settings/${other.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'PUT', `/managed/vm-settings/${mine.id}`, { token: RESTRICTED_TOKEN, body: { ssh: { port: 23 } } })).status).toBe(200);
  });
});
