import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import type { AccountEvent } from '../../src/server/events.js';
import { Store } from '../../src/server/store.js';
import { Simulation } from '../../src/server/sim.js';
import { allocateIpv4 } from '../../src/server/ipam.js';
import { seedReference } from '../../src/server/seed/reference.js';
import { seedNodebalancersDemo } from '../../src/server/seed/demo-nodebalancers.js';
import { nodeStatus, openConfig, presentConfig, type BalancerRecord, type ConfigRecord, type NodeRecord } from '../../src/server/areas/nodebalancers-records.js';
import { RESTRICTED_TOKEN, call, errorFields, startTestService } from '../helpers/service.js';
import { addInstance, createBalancer, createConfig, createNode, restrictedGrants, scopedToken, setGrants, uniqueLabel } from './nodebalancers-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

const balancerEvents = (nbId: number) =>
  svc.store.all<AccountEvent>('event').filter((e) => e.entity?.type === 'nodebalancer' && e.entity.id === nbId);

describe('load balancers: create, view, list', () => {
  it('creates a balancer with defaults and the NodeBalancer shape', async () => {
    const nb = await createBalancer(svc, { region: 'eu-west' });
    expect(Object.keys(nb).sort()).toEqual(
      ['client_conn_throttle', 'created', 'hostname', 'id', 'ipv4', 'ipv6', 'label', 'region', 'tags', 'transfer', 'updated'].sort(),
    );
    expect(nb).toMatchObject({ label: `balancer${nb.id}`, region: 'eu-west', client_conn_throttle: 0, tags: [], transfer: { total: 0, out: 0, in: 0 } });
    expect(nb.ipv4).toMatch(/^139\.162\.3\.\d+$/);
    expect(nb.hostname).toBe(`nb-${nb.ipv4.replace(/\./g, '-')}.eu-west.nodebalancer.example`);
    expect(nb.ipv6).toMatch(/^2600:3c03:/);
    expect(nb.created).toMatch(ISO);
    expect(nb.updated).toMatch(ISO);
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}`)).body).toEqual(nb);
  });

  it('gives each balancer its own public address', async () => {
    const a = await createBalancer(svc, { region: 'us-west' });
    const b = await createBalancer(svc, { region: 'us-west' });
    expect(a.ipv4).not.toBe(b.ipv4);
    expect(a.ipv6).not.toBe(b.ipv6);
  });

  it('creates configs and nodes in one request', async () => {
    const nb = await createBalancer(svc, {
      region: 'us-east',
      label: uniqueLabel('full'),
      client_conn_throttle: 5,
      configs: [
        { port: 80, nodes: [{ address: '192.168.10.1', label: 'web-a' }, { address: '192.168.10.2:8080', label: 'web-b', weight: 80, mode: 'backup' }] },
        { port: 9000, protocol: 'tcp', nodes: [{ address: '10.0.0.9', label: 'raw-a' }] },
      ],
    });
    expect(nb.client_conn_throttle).toBe(5);
    expect(nb).not.toHaveProperty('configs');
    const configs = (await call(svc, 'GET', `/nodebalancers/${nb.id}/configs`)).body;
    expect(configs.results).toBe(2);
    expect(configs.data.map((c: { port: number }) => c.port)).toEqual([80, 9000]);
    expect(configs.data[1]).toMatchObject({ protocol: 'tcp', stickiness: 'none' });
    const nodes = (await call(svc, 'GET', `/nodebalancers/${nb.id}/configs/${configs.data[0].id}/nodes`)).body.data;
    expect(nodes.map((n: { address: string }) => n.address)).toEqual(['192.168.10.1:80', '192.168.10.2:8080']);
    expect(nodes[1]).toMatchObject({ weight: 80, mode: 'backup', label: 'web-b' });
  });

  it('validates configs on create with dotted paths, all problems at once', async () => {
    const r = await call(svc, 'POST', '/nodebalancers', {
      body: {
        region: 'us-east',
        configs: [
          { port: 80, nodes: [{ address: '45.79.0.2', label: 'pub' }] },
          { port: 80, nodes: [{ label: 'x' }] },
          { port: 443, protocol: 'https', nodes: [{ address: '192.168.0.1', label: 'ok-node' }] },
          { port: 8080 },
          { port: 8081, nodes: [] },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(
      expect.arrayContaining([
        'configs.0.nodes.0.address',
        'configs.1.port',
        'configs.1.nodes.0.address',
        'configs.1.nodes.0.label',
        'configs.2.ssl_cert',
        'configs.2.ssl_key',
        'configs.3.nodes',
        'configs.4.nodes',
      ]),
    );
    expect(r.body.errors.find((e: { field: string }) => e.field === 'configs.1.port').reason).toMatch(/port 80/);
  });

  it('enforces the label rules and uniqueness (case-insensitive)', async () => {
    for (const label of ['ab', 'a'.repeat(33), 'has.dot', 'has space']) {
      const r = await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-east', label } });
      expect(r.status, label).toBe(400);
      expect(errorFields(r)).toEqual(['label']);
    }
    const label = uniqueLabel('Dup');
    await createBalancer(svc, { region: 'us-east', label });
    const dup = await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-west', label: label.toLowerCase() } });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0]).toEqual({ field: 'label', reason: expect.stringMatching(/already used/) });
  });

  it('requires an existing region with the NodeBalancers capability', async () => {
    svc.store.tx(() => {
      if (!svc.store.get('region', 'xx-lab')) svc.store.insert('region', 'xx-lab', { id: 'xx-lab', country: 'xx', capabilities: ['VMs'], status: 'ok' });
    });
    const missing = await call(svc, 'POST', '/nodebalancers', { body: { label: uniqueLabel() } });
    expect(missing.status).toBe(400);
    expect(errorFields(missing)).toEqual(['region']);
    const unknown = await call(svc, 'POST', '/nodebalancers', { body: { region: 'mars-1' } });
    expect(unknown.body.errors[0]).toEqual({ field: 'region', reason: 'region mars-1 does not exist' });
    const incapable = await call(svc, 'POST', '/nodebalancers', { body: { region: 'xx-lab' } });
    expect(incapable.status).toBe(400);
    expect(incapable.body.errors[0].reason).toMatch(/NodeBalancers/);
  });

  it('rejects a throttle outside 0..20; takes tags on create as later releases do; ignores and names unknown fields', async () => {
    for (const client_conn_throttle of [21, -1, 2.5]) {
      const r = await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-east', client_conn_throttle } });
      expect(r.status).toBe(400);
      expect(errorFields(r)).toEqual(['client_conn_throttle']);
    }
    const tagged = await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-east', tags: ['web', 'web'] } });
    expect(tagged.status).toBe(200);
    expect(tagged.body.tags).toEqual(['web']);
    expect(errorFields(await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-east', tags: ['x'] } }))).toEqual(['tags.0']);
    const unknown = await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-east', client_conn_throttle: 99, colour: 'red' } });
    expect(errorFields(unknown)).toEqual(['client_conn_throttle']);
    expect(unknown.headers['x-ignored-fields']).toBe('colour');
  });

  it('records nodebalancer_create as started, then finished', async () => {
    const nb = await createBalancer(svc);
    await call(svc, 'GET', `/nodebalancers/${nb.id}`);
    const events = balancerEvents(nb.id);
    expect(events.map((e) => [e.action, e.status])).toEqual([['nodebalancer_create', 'finished']]);
    expect(events[0]!.username).toBe('demo-owner');
    expect(events[0]!.entity).toEqual({ id: nb.id, label: nb.label, type: 'nodebalancer', url: `/v4/nodebalancers/${nb.id}` });
  });

  it('filters by label, region and tags, and pages', async () => {
    const label = uniqueLabel('filt');
    const nb = await createBalancer(svc, { region: 'ap-south', label });
    await call(svc, 'PUT', `/nodebalancers/${nb.id}`, { body: { tags: ['filter-me'] } });
    const byLabel = (await call(svc, 'GET', '/nodebalancers', { filter: { label } })).body;
    expect(byLabel.data.map((n: { id: number }) => n.id)).toEqual([nb.id]);
    const byRegion = (await call(svc, 'GET', '/nodebalancers', { filter: { region: 'ap-south' } })).body;
    expect(byRegion.data.every((n: { region: string }) => n.region === 'ap-south')).toBe(true);
    expect(byRegion.data.map((n: { id: number }) => n.id)).toContain(nb.id);
    const byTag = (await call(svc, 'GET', '/nodebalancers', { filter: { tags: 'filter-me' } })).body;
    expect(byTag.data.map((n: { id: number }) => n.id)).toEqual([nb.id]);
    expect((await call(svc, 'GET', '/nodebalancers', { filter: { hostname: 'x' } })).status).toBe(400);
    const paged = (await call(svc, 'GET', '/nodebalancers?page_size=25&page=1')).body;
    expect(paged).toMatchObject({ page: 1 });
    expect(paged.data.length).toBeLessThanOrEqual(25);
    expect((await call(svc, 'GET', '/nodebalancers?page_size=10')).status).toBe(400);
  });

  it('answers 404 for missing or malformed ids', async () => {
    expect((await call(svc, 'GET', '/nodebalancers/999999')).status).toBe(404);
    expect((await call(svc, 'GET', '/nodebalancers/abc')).status).toBe(404);
    expect((await call(svc, 'DELETE', '/nodebalancers/999999')).status).toBe(404);
  });
});

describe('load balancers: update and delete', () => {
  it('updates label, throttle and tags; ignores transfer; keeps the region', async () => {
    const nb = await createBalancer(svc, { region: 'us-east', label: uniqueLabel('upd') });
    const newLabel = uniqueLabel('renamed');
    const r = await call(svc, 'PUT', `/nodebalancers/${nb.id}`, {
      body: { label: newLabel, client_conn_throttle: 20, tags: ['blue', 'blue', 'green'], transfer: { total: 999 }, region: 'us-east', id: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: nb.id, label: newLabel, client_conn_throttle: 20, tags: ['blue', 'green'], transfer: { total: 0 }, region: 'us-east' });
    expect(svc.store.get('tag', 'green')).toBeTruthy();
    expect(balancerEvents(nb.id).map((e) => e.action)).toContain('nodebalancer_update');
    // the old label is free again
    await createBalancer(svc, { region: 'us-east', label: nb.label });
  });

  it('rejects a region change, a duplicate label and a throttle of 21', async () => {
    const taken = await createBalancer(svc, { region: 'us-east', label: uniqueLabel('taken') });
    const nb = await createBalancer(svc, { region: 'us-east' });
    const r = await call(svc, 'PUT', `/nodebalancers/${nb.id}`, { body: { region: 'eu-west', label: taken.label.toUpperCase(), client_conn_throttle: 21 } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['client_conn_throttle', 'label', 'region']);
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}`)).body).toEqual(nb);
    const configs = await call(svc, 'PUT', `/nodebalancers/${nb.id}`, { body: { configs: [] } });
    expect(errorFields(configs)).toEqual(['configs']);
  });

  it('deletes the balancer with its configs and nodes', async () => {
    const nb = await createBalancer(svc, {
      region: 'us-east',
      configs: [
        { port: 80, nodes: [{ address: '192.168.5.1', label: 'n-one' }] },
        { port: 81, nodes: [{ address: '192.168.5.2', label: 'n-two' }] },
      ],
    });
    const cfgIds = svc.store.all<ConfigRecord>('nb_config', String(nb.id)).map((c) => c.id);
    expect(cfgIds).toHaveLength(2);
    const del = await call(svc, 'DELETE', `/nodebalancers/${nb.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}/configs/${cfgIds[0]}`)).status).toBe(404);
    expect(svc.store.all('nb_config', String(nb.id))).toEqual([]);
    for (const id of cfgIds) expect(svc.store.all('nb_node', String(id))).toEqual([]);
    expect(balancerEvents(nb.id).map((e) => e.action)).toContain('nodebalancer_delete');
  });
});

describe('load balancer stats', () => {
  it('returns empty series for a balancer without configs', async () => {
    const nb = await createBalancer(svc);
    const r = await call(svc, 'GET', `/nodebalancers/${nb.id}/stats`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { connections: [], traffic: { in: [], out: [] } }, title: expect.stringContaining(`${nb.label} (${nb.id})`) });
  });

  it('returns a day of 5-minute points, stable between requests', async () => {
    const nb = await createBalancer(svc, { region: 'us-east', configs: [{ port: 80, nodes: [{ address: '192.168.7.7', label: 'stat-node' }] }] });
    svc.store.tx(() => {
      const row = svc.store.get<BalancerRecord>('nodebalancer', nb.id)!;
      svc.store.put('nodebalancer', nb.id, { ...row, created: '2020-01-01T00:00:00' });
    });
    const first = (await call(svc, 'GET', `/nodebalancers/${nb.id}/stats`)).body;
    const second = (await call(svc, 'GET', `/nodebalancers/${nb.id}/stats`)).body;
    const { connections, traffic } = first.data;
    expect(connections).toHaveLength(288);
    expect(traffic.in).toHaveLength(288);
    expect(traffic.out).toHaveLength(288);
    for (let i = 1; i < connections.length; i++) expect(connections[i][0] - connections[i - 1][0]).toBe(300_000);
    expect(Date.now() - connections[287][0]).toBeLessThan(300_000);
    const times = (series: number[][]) => series.map((p) => p[0]);
    expect(times(traffic.in)).toEqual(times(connections));
    expect(times(traffic.out)).toEqual(times(connections));
    expect(connections.every((p: number[]) => p[1]! > 0)).toBe(true);
    expect(new Set(connections.map((p: number[]) => p[1])).size).toBeGreaterThan(50);
    expect(traffic.out.every((p: number[], i: number) => p[1]! < traffic.in[i][1])).toBe(true);
    const earlier = new Map(connections.map((p: number[]) => [p[0], p[1]]));
    const shared = second.data.connections.filter((p: number[]) => earlier.has(p[0]));
    expect(shared.length).toBeGreaterThan(280);
    expect(shared.every((p: number[]) => earlier.get(p[0]) === p[1])).toBe(true);
    expect(first.title).toBe(`vmcloud.example - ${nb.label} (${nb.id}) - day (5 min avg)`);
  });

  it('starts a new balancer\'s series at its creation', async () => {
    const nb = await createBalancer(svc, { region: 'us-east', configs: [{ port: 80, nodes: [{ address: '192.168.7.8', label: 'new-node' }] }] });
    const points = (await call(svc, 'GET', `/nodebalancers/${nb.id}/stats`)).body.data.connections;
    expect(points.length).toBeLessThanOrEqual(1);
  });
});

describe('load balancer access', () => {
  it('enforces the seed\'s scopes', async () => {
    const nb = await createBalancer(svc, { region: 'us-east', configs: [{ port: 80, nodes: [{ address: '192.168.9.1', label: 'scope-node' }] }] });
    const cfg = svc.store.all<ConfigRecord>('nb_config', String(nb.id))[0]!;
    const node = svc.store.all<NodeRecord>('nb_node', String(cfg.id))[0]!;
    const readOnly = scopedToken(svc, 'nodebalancers:read_only');
    const other = scopedToken(svc, 'vms:read_write');
    expect((await call(svc, 'GET', '/nodebalancers', { token: readOnly })).status).toBe(200);
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}/stats`, { token: readOnly })).status).toBe(200);
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.id}/nodes`, { token: readOnly })).status).toBe(200);
    // viewing one node needs read_write per the seed
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.id}/nodes/${node.id}`, { token: readOnly })).status).toBe(403);
    expect((await call(svc, 'POST', '/nodebalancers', { token: readOnly, body: { region: 'us-east' } })).status).toBe(403);
    expect((await call(svc, 'PUT', `/nodebalancers/${nb.id}`, { token: readOnly, body: {} })).status).toBe(403);
    expect((await call(svc, 'POST', `/nodebalancers/${nb.id}/configs/${cfg.id}/rebuild`, { token: readOnly, body: {} })).status).toBe(403);
    expect((await call(svc, 'GET', '/nodebalancers', { token: other })).status).toBe(403);
    expect((await call(svc, 'GET', '/nodebalancers', { token: null })).status).toBe(401);
  });

  it('shows a restricted user only granted balancers and needs add_nodebalancers to create', async () => {
    const hidden = await createBalancer(svc, { region: 'us-east', configs: [{ port: 80, nodes: [{ address: '192.168.9.2', label: 'hid-node' }] }] });
    const hiddenCfg = svc.store.all<ConfigRecord>('nb_config', String(hidden.id))[0]!;
    setGrants(svc, () => {});
    expect((await call(svc, 'GET', '/nodebalancers', { token: RESTRICTED_TOKEN })).body).toMatchObject({ data: [], results: 0 });
    expect((await call(svc, 'GET', `/nodebalancers/${hidden.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'GET', `/nodebalancers/${hidden.id}/configs/${hiddenCfg.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'GET', `/nodebalancers/${hidden.id}/stats`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'POST', '/nodebalancers', { token: RESTRICTED_TOKEN, body: { region: 'us-east' } })).status).toBe(403);

    setGrants(svc, (g) => {
      g.global.add_nodebalancers = true;
      g.nodebalancer.push({ id: hidden.id, permissions: 'read_only' });
    });
    const mine = await call(svc, 'POST', '/nodebalancers', { token: RESTRICTED_TOKEN, body: { region: 'us-east' } });
    expect(mine.status).toBe(200);
    expect(restrictedGrants(svc).nodebalancer).toContainEqual({ id: mine.body.id, permissions: 'read_write' });
    const list = (await call(svc, 'GET', '/nodebalancers', { token: RESTRICTED_TOKEN })).body;
    expect(list.data.map((n: { id: number }) => n.id).sort()).toEqual([hidden.id, mine.body.id].sort());
    expect((await call(svc, 'PUT', `/nodebalancers/${mine.body.id}`, { token: RESTRICTED_TOKEN, body: { client_conn_throttle: 3 } })).status).toBe(200);

    // read-only grant: reads work, writes are 403, configs and nodes inherit it
    expect((await call(svc, 'GET', `/nodebalancers/${hidden.id}/configs/${hiddenCfg.id}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'PUT', `/nodebalancers/${hidden.id}`, { token: RESTRICTED_TOKEN, body: { client_conn_throttle: 1 } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/nodebalancers/${hidden.id}`, { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect((await call(svc, 'POST', `/nodebalancers/${hidden.id}/configs`, { token: RESTRICTED_TOKEN, body: { port: 81 } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/nodebalancers/${hidden.id}/configs/${hiddenCfg.id}`, { token: RESTRICTED_TOKEN })).status).toBe(403);
    const nodeCreate = await call(svc, 'POST', `/nodebalancers/${hidden.id}/configs/${hiddenCfg.id}/nodes`, {
      token: RESTRICTED_TOKEN,
      body: { address: '192.168.9.3', label: 'nope-node' },
    });
    expect(nodeCreate.status).toBe(403);

    // only unrestricted users change tags
    const tags = await call(svc, 'PUT', `/nodebalancers/${mine.body.id}`, { token: RESTRICTED_TOKEN, body: { tags: ['restricted-tag'] } });
    expect(tags.status).toBe(403);
    const taggedCreate = await call(svc, 'POST', '/nodebalancers', { token: RESTRICTED_TOKEN, body: { region: 'us-east', tags: ['restricted-tag'] } });
    expect(taggedCreate.status).toBe(403);
    expect(svc.store.get('tag', 'restricted-tag')).toBeUndefined();

    // deleting drops the creator's grant entry
    expect((await call(svc, 'DELETE', `/nodebalancers/${mine.body.id}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect(restrictedGrants(svc).nodebalancer.map((g) => g.id)).toEqual([hidden.id]);
  });
});

describe('load balancer persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vmtui-nb-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps balancers, configs and nodes across a restart', async () => {
    const data = join(dir, 'nb.sqlite');
    const first = await startTestService({ data });
    const nb = await createBalancer(first, { region: 'us-east', label: 'persist-lb' });
    const cfg = await createConfig(first, nb.id, { port: 8080, protocol: 'tcp', algorithm: 'source' });
    const node = await createNode(first, nb.id, cfg.id, { address: '192.168.44.4', label: 'persist-node', weight: 7 });
    await first.close();

    const second = await startTestService({ data });
    try {
      expect((await call(second, 'GET', `/nodebalancers/${nb.id}`)).body).toMatchObject({ label: 'persist-lb', ipv4: nb.ipv4 });
      expect((await call(second, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.id}`)).body).toEqual(cfg);
      expect((await call(second, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.id}/nodes/${node.id}`)).body).toEqual(node);
      const next = await createBalancer(second, { region: 'us-east' });
      expect(next.id).toBeGreaterThan(nb.id);
      expect(next.ipv4).not.toBe(nb.ipv4);
      expect((await call(second, 'POST', '/nodebalancers', { body: { region: 'us-east', label: 'PERSIST-lb' } })).status).toBe(400);
    } finally {
      await second.close();
    }
  });
});

describe('load balancer demo data', () => {
  function demoStore(): Store {
    const store = new Store(':memory:');
    store.tx(() => {
      seedReference(store);
      const vm = (id: number, label: string, status: string, region: string, tags: string[]) => {
        store.insert('vm', id, { id, label, status, region, tags });
        allocateIpv4(store, id, region, true);
        const address = `192.168.200.${id}`;
        store.insert('ip', address, { address, type: 'ipv4', public: false, vm_id: id, region }, { parent: String(id) });
      };
      vm(1, 'web-1', 'running', 'us-east', ['web']);
      vm(2, 'web-2', 'running', 'us-east', ['web']);
      vm(3, 'web-3', 'running', 'us-east', ['web']);
      vm(4, 'api-1', 'running', 'eu-central', ['api']);
      vm(5, 'api-2', 'running', 'eu-central', ['api']);
      vm(6, 'stage-db', 'offline', 'us-west', ['staging']);
      seedNodebalancersDemo(store, new Simulation(store, 'instant'));
    });
    return store;
  }

  it('builds three balancers in three regions over the instances\' private addresses', () => {
    const store = demoStore();
    const nbs = store.all<BalancerRecord>('nodebalancer');
    expect(nbs.map((n) => n.label)).toEqual(['web-lb', 'api-lb', 'staging-lb']);
    expect(new Set(nbs.map((n) => n.region)).size).toBe(3);
    const [web, api, staging] = nbs as [BalancerRecord, BalancerRecord, BalancerRecord];
    expect(web.region).toBe('us-east');

    const webConfigs = store.all<ConfigRecord>('nb_config', String(web.id));
    expect(webConfigs.map((c) => [c.port, c.protocol])).toEqual([
      [80, 'http'],
      [443, 'https'],
    ]);
    const https = presentConfig(store, webConfigs[1]!);
    expect(https).toMatchObject({ ssl_cert: '<REDACTED>', ssl_key: '<REDACTED>', ssl_commonname: 'www.example.com', nodes_status: { up: 3, down: 0 } });
    const webNodes = store.all<NodeRecord>('nb_node', String(webConfigs[0]!.id));
    expect(webNodes.map((n) => n.mode)).toEqual(['accept', 'drain', 'backup']);
    expect(webNodes.every((n) => nodeStatus(store, n.address) === 'UP')).toBe(true);

    const apiConfig = store.all<ConfigRecord>('nb_config', String(api.id))[0]!;
    expect(apiConfig).toMatchObject({ port: 8443, protocol: 'tcp', algorithm: 'leastconn' });
    expect(store.all<NodeRecord>('nb_node', String(apiConfig.id))).toHaveLength(3);

    const stagingConfig = store.all<ConfigRecord>('nb_config', String(staging.id))[0]!;
    const stagingNodes = store.all<NodeRecord>('nb_node', String(stagingConfig.id));
    expect(stagingNodes).toHaveLength(1);
    expect(nodeStatus(store, stagingNodes[0]!.address)).toBe('DOWN');
    store.close();
  });

  it('is deterministic', () => {
    const a = demoStore();
    const b = demoStore();
    // Each store seals with its own key: compare the private keys as they open.
    const dump = (s: Store) =>
      JSON.stringify([s.all('nodebalancer'), s.all<ConfigRecord>('nb_config').map((c) => openConfig(s, c)), s.all('nb_node')]);
    expect(dump(a)).toEqual(dump(b));
    a.close();
    b.close();
  });
});

describe('node status follows the instance', () => {
  it('is UP for a running instance, DOWN for an offline one, unknown otherwise', async () => {
    const up = addInstance(svc, 880001, 'running');
    const down = addInstance(svc, 880002, 'offline');
    const nb = await createBalancer(svc, {
      region: 'us-east',
      configs: [
        {
          port: 80,
          nodes: [
            { address: up, label: 'node-up' },
            { address: down, label: 'node-down' },
            { address: '10.9.9.9', label: 'node-unknown' },
          ],
        },
      ],
    });
    const cfg = (await call(svc, 'GET', `/nodebalancers/${nb.id}/configs`)).body.data[0];
    expect(cfg.nodes_status).toEqual({ up: 1, down: 1 });
    const nodes = (await call(svc, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.id}/nodes`)).body.data;
    expect(nodes.map((n: { status: string }) => n.status)).toEqual(['UP', 'DOWN', 'unknown']);
  });
});
