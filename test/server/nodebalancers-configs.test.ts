import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import type { AccountEvent } from '../../src/server/events.js';
import { DEMO_CERT, DEMO_KEY } from '../../src/server/seed/demo-nodebalancers.js';
import { call, errorFields, startTestService } from '../helpers/service.js';
import { addInstance, createBalancer, createConfig, createNode } from './nodebalancers-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const CONFIG_KEYS = [
  'algorithm',
  'check',
  'check_attempts',
  'check_body',
  'check_interval',
  'check_passive',
  'check_path',
  'check_timeout',
  'cipher_suite',
  'id',
  'nodebalancer_id',
  'nodes_status',
  'port',
  'protocol',
  'proxy_protocol',
  'ssl_cert',
  'ssl_commonname',
  'ssl_fingerprint',
  'ssl_key',
  'stickiness',
];

const OTHER_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const BROKEN_CERT = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';

const configsOf = (nbId: number) => `/nodebalancers/${nbId}/configs`;
const eventActions = (nbId: number) =>
  svc.store
    .all<AccountEvent>('event')
    .filter((e) => e.entity?.id === nbId)
    .map((e) => e.action);

async function freshBalancer(): Promise<number> {
  return (await createBalancer(svc)).id;
}

describe('configs', () => {
  it('creates a config with the defaults and the NBConfig shape', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId);
    expect(Object.keys(cfg).sort()).toEqual(CONFIG_KEYS);
    expect(cfg).toMatchObject({
      nodebalancer_id: nbId,
      port: 80,
      protocol: 'http',
      algorithm: 'roundrobin',
      stickiness: 'table',
      check: 'none',
      check_attempts: 3,
      check_interval: 5,
      check_timeout: 3,
      cipher_suite: 'recommended',
      proxy_protocol: 'none',
      ssl_cert: null,
      ssl_key: null,
      ssl_commonname: null,
      ssl_fingerprint: null,
      nodes_status: { up: 0, down: 0 },
    });
    const tcp = await createConfig(svc, nbId, { port: 22, protocol: 'tcp' });
    expect(tcp.stickiness).toBe('none');
    expect((await call(svc, 'GET', `${configsOf(nbId)}/${cfg.id}`)).body).toEqual(cfg);
    const list = (await call(svc, 'GET', configsOf(nbId))).body;
    expect(list).toMatchObject({ page: 1, pages: 1, results: 2 });
    expect(eventActions(nbId)).toContain('nodebalancer_config_create');
  });

  it('terminates https with a certificate shown as <REDACTED> and derived name and fingerprint', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId, { port: 443, protocol: 'https', ssl_cert: DEMO_CERT, ssl_key: DEMO_KEY, stickiness: 'http_cookie' });
    expect(cfg).toMatchObject({ ssl_cert: '<REDACTED>', ssl_key: '<REDACTED>', ssl_commonname: 'www.example.com', stickiness: 'http_cookie' });
    expect(cfg.ssl_fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(JSON.stringify((await call(svc, 'GET', configsOf(nbId))).body)).not.toContain('BEGIN');
  });

  it('keeps the stored certificate when a client echoes <REDACTED>, and drops it when leaving https', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId, { port: 443, protocol: 'https', ssl_cert: DEMO_CERT, ssl_key: DEMO_KEY });
    const echoed = await call(svc, 'PUT', `${configsOf(nbId)}/${cfg.id}`, { body: { ...cfg, algorithm: 'source' } });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ algorithm: 'source', ssl_cert: '<REDACTED>', ssl_commonname: 'www.example.com' });
    const plain = await call(svc, 'PUT', `${configsOf(nbId)}/${cfg.id}`, { body: { protocol: 'http' } });
    expect(plain.body).toMatchObject({ protocol: 'http', ssl_cert: null, ssl_key: null, ssl_commonname: null, ssl_fingerprint: null });
    expect(eventActions(nbId)).toContain('nodebalancer_config_update');
  });

  it('requires a valid, matching certificate and key for https', async () => {
    const nbId = await freshBalancer();
    const bare = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'https' } });
    expect(bare.status).toBe(400);
    expect(errorFields(bare).sort()).toEqual(['ssl_cert', 'ssl_key']);
    const broken = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'https', ssl_cert: BROKEN_CERT, ssl_key: DEMO_KEY } });
    expect(broken.body.errors).toEqual([{ field: 'ssl_cert', reason: 'ssl_cert is not a valid certificate' }]);
    const notPem = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'https', ssl_cert: 'hello', ssl_key: 'world' } });
    expect(errorFields(notPem).sort()).toEqual(['ssl_cert', 'ssl_key']);
    const mismatch = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'https', ssl_cert: DEMO_CERT, ssl_key: OTHER_KEY } });
    expect(mismatch.body.errors).toEqual([{ field: 'ssl_key', reason: 'ssl_key does not match ssl_cert' }]);
    expect((await call(svc, 'GET', configsOf(nbId))).body.results).toBe(0);
  });

  it('rejects a certificate or key with http and tcp', async () => {
    const nbId = await freshBalancer();
    const http = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'http', ssl_cert: DEMO_CERT } });
    expect(http.body.errors).toEqual([{ field: 'ssl_cert', reason: 'ssl_cert is not supported with protocol http' }]);
    const tcp = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'tcp', ssl_cert: DEMO_CERT, ssl_key: DEMO_KEY } });
    expect(errorFields(tcp).sort()).toEqual(['ssl_cert', 'ssl_key']);
    const nulls = await call(svc, 'POST', configsOf(nbId), { body: { protocol: 'tcp', ssl_cert: null, ssl_key: null } });
    expect(nulls.status).toBe(200);
  });

  it('enforces the field ranges, enums and cross-field rules', async () => {
    const nbId = await freshBalancer();
    const cases: [Record<string, unknown>, string][] = [
      [{ protocol: 'tcp', stickiness: 'http_cookie' }, 'stickiness'],
      [{ check_attempts: 31 }, 'check_attempts'],
      [{ check_attempts: 0 }, 'check_attempts'],
      [{ check_timeout: 31 }, 'check_timeout'],
      [{ check_interval: 3, check_timeout: 3 }, 'check_interval'],
      [{ check_interval: 1 }, 'check_interval'],
      [{ port: 0 }, 'port'],
      [{ port: 65536 }, 'port'],
      [{ protocol: 'udp' }, 'protocol'],
      [{ algorithm: 'random' }, 'algorithm'],
      [{ check: 'ping' }, 'check'],
      [{ cipher_suite: 'modern' }, 'cipher_suite'],
      [{ proxy_protocol: 'v3' }, 'proxy_protocol'],
      [{ check_path: '/has space' }, 'check_path'],
      [{ nodes: [] }, 'nodes'],
    ];
    for (const [body, field] of cases) {
      const r = await call(svc, 'POST', configsOf(nbId), { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(r), JSON.stringify(body)).toEqual([field]);
    }
    const ok = await createConfig(svc, nbId, { port: 8080, check: 'http_body', check_path: '/health?x=1', check_body: 'ok', check_interval: 31, check_timeout: 30, check_attempts: 30 });
    expect(ok).toMatchObject({ check: 'http_body', check_path: '/health?x=1', check_interval: 31 });
    const timeout = await call(svc, 'PUT', `${configsOf(nbId)}/${ok.id}`, { body: { check_timeout: 30, check_interval: 30 } });
    expect(errorFields(timeout)).toEqual(['check_interval']);
  });

  it('keeps ports unique among a balancer\'s configs', async () => {
    const nbId = await freshBalancer();
    const a = await createConfig(svc, nbId, { port: 80 });
    const b = await createConfig(svc, nbId, { port: 81 });
    const dup = await call(svc, 'POST', configsOf(nbId), { body: {} });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0]).toEqual({ field: 'port', reason: 'port 80 is already configured on this load balancer' });
    expect(errorFields(await call(svc, 'PUT', `${configsOf(nbId)}/${b.id}`, { body: { port: 80 } }))).toEqual(['port']);
    expect((await call(svc, 'PUT', `${configsOf(nbId)}/${a.id}`, { body: { port: 80, algorithm: 'leastconn' } })).status).toBe(200);
    // another balancer may use the same port
    await createConfig(svc, await freshBalancer(), { port: 80 });
  });

  it('deletes a config with its nodes', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId);
    const node = await createNode(svc, nbId, cfg.id, { address: '192.168.1.1', label: 'gone-soon' });
    const del = await call(svc, 'DELETE', `${configsOf(nbId)}/${cfg.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await call(svc, 'GET', `${configsOf(nbId)}/${cfg.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', `${configsOf(nbId)}/${cfg.id}/nodes/${node.id}`)).status).toBe(404);
    expect(svc.store.get('nb_node', node.id)).toBeUndefined();
    expect(eventActions(nbId)).toContain('nodebalancer_config_delete');
  });

  it('answers 404 for a config of another balancer', async () => {
    const a = await freshBalancer();
    const b = await freshBalancer();
    const cfg = await createConfig(svc, a);
    expect((await call(svc, 'GET', `${configsOf(b)}/${cfg.id}`)).status).toBe(404);
    expect((await call(svc, 'PUT', `${configsOf(b)}/${cfg.id}`, { body: {} })).status).toBe(404);
    expect((await call(svc, 'GET', `${configsOf(a)}/999999`)).status).toBe(404);
  });
});

describe('nodes', () => {
  it('creates, views, updates and deletes a node', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId, { port: 8080 });
    const nodes = `${configsOf(nbId)}/${cfg.id}/nodes`;
    const node = await createNode(svc, nbId, cfg.id, { address: '192.168.2.10', label: 'app.node_1' });
    expect(node).toEqual({ id: node.id, address: '192.168.2.10:8080', label: 'app.node_1', status: 'unknown', weight: 50, mode: 'accept', config_id: cfg.id, nodebalancer_id: nbId });
    expect((await call(svc, 'GET', `${nodes}/${node.id}`)).body).toEqual(node);
    const upd = await call(svc, 'PUT', `${nodes}/${node.id}`, { body: { mode: 'drain', weight: 255, address: '10.1.2.3:9000' } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ mode: 'drain', weight: 255, address: '10.1.2.3:9000', label: 'app.node_1' });
    const list = (await call(svc, 'GET', nodes)).body;
    expect(list).toMatchObject({ results: 1, data: [upd.body] });
    expect((await call(svc, 'DELETE', `${nodes}/${node.id}`)).body).toEqual({});
    expect((await call(svc, 'GET', `${nodes}/${node.id}`)).status).toBe(404);
    expect(eventActions(nbId)).toEqual(expect.arrayContaining(['nodebalancer_node_create', 'nodebalancer_node_update', 'nodebalancer_node_delete']));
  });

  it('enforces the node rules', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId);
    const nodes = `${configsOf(nbId)}/${cfg.id}/nodes`;
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['address', 'label']],
      [{ address: '45.79.10.10', label: 'public' }, ['address']],
      [{ address: '8.8.8.8:80', label: 'public' }, ['address']],
      [{ address: '192.168.1.1:70000', label: 'badport' }, ['address']],
      [{ address: 'not-an-ip', label: 'junk' }, ['address']],
      [{ address: '192.168.1.1', label: 'ab' }, ['label']],
      [{ address: '192.168.1.1', label: 'bad label' }, ['label']],
      [{ address: '192.168.1.1', label: 'weight0', weight: 0 }, ['weight']],
      [{ address: '192.168.1.1', label: 'weight256', weight: 256 }, ['weight']],
      [{ address: '192.168.1.1', label: 'badmode', mode: 'primary' }, ['mode']],
      [{ address: '192.168.1.1', label: 'ro-status', status: 'UP', id: 5 }, []],
    ];
    for (const [body, fields] of cases) {
      const r = await call(svc, 'POST', nodes, { body });
      if (fields.length === 0) {
        expect(r.status).toBe(200);
        expect(r.body.status).toBe('unknown');
        continue;
      }
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(r).sort(), JSON.stringify(body)).toEqual(fields);
    }
    const node = (await call(svc, 'GET', nodes)).body.data[0];
    expect(errorFields(await call(svc, 'PUT', `${nodes}/${node.id}`, { body: { weight: 0, address: '1.1.1.1' } })).sort()).toEqual(['address', 'weight']);
  });

  it('answers 404 for a node of another config', async () => {
    const nbId = await freshBalancer();
    const a = await createConfig(svc, nbId, { port: 1 });
    const b = await createConfig(svc, nbId, { port: 2 });
    const node = await createNode(svc, nbId, a.id, { address: '192.168.3.3', label: 'mine' });
    expect((await call(svc, 'GET', `${configsOf(nbId)}/${b.id}/nodes/${node.id}`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `${configsOf(nbId)}/${b.id}/nodes/${node.id}`)).status).toBe(404);
  });

  it('counts UP and DOWN nodes in nodes_status', async () => {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId);
    await createNode(svc, nbId, cfg.id, { address: addInstance(svc, 770001, 'running'), label: 'up-one' });
    await createNode(svc, nbId, cfg.id, { address: addInstance(svc, 770002, 'running'), label: 'up-two' });
    await createNode(svc, nbId, cfg.id, { address: addInstance(svc, 770003, 'offline'), label: 'down-one' });
    expect((await call(svc, 'GET', `${configsOf(nbId)}/${cfg.id}`)).body.nodes_status).toEqual({ up: 2, down: 1 });
  });
});

describe('config rebuild', () => {
  async function setUp() {
    const nbId = await freshBalancer();
    const cfg = await createConfig(svc, nbId, { port: 80 });
    const other = await createConfig(svc, nbId, { port: 443, protocol: 'tcp' });
    const base = `${configsOf(nbId)}/${cfg.id}`;
    const keep = await createNode(svc, nbId, cfg.id, { address: '192.168.20.1', label: 'keep-me' });
    const drop = await createNode(svc, nbId, cfg.id, { address: '192.168.20.2', label: 'drop-me' });
    const foreign = await createNode(svc, nbId, other.id, { address: '192.168.20.3', label: 'foreign' });
    return { nbId, cfg, other, base, keep, drop, foreign };
  }

  const snapshot = async (base: string) => ({ cfg: (await call(svc, 'GET', base)).body, nodes: (await call(svc, 'GET', `${base}/nodes`)).body });

  it('updates listed nodes, creates new ones, deletes the rest, and returns the balancer', async () => {
    const { nbId, base, keep, drop } = await setUp();
    const r = await call(svc, 'POST', `${base}/rebuild`, {
      body: {
        configs: [
          {
            port: 8080,
            algorithm: 'source',
            nodes: [
              { id: keep.id, weight: 10, mode: 'backup' },
              { address: '192.168.20.9', label: 'brand-new' },
            ],
          },
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: nbId, hostname: expect.any(String), ipv4: expect.any(String) });
    expect(r.body).not.toHaveProperty('port');
    const after = await snapshot(base);
    expect(after.cfg).toMatchObject({ port: 8080, algorithm: 'source', protocol: 'http' });
    expect(after.nodes.data).toEqual([
      { ...keep, weight: 10, mode: 'backup' },
      expect.objectContaining({ address: '192.168.20.9:8080', label: 'brand-new', mode: 'accept', weight: 50 }),
    ]);
    expect(svc.store.get('nb_node', drop.id)).toBeUndefined();
    expect(eventActions(nbId)).toContain('nodebalancer_config_update');
  });

  it('changes nothing when any part is invalid, and reports every problem', async () => {
    const { base, keep, foreign } = await setUp();
    const before = await snapshot(base);
    const r = await call(svc, 'POST', `${base}/rebuild`, {
      body: {
        configs: [
          {
            port: 443,
            algorithm: 'source',
            nodes: [{ id: keep.id, weight: 0 }, { id: foreign.id }, { label: 'no-address' }, { address: '8.8.4.4', label: 'public' }],
          },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(
      ['configs.0.nodes.0.weight', 'configs.0.nodes.1.id', 'configs.0.nodes.2.address', 'configs.0.nodes.3.address', 'configs.0.port'].sort(),
    );
    expect(await snapshot(base)).toEqual(before);
  });

  it('needs exactly one config with at least one node', async () => {
    const { base, keep } = await setUp();
    const before = await snapshot(base);
    const cases: [unknown, string[]][] = [
      [{}, ['configs']],
      [{ configs: [] }, ['configs']],
      [{ configs: [{ port: 80 }] }, ['configs.0.nodes']],
      [{ configs: [{ nodes: [] }] }, ['configs.0.nodes']],
      [{ configs: [{ nodes: [{ id: keep.id }] }, { nodes: [{ id: keep.id }] }] }, ['configs']],
      [{ configs: [{ nodes: [{ id: keep.id }, { id: keep.id }] }] }, ['configs.0.nodes.1.id']],
      [{ configs: [{ protocol: 'https', nodes: [{ id: keep.id }] }] }, ['configs.0.ssl_cert', 'configs.0.ssl_key']],
    ];
    for (const [body, fields] of cases) {
      const r = await call(svc, 'POST', `${base}/rebuild`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(r).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect(await snapshot(base)).toEqual(before);
  });

  it('switches a config to https with a certificate', async () => {
    const { base, keep } = await setUp();
    const r = await call(svc, 'POST', `${base}/rebuild`, {
      body: { configs: [{ port: 8443, protocol: 'https', ssl_cert: DEMO_CERT, ssl_key: DEMO_KEY, nodes: [{ id: keep.id }] }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await call(svc, 'GET', base)).body).toMatchObject({ protocol: 'https', ssl_cert: '<REDACTED>', ssl_commonname: 'www.example.com' });
  });
});
