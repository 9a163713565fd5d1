import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService } from '../helpers/service.js';
import { addInstance, eventsOf } from '../helpers/networking.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const FW = '/v4beta/networking/firewalls';
const ANYWHERE = { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] };
const web = { inbound: [{ protocol: 'TCP', ports: '80, 443', addresses: ANYWHERE }] };
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

const create = (body: unknown) => call(svc, 'POST', FW, { body });
const rule = (ports: string, protocol = 'TCP') => ({ protocol, ports, addresses: { ipv4: ['192.0.2.1'] } });

describe('firewalls: both roots', () => {
  it('are served under the seed\'s /v4beta and under /v4, where later releases moved them: one set of firewalls', async () => {
    const made = await call(svc, 'POST', '/v4/networking/firewalls', { body: { rules: web } });
    expect(made.status).toBe(200);
    const beta = await call(svc, 'GET', `${FW}/${made.body.id}`);
    expect(beta.status).toBe(200);
    expect(beta.body).toEqual(made.body);
    expect((await call(svc, 'GET', `/v4/networking/firewalls/${made.body.id}/rules`)).body).toEqual({ inbound: web.inbound, outbound: [] });
    expect((await call(svc, 'DELETE', `/v4/networking/firewalls/${made.body.id}`)).status).toBe(200);
    expect((await call(svc, 'GET', `${FW}/${made.body.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', '/v4/networking/firewallsx')).status).toBe(404);
  });
});

describe('firewall create', () => {
  it('creates an enabled firewall with a default label, no devices field, and emits firewall_create', async () => {
    const r = await create({ rules: web });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(Number),
      label: `firewall-${r.body.id}`,
      created: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
      status: 'enabled',
      rules: { inbound: web.inbound, outbound: [] },
      tags: [],
    });
    const event = eventsOf(svc, 'firewall_create').find((e) => e.entity?.id === r.body.id);
    expect(event).toMatchObject({
      status: 'notification',
      username: 'demo-owner',
      entity: { id: r.body.id, label: r.body.label, type: 'firewall', url: `/v4beta/networking/firewalls/${r.body.id}` },
    });
  });

  it('keeps the given label, tags and outbound rules, and registers the tags', async () => {
    const rules = { ...web, outbound: [{ protocol: 'UDP', ports: '53', addresses: { ipv4: ['203.0.113.53'] } }] };
    const r = await create({ label: 'edge_v2.prod', tags: ['edge', 'prod'], rules });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ label: 'edge_v2.prod', tags: ['edge', 'prod'], rules });
    expect(svc.store.get('tag', 'edge')).toBeTruthy();
  });

  it('creates one device per instance listed in devices.vms', async () => {
    const a = addInstance(svc, { label: 'dev-a' });
    const b = addInstance(svc, { label: 'dev-b' });
    const r = await create({ label: 'with-devices', rules: web, devices: { vms: [a, b] } });
    expect(r.status).toBe(200);
    expect(r.body.devices).toBeUndefined();
    const devices = await call(svc, 'GET', `${FW}/${r.body.id}/devices`);
    expect(devices.body.data.map((d: { entity: { id: number } }) => d.entity.id)).toEqual([a, b]);
    expect(devices.body.data[0]).toEqual({
      id: expect.any(Number),
      created: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
      entity: { id: a, type: 'vm', label: 'dev-a', url: `/v4/vm/instances/${a}` },
    });
    const adds = eventsOf(svc, 'firewall_device_add').filter((e) => e.entity?.id === r.body.id);
    expect(adds.map((e) => e.secondary_entity?.id)).toEqual([a, b]);
  });

  it('rejects missing rules and read-only-by-update fields; ignores and names unknown ones', async () => {
    const r = await create({ label: 'no-rules', status: 'disabled', colour: 'red' });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['rules', 'status']);
    expect(r.headers['x-ignored-fields']).toBe('colour');
    const noInbound = await create({ rules: { outbound: web.inbound } });
    expect(errorFields(noInbound)).toContain('rules.inbound');
  });

  it('reports every label problem', async () => {
    for (const label of ['ab', '-edge', 'edge-', 'a--b', 'a__b', 'a..b', 'edge fw', 'x'.repeat(33)]) {
      const r = await create({ label, rules: web });
      expect(r.status, label).toBe(400);
      expect(errorFields(r), label).toEqual(['label']);
    }
    expect((await create({ label: '1st-fw', rules: web })).status).toBe(200);
  });

  it('applies the port grammar to every rule', async () => {
    const cases: [string, RegExp][] = [
      ['080', /leading zero/],
      ['90-80', /end above its start/],
      ['80-80', /end above its start/],
      ['0', /1\.\.65535/],
      ['65536', /1\.\.65535/],
      ['22,,80', /not a port/],
      ['22;80', /not a port/],
      ['1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16', /at most 15/],
      ['1-2, 3-4, 5-6, 7-8, 9-10, 11-12, 13-14, 15-16', /at most 15/],
    ];
    for (const [ports, reason] of cases) {
      const r = await create({ rules: { inbound: [rule(ports)] } });
      expect(r.status, ports).toBe(400);
      expect(r.body.errors, ports).toEqual([{ field: 'rules.inbound.0.ports', reason: expect.stringMatching(reason) }]);
    }
    for (const ports of ['22', '22-24, 80, 443', '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15', '1-2, 3-4, 5-6, 7-8, 9-10, 11-12, 13-14']) {
      expect((await create({ rules: { inbound: [rule(ports)] } })).status, ports).toBe(200);
    }
  });

  it('requires ports for TCP and UDP and refuses them for ICMP', async () => {
    const r = await create({
      rules: {
        inbound: [
          { protocol: 'TCP', addresses: ANYWHERE },
          { protocol: 'UDP', addresses: ANYWHERE },
          { protocol: 'ICMP', ports: '8', addresses: ANYWHERE },
          { protocol: 'GRE', addresses: ANYWHERE },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['rules.inbound.3.protocol', 'rules.inbound.0.ports', 'rules.inbound.1.ports', 'rules.inbound.2.ports']);
    expect((await create({ rules: { inbound: [{ protocol: 'ICMP', addresses: ANYWHERE }] } })).status).toBe(200);
  });

  it('allows 25 rules across inbound and outbound, not 26', async () => {
    const ok = await create({ rules: { inbound: Array.from({ length: 20 }, () => rule('22')), outbound: Array.from({ length: 5 }, () => rule('443')) } });
    expect(ok.status).toBe(200);
    const r = await create({ rules: { inbound: Array.from({ length: 20 }, () => rule('22')), outbound: Array.from({ length: 6 }, () => rule('443')) } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'rules', reason: expect.stringMatching(/at most 25 rules/) }]);
  });

  it('allows 255 addresses per rule across ipv4 and ipv6, a network counting as one, not 256', async () => {
    const v4 = Array.from({ length: 200 }, (_, i) => `10.0.${i}.0/24`);
    const v6 = Array.from({ length: 55 }, (_, i) => `2001:db8:${i.toString(16)}::1`);
    const ok = await create({ rules: { inbound: [{ protocol: 'TCP', ports: '22', addresses: { ipv4: v4, ipv6: v6 } }] } });
    expect(ok.status).toBe(200);
    const r = await create({ rules: { inbound: [{ protocol: 'TCP', ports: '22', addresses: { ipv4: [...v4, '10.1.0.1'], ipv6: v6 } }] } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'rules.inbound.0.addresses', reason: expect.stringMatching(/at most 255/) }]);
  });

  it('rejects bad addresses and networks by family', async () => {
    const r = await create({
      rules: {
        inbound: [
          {
            protocol: 'TCP',
            ports: '22',
            addresses: { ipv4: ['10.0.0.0/33', '300.1.1.1', '2001:db8::1', '10.0.0.0/'], ipv6: ['2001:db8::/129', '192.0.2.1', '2001:db8::/48'] },
          },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual([
      'rules.inbound.0.addresses.ipv4.0',
      'rules.inbound.0.addresses.ipv4.1',
      'rules.inbound.0.addresses.ipv4.2',
      'rules.inbound.0.addresses.ipv4.3',
      'rules.inbound.0.addresses.ipv6.0',
      'rules.inbound.0.addresses.ipv6.1',
    ]);
  });

  it('needs at least one open inbound rule', async () => {
    for (const inbound of [[], [{ protocol: 'TCP', ports: '22' }], [{ protocol: 'TCP', ports: '22', addresses: { ipv4: [], ipv6: [] } }]]) {
      const r = await create({ rules: { inbound } });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ field: 'rules.inbound', reason: expect.stringMatching(/open inbound rule/) }]);
    }
  });

  it('checks devices: known instances, listed once', async () => {
    const a = addInstance(svc, { label: 'dup-check' });
    const r = await create({ rules: web, devices: { vms: [a, 999999, a] } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['devices.vms.1', 'devices.vms.2']);
    expect((await create({ rules: web, devices: { vms: 'all' } })).status).toBe(400);
    // 4.83.1 protects instances only: a later release's balancer device is ignored and named, never half-applied.
    const later = await create({ rules: web, devices: { nodebalancers: [1] } });
    expect(later.status).toBe(200);
    expect(later.headers['x-ignored-fields']).toBe('devices.nodebalancers');
    expect((await call(svc, 'GET', `${FW}/${later.body.id}/devices`)).body.results).toBe(0);
  });

  it('reports problems across fields at once', async () => {
    const r = await create({ label: 'a', tags: 'prod', rules: { inbound: [rule('080'), { protocol: 'ICMP', ports: '1', addresses: { ipv4: ['bad'] } }] } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['label', 'rules.inbound.0.ports', 'rules.inbound.1.addresses.ipv4.0', 'rules.inbound.1.ports', 'tags'].sort());
  });

  it('creates nothing when a request fails', async () => {
    const before = svc.store.count('firewall');
    await create({ rules: web, devices: { vms: [424242] } });
    expect(svc.store.count('firewall')).toBe(before);
  });
});

describe('firewall view, list and filters', () => {
  it('shows one firewall and answers 404 for unknown or non-integer ids', async () => {
    const made = await create({ label: 'view-me', rules: web });
    const r = await call(svc, 'GET', `${FW}/${made.body.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(made.body);
    expect((await call(svc, 'GET', `${FW}/987654`)).status).toBe(404);
    expect((await call(svc, 'GET', `${FW}/abc`)).status).toBe(404);
  });

  it('filters on label, tags, id and orders by created', async () => {
    await create({ label: 'filter-alpha', tags: ['blue'], rules: web });
    await create({ label: 'filter-beta', tags: ['green', 'blue'], rules: web });
    const byLabel = await call(svc, 'GET', FW, { filter: { label: 'filter-alpha' } });
    expect(byLabel.body.data.map((f: { label: string }) => f.label)).toEqual(['filter-alpha']);
    const byTag = await call(svc, 'GET', FW, { filter: { tags: 'blue' } });
    expect(byTag.body.data.map((f: { label: string }) => f.label)).toEqual(['filter-alpha', 'filter-beta']);
    const contains = await call(svc, 'GET', FW, { filter: { label: { '+contains': 'filter-' }, '+order_by': 'id', '+order': 'desc' } });
    expect(contains.body.data.map((f: { label: string }) => f.label)).toEqual(['filter-beta', 'filter-alpha']);
    const byId = await call(svc, 'GET', FW, { filter: { id: byLabel.body.data[0].id } });
    expect(byId.body.results).toBe(1);
    expect((await call(svc, 'GET', FW, { filter: { status: 'enabled' } })).status).toBe(400);
    expect((await call(svc, 'GET', FW, { filter: { '+order_by': 'created' } })).status).toBe(200);
  });

  it('pages with page_size 25..100', async () => {
    while (svc.store.count('firewall') < 27) await create({ rules: web });
    const total = svc.store.count('firewall');
    const p2 = await call(svc, 'GET', `${FW}?page=2&page_size=25`);
    expect(p2.body).toMatchObject({ page: 2, pages: Math.ceil(total / 25), results: total });
    expect(p2.body.data).toHaveLength(Math.min(25, total - 25));
    expect((await call(svc, 'GET', `${FW}?page_size=101`)).status).toBe(400);
  });
});

describe('firewall update', () => {
  it('changes label and tags, refreshing updated', async () => {
    const made = await create({ label: 'rename-me', rules: web });
    const r = await call(svc, 'PUT', `${FW}/${made.body.id}`, { body: { label: 'renamed', tags: ['x-tag'] } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.body.id, label: 'renamed', tags: ['x-tag'], status: 'enabled', rules: made.body.rules });
    expect((await call(svc, 'GET', `${FW}/${made.body.id}`)).body.label).toBe('renamed');
  });

  it('refuses rules, devices and deleted status with reasons that say where to go', async () => {
    const made = await create({ rules: web });
    const r = await call(svc, 'PUT', `${FW}/${made.body.id}`, { body: { rules: web, devices: { vms: [] }, status: 'deleted' } });
    expect(r.status).toBe(400);
    const reasons = Object.fromEntries(r.body.errors.map((e: { field: string; reason: string }) => [e.field, e.reason]));
    expect(reasons.rules).toMatch(/PUT .*\/rules/);
    expect(reasons.devices).toMatch(/devices endpoints/);
    expect(reasons.status).toMatch(/delete the firewall/);
    expect((await call(svc, 'GET', `${FW}/${made.body.id}`)).body.status).toBe('enabled');
    const bad = await call(svc, 'PUT', `${FW}/${made.body.id}`, { body: { status: 'paused', label: '__' } });
    expect(errorFields(bad).sort()).toEqual(['label', 'status']);
    expect((await call(svc, 'PUT', `${FW}/424242`, { body: { label: 'ghost' } })).status).toBe(404);
  });

  it('follows the status table: disable, enable, each with its event; unchanged status emits nothing', async () => {
    const made = await create({ label: 'toggle-me', rules: web });
    const url = `${FW}/${made.body.id}`;
    const mine = (action: string) => eventsOf(svc, action).filter((e) => e.entity?.id === made.body.id);
    expect((await call(svc, 'PUT', url, { body: { status: 'disabled' } })).body.status).toBe('disabled');
    expect(mine('firewall_disable')).toHaveLength(1);
    await call(svc, 'PUT', url, { body: { status: 'disabled' } });
    expect(mine('firewall_disable')).toHaveLength(1);
    expect((await call(svc, 'PUT', url, { body: { status: 'enabled' } })).body.status).toBe('enabled');
    expect(mine('firewall_enable')).toHaveLength(1);
    await call(svc, 'PUT', url, { body: { label: 'toggled' } });
    expect(mine('firewall_enable')).toHaveLength(1);
  });
});

describe('firewall rules endpoint', () => {
  it('returns and replaces the whole ruleset', async () => {
    const made = await create({ rules: { ...web, outbound: [rule('443')] } });
    const url = `${FW}/${made.body.id}/rules`;
    expect((await call(svc, 'GET', url)).body).toEqual({ inbound: web.inbound, outbound: [rule('443')] });
    const next = { inbound: [{ protocol: 'TCP', ports: '22', addresses: { ipv4: ['198.51.100.0/24'] } }] };
    const r = await call(svc, 'PUT', url, { body: next });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ inbound: next.inbound, outbound: [] });
    expect((await call(svc, 'GET', `${FW}/${made.body.id}`)).body.rules).toEqual(r.body);
  });

  it('validates like create, with paths relative to the ruleset, and changes nothing on failure', async () => {
    const made = await create({ rules: web });
    const url = `${FW}/${made.body.id}/rules`;
    const missing = await call(svc, 'PUT', url, { body: { outbound: [] } });
    expect(errorFields(missing)).toEqual(['inbound']);
    const bad = await call(svc, 'PUT', url, { body: { inbound: [rule('22'), { protocol: 'ICMP', ports: '0', addresses: ANYWHERE }], outbound: [rule('70000')] } });
    expect(bad.status).toBe(400);
    expect(errorFields(bad).sort()).toEqual(['inbound.1.ports', 'inbound.1.ports', 'outbound.0.ports']);
    const many = await call(svc, 'PUT', url, { body: { inbound: Array.from({ length: 26 }, () => rule('22')) } });
    expect(many.status).toBe(400);
    expect(many.body.errors[0].reason).toMatch(/at most 25 rules/);
    expect((await call(svc, 'GET', url)).body).toEqual({ inbound: web.inbound, outbound: [] });
    expect((await call(svc, 'GET', `${FW}/424242/rules`)).status).toBe(404);
  });
});

describe('firewall delete', () => {
  it('removes the firewall and its devices, and emits firewall_delete', async () => {
    const vm = addInstance(svc, { label: 'deleted-fw-host' });
    const made = await create({ label: 'doomed', rules: web, devices: { vms: [vm] } });
    const url = `${FW}/${made.body.id}`;
    const r = await call(svc, 'DELETE', url);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect((await call(svc, 'GET', url)).status).toBe(404);
    expect((await call(svc, 'GET', `${url}/devices`)).status).toBe(404);
    expect(svc.store.count('firewall_device', String(made.body.id))).toBe(0);
    const list = await call(svc, 'GET', FW, { filter: { label: 'doomed' } });
    expect(list.body.results).toBe(0);
    expect(eventsOf(svc, 'firewall_delete').find((e) => e.entity?.id === made.body.id)).toMatchObject({ entity: { label: 'doomed', type: 'firewall' } });
    expect((await call(svc, 'DELETE', url)).status).toBe(404);
  });
});
