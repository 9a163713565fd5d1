import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { addInstance, deleteInstance, eventsOf, setGrants, tokenWithScopes } from '../helpers/networking.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const FW = '/v4beta/networking/firewalls';
const rules = { inbound: [{ protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'] } }] };

async function firewall(label: string, vms: number[] = []): Promise<number> {
  const r = await call(svc, 'POST', FW, { body: { label, rules, devices: { vms } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id;
}

const setStatus = (id: number, status: string, token?: string) => call(svc, 'PUT', `${FW}/${id}`, { body: { status }, token });
const addDevice = (id: number, vm: number, token?: string) => call(svc, 'POST', `${FW}/${id}/devices`, { body: { id: vm, type: 'vm' }, token });

describe('firewall devices', () => {
  it('adds, lists, shows and removes a device, with events', async () => {
    const vm = addInstance(svc, { label: 'device-host' });
    const fw = await firewall('device-fw');
    const added = await addDevice(fw, vm);
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      id: expect.any(Number),
      created: expect.any(String),
      updated: expect.any(String),
      entity: { id: vm, type: 'vm', label: 'device-host', url: `/v4/vm/instances/${vm}` },
    });
    expect(eventsOf(svc, 'firewall_device_add').at(-1)).toMatchObject({
      entity: { id: fw, type: 'firewall', url: `/v4beta/networking/firewalls/${fw}` },
      secondary_entity: { id: vm, type: 'vm' },
      username: 'demo-owner',
    });

    const url = `${FW}/${fw}/devices/${added.body.id}`;
    expect((await call(svc, 'GET', url)).body).toEqual(added.body);
    const list = await call(svc, 'GET', `${FW}/${fw}/devices`);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 1, data: [added.body] });

    const removed = await call(svc, 'DELETE', url);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    expect(eventsOf(svc, 'firewall_device_remove').at(-1)).toMatchObject({ entity: { id: fw }, secondary_entity: { id: vm } });
    expect((await call(svc, 'GET', url)).status).toBe(404);
    expect((await call(svc, 'GET', `${FW}/${fw}/devices`)).body.results).toBe(0);
    expect((await call(svc, 'DELETE', url)).status).toBe(404);
  });

  it('shows the instance label as it is now', async () => {
    const vm = addInstance(svc, { label: 'old-name' });
    const fw = await firewall('label-follow', [vm]);
    svc.store.tx(() => svc.store.put('vm', vm, { ...svc.store.get('vm', vm)!, label: 'new-name' }));
    const list = await call(svc, 'GET', `${FW}/${fw}/devices`);
    expect(list.body.data[0].entity.label).toBe('new-name');
  });

  it('validates the body: id and type required, type vm only, instance known, no duplicates', async () => {
    const vm = addInstance(svc, { label: 'dup-host' });
    const fw = await firewall('dup-fw', [vm]);
    const url = `${FW}/${fw}/devices`;
    expect(errorFields(await call(svc, 'POST', url, { body: {} })).sort()).toEqual(['id', 'type']);
    const wrongType = await call(svc, 'POST', url, { body: { id: vm, type: 'nodebalancer' } });
    expect(wrongType.body.errors).toEqual([{ field: 'type', reason: expect.stringMatching(/one of: vm/) }]);
    const unknown = await call(svc, 'POST', url, { body: { id: 777777, type: 'vm' } });
    expect(unknown.status).toBe(400);
    expect(errorFields(unknown)).toEqual(['id']);
    const dup = await addDevice(fw, vm);
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0].reason).toMatch(/already a device/);
    expect(svc.store.count('firewall_device', String(fw))).toBe(1);
    expect((await addDevice(999999, vm)).status).toBe(404);
  });

  it('does not show a device through another firewall', async () => {
    const vm = addInstance(svc, { label: 'cross-host' });
    const a = await firewall('cross-a', [vm]);
    const b = await firewall('cross-b');
    const device = (await call(svc, 'GET', `${FW}/${a}/devices`)).body.data[0];
    expect((await call(svc, 'GET', `${FW}/${b}/devices/${device.id}`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `${FW}/${b}/devices/${device.id}`)).status).toBe(404);
  });

  it('filters devices on id and orders them by created', async () => {
    const vms = [addInstance(svc, { label: 'filt-1' }), addInstance(svc, { label: 'filt-2' })];
    const fw = await firewall('filter-devices', vms);
    const all = (await call(svc, 'GET', `${FW}/${fw}/devices`)).body.data;
    const one = await call(svc, 'GET', `${FW}/${fw}/devices`, { filter: { id: all[1].id } });
    expect(one.body.data.map((d: { entity: { id: number } }) => d.entity.id)).toEqual([vms[1]]);
    const ordered = await call(svc, 'GET', `${FW}/${fw}/devices`, { filter: { '+order_by': 'id', '+order': 'desc' } });
    expect(ordered.body.data.map((d: { id: number }) => d.id)).toEqual([all[1].id, all[0].id]);
    expect((await call(svc, 'GET', `${FW}/${fw}/devices`, { filter: { entity: { label: 'filt-1' } } })).status).toBe(400);
  });

  it('removes an instance from every firewall when the instance is deleted', async () => {
    const vm = addInstance(svc, { label: 'short-lived' });
    const keep = addInstance(svc, { label: 'long-lived' });
    const a = await firewall('cascade-a', [vm, keep]);
    const b = await firewall('cascade-b', [vm]);
    deleteInstance(svc, vm);
    const left = (await call(svc, 'GET', `${FW}/${a}/devices`)).body.data.map((d: { entity: { id: number } }) => d.entity.id);
    expect(left).toEqual([keep]);
    expect((await call(svc, 'GET', `${FW}/${b}/devices`)).body.results).toBe(0);
    expect(eventsOf(svc, 'firewall_device_remove').filter((e) => e.secondary_entity?.id === vm)).toHaveLength(2);
  });
});

describe('three active firewalls per instance', () => {
  it('refuses a fourth enabled firewall, allows a disabled one, and refuses enabling it', async () => {
    const vm = addInstance(svc, { label: 'crowded' });
    const other = addInstance(svc, { label: 'roomy' });
    const first = await firewall('active-1', [vm]);
    await firewall('active-2', [vm]);
    await firewall('active-3', [vm]);

    const fourth = await call(svc, 'POST', FW, { body: { label: 'active-4', rules, devices: { vms: [other, vm] } } });
    expect(fourth.status).toBe(400);
    expect(fourth.body.errors).toEqual([{ field: 'devices.vms.1', reason: expect.stringMatching(/already has 3 active firewalls/) }]);

    const extra = await firewall('extra', [other]);
    const refused = await addDevice(extra, vm);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'id', reason: expect.stringMatching(/3 active firewalls/) });

    expect((await setStatus(extra, 'disabled')).status).toBe(200);
    expect((await addDevice(extra, vm)).status).toBe(200);
    const enable = await setStatus(extra, 'enabled');
    expect(enable.status).toBe(400);
    expect(enable.body.errors).toEqual([{ field: 'status', reason: expect.stringMatching(/instance crowded .* already has 3 other active firewalls/) }]);
    expect((await call(svc, 'GET', `${FW}/${extra}`)).body.status).toBe('disabled');

    await setStatus(first, 'disabled');
    expect((await setStatus(extra, 'enabled')).body.status).toBe('enabled');
    expect((await setStatus(first, 'enabled')).status).toBe(400);

    await call(svc, 'DELETE', `${FW}/${extra}`);
    expect((await setStatus(first, 'enabled')).status).toBe(200);
  });
});

describe('firewall access', () => {
  it('needs firewall scopes: read_only reads, read_write writes', async () => {
    const fw = await firewall('scoped');
    const reader = tokenWithScopes(svc, 'firewall:read_only');
    expect((await call(svc, 'GET', FW, { token: reader })).status).toBe(200);
    expect((await call(svc, 'GET', `${FW}/${fw}/rules`, { token: reader })).status).toBe(200);
    const denied = await call(svc, 'PUT', `${FW}/${fw}`, { token: reader, body: { label: 'nope' } });
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].reason).toMatch(/firewall:read_write/);
    expect((await call(svc, 'POST', FW, { token: reader, body: { rules } })).status).toBe(403);
    const other = tokenWithScopes(svc, 'ips:read_write vms:read_write');
    expect((await call(svc, 'GET', FW, { token: other })).status).toBe(403);
    expect((await call(svc, 'GET', FW, { token: null })).status).toBe(401);
    const writer = tokenWithScopes(svc, 'firewall:read_write');
    expect((await call(svc, 'GET', `${FW}/${fw}`, { token: writer })).status).toBe(200);
    expect((await call(svc, 'PUT', `${FW}/${fw}`, { token: writer, body: { label: 'scoped-2' } })).status).toBe(200);
  });

  it('follows account_access for restricted users', async () => {
    const fw = await firewall('restricted-view');
    setGrants(svc, { account_access: null });
    expect((await call(svc, 'GET', FW, { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect((await call(svc, 'GET', `${FW}/${fw}`, { token: RESTRICTED_TOKEN })).status).toBe(403);

    setGrants(svc, { account_access: 'read_only' });
    expect((await call(svc, 'GET', `${FW}/${fw}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await setStatus(fw, 'disabled', RESTRICTED_TOKEN)).status).toBe(403);
    expect((await call(svc, 'POST', FW, { token: RESTRICTED_TOKEN, body: { rules } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `${FW}/${fw}`, { token: RESTRICTED_TOKEN })).status).toBe(403);

    setGrants(svc, { account_access: 'read_write' });
    const made = await call(svc, 'POST', FW, { token: RESTRICTED_TOKEN, body: { label: 'by-ops', rules } });
    expect(made.status).toBe(200);
    expect(eventsOf(svc, 'firewall_create').at(-1)?.username).toBe('demo-ops');
    const tagged = await call(svc, 'PUT', `${FW}/${made.body.id}`, { token: RESTRICTED_TOKEN, body: { tags: ['ops'] } });
    expect(tagged.status).toBe(403);
    expect(tagged.body.errors[0].reason).toMatch(/unrestricted/);
  });

  it('hides devices on instances a restricted user cannot see', async () => {
    const seen = addInstance(svc, { label: 'granted-host' });
    const hidden = addInstance(svc, { label: 'hidden-host' });
    const fw = await firewall('mixed-devices', [seen, hidden]);
    const devices = (await call(svc, 'GET', `${FW}/${fw}/devices`)).body.data;
    setGrants(svc, { account_access: 'read_write', vm: [{ id: seen, permissions: 'read_only' }] });

    const list = await call(svc, 'GET', `${FW}/${fw}/devices`, { token: RESTRICTED_TOKEN });
    expect(list.body.data.map((d: { entity: { id: number } }) => d.entity.id)).toEqual([seen]);
    expect((await call(svc, 'GET', `${FW}/${fw}/devices/${devices[1].id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'DELETE', `${FW}/${fw}/devices/${devices[1].id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);

    const other = await firewall('restricted-add');
    const invisible = await addDevice(other, hidden, RESTRICTED_TOKEN);
    expect(invisible.status).toBe(400);
    expect(invisible.body.errors[0].reason).toMatch(/not found/);
    expect((await addDevice(other, seen, RESTRICTED_TOKEN)).status).toBe(200);
    const create = await call(svc, 'POST', FW, { token: RESTRICTED_TOKEN, body: { rules, devices: { vms: [hidden] } } });
    expect(errorFields(create)).toEqual(['devices.vms.0']);
  });
});

describe('firewall persistence', () => {
  it('keeps firewalls, rules, status and devices across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-fw-'));
    const data = join(dir, 'state.db');
    try {
      let s = await startTestService({ data });
      const vm = addInstance(s, { label: 'persisted-host' });
      const made = await call(s, 'POST', FW, { body: { label: 'persisted', rules, devices: { vms: [vm] } } });
      await call(s, 'PUT', `${FW}/${made.body.id}`, { body: { status: 'disabled' } });
      await s.close();

      s = await startTestService({ data });
      const again = await call(s, 'GET', `${FW}/${made.body.id}`);
      expect(again.body).toMatchObject({ label: 'persisted', status: 'disabled', rules: { inbound: rules.inbound, outbound: [] } });
      const devices = await call(s, 'GET', `${FW}/${made.body.id}/devices`);
      expect(devices.body.data.map((d: { entity: { id: number } }) => d.entity.id)).toEqual([vm]);
      const next = await call(s, 'POST', FW, { body: { rules } });
      expect(next.body.id).toBeGreaterThan(made.body.id);
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
