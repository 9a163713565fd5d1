import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService, type Reply } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { IGNORED_FIELDS_MAX } from '../../src/server/route.js';

/**
 * Clients built for later releases of the API (the provider's CLI and its
 * Python and TypeScript SDKs, brand word mapped to vm) send bodies 4.83.1
 * does not define in full. Their shapes are captured here; the tolerant
 * service (the default) takes them and names what it ignored, the strict one
 * (`serve --strict`) refuses them as 4.83.1 read to the letter.
 */

let tolerant: RunningService;
let strict: RunningService;
beforeAll(async () => {
  [tolerant, strict] = await Promise.all([startTestService({ seed: 'demo' }), startTestService({ seed: 'demo', strict: true })]);
});
afterAll(async () => {
  await Promise.all([tolerant.close(), strict.close()]);
});

const ignoredOf = (r: Reply) => {
  const header = r.headers['x-ignored-fields'];
  return typeof header === 'string' ? header.split(', ') : [];
};

const STRONG_PASS = 'c0rrect-Horse-battery-staple-91';
const ANYWHERE = { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] };

async function firstId(svc: RunningService, path: string, filter?: unknown): Promise<number> {
  const r = await call(svc, 'GET', path, { filter });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data[0].id;
}

/** An instance of the demo account, with its disks. */
async function runningVm(svc: RunningService): Promise<number> {
  return firstId(svc, '/vm/instances');
}

async function balancerConfig(svc: RunningService): Promise<{ nb: number; cfg: number }> {
  const nb = await firstId(svc, '/nodebalancers');
  return { nb, cfg: await firstId(svc, `/nodebalancers/${nb}/configs`) };
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

interface LaterCase {
  name: string;
  send: (svc: RunningService) => Promise<Sent>;
  /** What the tolerant service names in X-Ignored-Fields. */
  ignored: string[];
  /** What the strict service refuses (by error field); the ignored paths by default. */
  refused?: string[];
  /** What the tolerant service made of the body. */
  check?: (reply: Reply, svc: RunningService) => Promise<void> | void;
}

const cases: LaterCase[] = [
  {
    name: 'instances: create with interfaces, metadata, disk encryption and a placement group',
    send: async () => ({
      method: 'POST',
      path: '/vm/instances',
      body: {
        region: 'us-east',
        type: 'g6-standard-1',
        image: 'vm/debian12',
        label: 'later-sdk-vm',
        root_pass: STRONG_PASS,
        booted: true,
        interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'backend', ipam_address: '10.0.0.1/24' }],
        metadata: { user_data: 'I2Nsb3VkLWNvbmZpZwo=' },
        disk_encryption: 'enabled',
        placement_group: { id: 528 },
        firewall_id: null,
        authorized_keys: null,
      },
    }),
    ignored: ['interfaces', 'metadata', 'disk_encryption', 'placement_group', 'firewall_id', 'authorized_keys'],
    refused: ['interfaces', 'metadata', 'disk_encryption', 'placement_group', 'firewall_id', 'authorized_keys'],
    check: (r) => expect(r.body).toMatchObject({ label: 'later-sdk-vm', region: 'us-east', image: 'vm/debian12' }),
  },
  {
    name: 'instances: update with a later alert and a maintenance policy',
    send: async (svc) => ({
      method: 'PUT',
      path: `/vm/instances/${await runningVm(svc)}`,
      body: { watchdog_enabled: true, maintenance_policy: 'linode/migrate', alerts: { cpu: 90, system_memory: 90 } },
    }),
    ignored: ['maintenance_policy', 'alerts.system_memory'],
    check: (r) => expect(r.body.alerts.cpu).toBe(90),
  },
  {
    name: 'load balancers: create with a firewall, a UDP throttle and a node whose port comes apart',
    send: async () => ({
      method: 'POST',
      path: '/nodebalancers',
      body: {
        region: 'us-east',
        label: 'later-sdk-lb',
        client_conn_throttle: 0,
        client_udp_sess_throttle: 0,
        firewall_id: null,
        tags: ['later-web'],
        configs: [{ port: 8080, protocol: 'http', udp_check_port: 80, nodes: [{ address: '192.168.1.5', port: 8080, label: 'web-1', weight: 50, mode: 'accept' }] }],
      },
    }),
    ignored: ['client_udp_sess_throttle', 'firewall_id', 'configs.0.udp_check_port'],
    refused: ['client_udp_sess_throttle', 'firewall_id', 'configs.0.udp_check_port', 'configs.0.nodes.0.port', 'tags'],
    check: async (r, svc) => {
      expect(r.body.tags).toEqual(['later-web']);
      const cfg = await firstId(svc, `/nodebalancers/${r.body.id}/configs`);
      const nodes = await call(svc, 'GET', `/nodebalancers/${r.body.id}/configs/${cfg}/nodes`);
      expect(nodes.body.data.map((n: { address: string }) => n.address)).toEqual(['192.168.1.5:8080']);
    },
  },
  {
    name: 'load balancers: a config created with its nodes',
    send: async (svc) => ({
      method: 'POST',
      path: `/nodebalancers/${(await balancerConfig(svc)).nb}/configs`,
      body: {
        port: 8443,
        protocol: 'tcp',
        algorithm: 'leastconn',
        udp_session_timeout: 16,
        nodes: [
          { address: '192.168.10.7', port: 8443, label: 'tcp-a', weight: 10 },
          { address: '192.168.10.8:9443', label: 'tcp-b', mode: 'backup' },
        ],
      },
    }),
    ignored: ['udp_session_timeout'],
    refused: ['udp_session_timeout', 'nodes'],
    check: async (r, svc) => {
      const nodes = await call(svc, 'GET', `/nodebalancers/${r.body.nodebalancer_id}/configs/${r.body.id}/nodes`);
      expect(nodes.body.data.map((n: { address: string; label: string }) => `${n.label}@${n.address}`)).toEqual(['tcp-a@192.168.10.7:8443', 'tcp-b@192.168.10.8:9443']);
      expect(r.body).not.toHaveProperty('nodes');
    },
  },
  {
    name: 'load balancers: a node created with its port apart',
    send: async (svc) => {
      const { nb, cfg } = await balancerConfig(svc);
      return { method: 'POST', path: `/nodebalancers/${nb}/configs/${cfg}/nodes`, body: { address: '192.168.1.9', port: 81, label: 'later-node', mode: 'accept', weight: 5 } };
    },
    ignored: [],
    refused: ['port'],
    check: (r) => {
      expect(r.body.address).toBe('192.168.1.9:81');
      expect(r.body).not.toHaveProperty('port');
    },
  },
  {
    name: 'load balancers: a port beside an address with its own is ignored, never half-applied',
    send: async (svc) => {
      const { nb, cfg } = await balancerConfig(svc);
      return { method: 'POST', path: `/nodebalancers/${nb}/configs/${cfg}/nodes`, body: { address: '192.168.1.10:8081', port: 9000, label: 'own-port' } };
    },
    ignored: ['port'],
    check: (r) => expect(r.body.address).toBe('192.168.1.10:8081'),
  },
  {
    name: 'load balancers: a node updated with its port apart',
    send: async (svc) => {
      const { nb, cfg } = await balancerConfig(svc);
      const node = await firstId(svc, `/nodebalancers/${nb}/configs/${cfg}/nodes`);
      return { method: 'PUT', path: `/nodebalancers/${nb}/configs/${cfg}/nodes/${node}`, body: { address: '192.168.1.11', port: 8082, weight: 7 } };
    },
    ignored: [],
    refused: ['port'],
    check: (r) => expect(r.body).toMatchObject({ address: '192.168.1.11:8082', weight: 7 }),
  },
  {
    name: 'firewalls: create under the base root with policies and rule actions, labels and descriptions',
    send: async () => ({
      method: 'POST',
      path: '/v4/networking/firewalls',
      body: {
        label: 'later-sdk-fw',
        rules: {
          inbound_policy: 'DROP',
          outbound_policy: 'ACCEPT',
          inbound: [{ action: 'ACCEPT', protocol: 'TCP', ports: '22, 443', addresses: ANYWHERE, label: 'ssh-https', description: 'admin' }],
          outbound: [],
        },
        tags: [],
      },
    }),
    ignored: ['rules.inbound_policy', 'rules.outbound_policy', 'rules.inbound.0.action', 'rules.inbound.0.label', 'rules.inbound.0.description'],
    check: (r) => expect(r.body.rules).toEqual({ inbound: [{ protocol: 'TCP', ports: '22, 443', addresses: ANYWHERE }], outbound: [] }),
  },
  {
    name: 'firewalls: a ruleset replaced on the beta root with policies',
    send: async (svc) => ({
      method: 'PUT',
      path: `/v4beta/networking/firewalls/${await firstId(svc, '/v4beta/networking/firewalls')}/rules`,
      body: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: [{ action: 'DROP', protocol: 'TCP', ports: '80', addresses: ANYWHERE }], outbound: [] },
    }),
    // The policy and the DROP action would turn the rule inside out: ignored and reported, the rule kept as 4.83.1 reads it.
    ignored: ['inbound_policy', 'outbound_policy', 'inbound.0.action'],
    check: (r) => expect(r.body.inbound).toEqual([{ protocol: 'TCP', ports: '80', addresses: ANYWHERE }]),
  },
  {
    name: 'object storage: a bucket created with its endpoint fields sent as null',
    send: async (svc) => ({
      method: 'POST',
      path: '/object-storage/buckets',
      body: { cluster: (await call(svc, 'GET', '/object-storage/clusters')).body.data[0].id, label: 'later-sdk-bucket', acl: 'private', cors_enabled: false, s3_endpoint: null, endpoint_type: null },
    }),
    ignored: ['s3_endpoint', 'endpoint_type'],
    check: (r) => expect(r.body.label).toBe('later-sdk-bucket'),
  },
  {
    name: 'object storage: a key limited by region',
    send: async () => ({ method: 'POST', path: '/object-storage/keys', body: { label: 'later-sdk-key', regions: ['us-east'] } }),
    ignored: ['regions'],
    check: (r) => expect(r.body).toMatchObject({ label: 'later-sdk-key', limited: false }),
  },
  {
    name: 'tags: every list left empty sent as null',
    send: async (svc) => ({ method: 'POST', path: '/tags', body: { label: 'later-sdk-tag', vms: [await runningVm(svc)], nodebalancers: null, domains: null, volumes: null } }),
    ignored: ['nodebalancers', 'domains', 'volumes'],
    check: async (r, svc) => {
      expect(r.body).toEqual({ label: 'later-sdk-tag' });
      expect((await call(svc, 'GET', '/tags/later-sdk-tag')).body.results).toBe(1);
    },
  },
  {
    name: 'images: create with cloud-init and tags',
    send: async (svc) => {
      const vm = await runningVm(svc);
      const disks = (await call(svc, 'GET', `/vm/instances/${vm}/disks`)).body.data as { id: number; filesystem: string }[];
      const disk = disks.find((d) => d.filesystem === 'ext4')!.id;
      return { method: 'POST', path: '/images', body: { disk_id: disk, label: 'later-sdk-image', description: 'from a later SDK', cloud_init: true, tags: ['golden'] } };
    },
    ignored: ['cloud_init', 'tags'],
    check: (r) => expect(r.body).toMatchObject({ label: 'later-sdk-image', description: 'from a later SDK' }),
  },
  {
    name: 'scripts: create with the later fields a form sends empty',
    send: async () => ({
      method: 'POST',
      path: '/vm/stackscripts',
      body: { label: 'later-sdk-script', script: '#!/bin/bash\necho hi', images: ['vm/debian12'], is_public: false, rev_note: 'first', description: null, mine: true },
    }),
    ignored: ['description', 'mine'],
    check: (r) => expect(r.body).toMatchObject({ label: 'later-sdk-script', description: '' }),
  },
  {
    name: 'profile: update with the later authentication and phone fields',
    send: async () => ({ method: 'PUT', path: '/profile', body: { timezone: 'US/Eastern', email_notifications: true, verified_phone_number: null, preferred_editor: 'vim' } }),
    ignored: ['verified_phone_number', 'preferred_editor'],
    check: (r) => expect(r.body.timezone).toBe('US/Eastern'),
  },
  {
    name: 'managed: a contact whose secondary phone is null and a later field',
    send: async () => ({
      method: 'POST',
      path: '/managed/contacts',
      body: { name: 'Later Sdk', email: 'later@example.com', phone: { primary: '555-0100', secondary: null }, group: null, updated: null, notes: 'x' },
    }),
    // updated is a read-only field of 4.83.1: dropped in both modes, as ever.
    ignored: ['notes'],
    check: (r) => expect(r.body).toMatchObject({ name: 'Later Sdk', phone: { primary: '555-0100', secondary: null }, group: null }),
  },
  {
    name: 'addresses: an allocation with the later region and interface',
    send: async (svc) => ({ method: 'POST', path: '/networking/ips', body: { type: 'ipv4', public: true, vm_id: await runningVm(svc), region: 'us-east', interface_id: null } }),
    ignored: ['region', 'interface_id'],
    check: (r) => expect(r.body).toMatchObject({ type: 'ipv4', public: true }),
  },
];

describe('clients of later releases against the tolerant service (the default)', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const sent = await c.send(tolerant);
      const r = await call(tolerant, sent.method, sent.path, { body: sent.body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(ignoredOf(r).sort()).toEqual([...c.ignored].sort());
      await c.check?.(r, tolerant);
    });
  }

  it('still refuses what breaks a rule of the seed, naming what it ignored beside', async () => {
    const r = await call(tolerant, 'POST', '/v4/networking/firewalls', {
      body: { label: 'x', rules: { inbound_policy: 'DROP', inbound: [{ protocol: 'TCP', ports: '22' }] } },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['label', 'rules.inbound']);
    expect(ignoredOf(r)).toEqual(['rules.inbound_policy']);
  });

  it('keeps a config\'s device slots a rule: sdi is a 400, not an ignored field', async () => {
    const vm = await runningVm(tolerant);
    const r = await call(tolerant, 'POST', `/vm/instances/${vm}/configs`, { body: { label: 'later-cfg', devices: { sdi: null }, helpers: { network: true } } });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toContain('devices.sdi');
  });

  it('keeps an enum a rule, and a null for a required field a 400', async () => {
    const r = await call(tolerant, 'POST', '/tags', { body: { label: null } });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['label']);
    const acl = await call(tolerant, 'POST', '/object-storage/buckets', { body: { cluster: 'us-east-1', label: 'enum-bucket', acl: 'bucket-owner-full-control' } });
    expect(acl.status).toBe(400);
    expect(errorFields(acl)).toEqual(['acl']);
  });

  it('takes the scripts filter mine: the caller\'s own scripts, or the others', async () => {
    const all = (await call(tolerant, 'GET', '/vm/stackscripts')).body.data as { username: string }[];
    const mine = await call(tolerant, 'GET', '/vm/stackscripts', { filter: { mine: true } });
    expect(mine.status).toBe(200);
    const me = (await call(tolerant, 'GET', '/profile')).body.username;
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((s: { username: string }) => s.username === me)).toBe(true);
    const others = await call(tolerant, 'GET', '/vm/stackscripts', { filter: { mine: false } });
    expect(mine.body.results + others.body.results).toBe(all.length);
    expect((await call(tolerant, 'GET', '/vm/stackscripts', { filter: { mine: 'yes' } })).status).toBe(400);
    expect((await call(tolerant, 'GET', '/vm/stackscripts', { filter: { '+order_by': 'mine' } })).status).toBe(400);
    const anonymous = await call(tolerant, 'GET', '/vm/stackscripts', { token: null, filter: { mine: true } });
    expect(anonymous.body.results).toBe(0);
    // Other filter keys of later releases stay refused: the seed lists the filterable fields.
    expect((await call(tolerant, 'GET', '/vm/stackscripts', { filter: { is_mine: true } })).status).toBe(400);
  });

  it('reads the instance label rule exactly: a doubled separator is refused, two different ones are not', async () => {
    const vm = await runningVm(tolerant);
    const mixed = await call(tolerant, 'PUT', `/vm/instances/${vm}`, { body: { label: 'ab-_cd.-e' } });
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    for (const label of ['ab--cd', 'ab__cd', 'ab..cd']) {
      const r = await call(tolerant, 'PUT', `/vm/instances/${vm}`, { body: { label } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].reason).toMatch(/doubled/);
    }
    // The firewall label's "no two in a row" stays.
    expect(errorFields(await call(tolerant, 'POST', '/v4/networking/firewalls', { body: { label: 'ab-_cd', rules: { inbound: [{ protocol: 'ICMP', addresses: ANYWHERE }] } } }))).toEqual(['label']);
  });

  it('names at most a bounded number of fields, in printable text, whatever the keys', async () => {
    const body: Record<string, unknown> = { label: 'many-fields', 'wëird, key\n%': 1 };
    for (let i = 0; i < IGNORED_FIELDS_MAX + 10; i++) body[`extra_${i}`] = i;
    const r = await call(tolerant, 'POST', '/object-storage/keys', { body });
    expect(r.status).toBe(200);
    const named = ignoredOf(r);
    expect(named).toHaveLength(IGNORED_FIELDS_MAX + 1);
    expect(named[0]).toBe('w%C3%ABird%2C%20key%0A%25');
    expect(named.at(-1)).toBe('(11 more)');
    expect(r.headers['x-ignored-fields']).toMatch(/^[\x20-\x7e]+$/);
  });

  it('leaves a request it ignored nothing of without the header', async () => {
    const r = await call(tolerant, 'POST', '/object-storage/keys', { body: { label: 'plain-key' } });
    expect(r.status).toBe(200);
    expect(r.headers).not.toHaveProperty('x-ignored-fields');
  });
});

describe('the same clients against serve --strict', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const sent = await c.send(strict);
      const r = await call(strict, sent.method, sent.path, { body: sent.body });
      if (sent.path.startsWith('/v4/networking/firewalls')) {
        // 4.83.1 serves firewalls on the beta root only.
        expect(r.status).toBe(404);
        const beta = await call(strict, sent.method, sent.path.replace('/v4/', '/v4beta/'), { body: sent.body });
        expect(beta.status).toBe(400);
        expect(errorFields(beta).sort()).toEqual(expect.arrayContaining([...(c.refused ?? c.ignored)].sort()));
        return;
      }
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(errorFields(r)).toEqual(expect.arrayContaining(c.refused ?? c.ignored));
      expect(r.headers).not.toHaveProperty('x-ignored-fields');
    });
  }

  it('refuses the scripts filter mine', async () => {
    const r = await call(strict, 'GET', '/vm/stackscripts', { filter: { mine: true } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].reason).toMatch(/mine is not a filterable field/);
  });
});
