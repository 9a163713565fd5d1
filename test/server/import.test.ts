import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { startRecordingProxy } from '../helpers/recording-proxy.js';
import { startService, type RunningService } from '../../src/server/service.js';
import { parseImportArgs, runImport } from '../../src/server/import/import-command.js';
import { UsageError } from '../../src/command-line.js';

/**
 * `vmtui import` against real services: a demo account read through the API
 * and served again from the file must answer every list as the source does.
 */

let source: RunningService;
let dir: string;
beforeAll(async () => {
  source = await startTestService({ seed: 'demo' });
  dir = mkdtempSync(join(tmpdir(), 'vmtui-import-'));
});
afterAll(async () => {
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
const newFile = () => join(dir, `import-${++files}.sqlite`);

async function runCaptured(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const write = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  try {
    const code = await runImport(args, {});
    return { code, out, err };
  } finally {
    [process.stdout.write, process.stderr.write] = write as [typeof process.stdout.write, typeof process.stderr.write];
  }
}

const ownerToken = (out: string) => /owner token \(scope \*\):\s+(\S+)/.exec(out)?.[1];

/** Every list the import reads, children under every parent the source has. */
async function everyList(svc: RunningService, token: string): Promise<string[]> {
  const ids = async (path: string, key = 'id') => ((await call(svc, 'GET', `${path}?page_size=100`, { token })).body.data as any[]).map((r) => r[key]);
  const paths = [
    '/profile', '/profile/grants', '/profile/preferences', '/profile/sshkeys', '/profile/apps', '/profile/devices', '/profile/logins',
    '/vm/instances', '/images', '/vm/stackscripts', '/nodebalancers', '/v4beta/networking/firewalls', '/networking/ips',
    '/networking/ipv6/pools', '/networking/ipv6/ranges', '/object-storage/buckets', '/object-storage/keys', '/tags', '/managed/contacts',
    '/managed/credentials', '/managed/services', '/managed/issues', '/managed/vm-settings', '/account/events',
  ];
  for (const vm of await ids('/vm/instances')) paths.push(`/vm/instances/${vm}/disks`, `/vm/instances/${vm}/configs`, `/vm/instances/${vm}/backups`);
  for (const nb of await ids('/nodebalancers')) {
    paths.push(`/nodebalancers/${nb}/configs`);
    for (const cfg of await ids(`/nodebalancers/${nb}/configs`)) paths.push(`/nodebalancers/${nb}/configs/${cfg}/nodes`);
  }
  for (const fw of await ids('/v4beta/networking/firewalls')) paths.push(`/v4beta/networking/firewalls/${fw}/devices`);
  for (const b of (await call(svc, 'GET', '/object-storage/buckets', { token })).body.data) paths.push(`/object-storage/buckets/${b.cluster}/${b.label}/object-list`);
  return paths;
}

/** What is documented as not copied: a TLS private key (shown redacted by the source, absent in the copy). */
const comparable = (path: string, body: any) => {
  if (!/\/nodebalancers\/\d+\/configs$/.test(path)) return body;
  return { ...body, data: body.data.map((c: any) => ({ ...c, ssl_key: null })) };
};

describe('vmtui import', () => {
  it('copies the demo account so that serve answers every list of it field by field as the source does', async () => {
    const file = newFile();
    const run = await runCaptured(['--from', source.baseUrl, '--token', OWNER_TOKEN, '--data', file]);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(/^instances 21\/21$/m);
    expect(run.err).toMatch(/^objects 174\/174$/m);
    expect(run.err).toContain('not copied: 1 TLS private keys of load balancer configs');
    const token = ownerToken(run.out)!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(`${file}.key`).mode & 0o777).toBe(0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const copy = await startService({ data: file, speed: 'instant', token, port: 0 });
    try {
      const paths = await everyList(source, OWNER_TOKEN);
      expect(paths.length).toBeGreaterThan(90);
      for (const path of paths) {
        const q = '?page_size=100';
        const [a, b] = await Promise.all([call(source, 'GET', path + q), call(copy, 'GET', path + q, { token })]);
        expect(b.status, path).toBe(a.status);
        expect(b.body, path).toEqual(comparable(path, a.body));
      }
      // The source's tokens, by their metadata; the copy adds the import's own, and none of the source's values works.
      const [a, b] = await Promise.all([call(source, 'GET', '/profile/tokens'), call(copy, 'GET', '/profile/tokens', { token })]);
      for (const t of a.body.data) expect(b.body.data).toContainEqual(t);
      expect((await call(copy, 'GET', '/profile', { token: OWNER_TOKEN })).status).toBe(401);
      // The account's clock is the source's; what is made next takes ids after the imported ones.
      const made = await call(copy, 'POST', '/vm/instances', { token, body: { region: 'us-east', type: 'g6-nanode-1', label: 'after-import' } });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body.id).toBe(41022);
      expect(made.body.ipv4[0]).not.toBe('45.79.0.2');
    } finally {
      await copy.close();
    }
  });

  it('sends GET only, and keeps or reports what a later release sends', async () => {
    const proxy = await startRecordingProxy(source.origin, {
      change: (path, body) => {
        if (path === '/v4/vm/instances') {
          body.data = body.data.map((vm: any, i: number) => ({ ...vm, disk_encryption: 'enabled', placement_group: null, ...(i === 0 ? { status: 'hibernating' } : {}) }));
        }
        if (path === '/v4/nodebalancers') body.data = body.data.map((nb: any) => ({ ...nb, client_udp_sess_throttle: 0, alerts: { cpu: 90 } }));
        return body;
      },
    });
    try {
      const file = newFile();
      const run = await runCaptured(['--from', proxy.base, '--token', OWNER_TOKEN, '--data', file]);
      expect(run.code, run.err).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(50);
      expect(proxy.seen.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(run.err).toContain('48 fields of a later release dropped: instances.*.disk_encryption (21), instances.*.placement_group (21), load_balancers.*.client_udp_sess_throttle (3), load_balancers.*.alerts (3)');
      expect(run.err).toContain(`1 values outside 4.83.1's enums kept as read: instances.*.status "hibernating" (1)`);
      const token = ownerToken(run.out)!;
      const copy = await startService({ data: file, speed: 'instant', token, port: 0 });
      try {
        const vms = (await call(copy, 'GET', '/vm/instances', { token })).body.data;
        expect(vms[0].status).toBe('hibernating');
        expect(vms[0]).not.toHaveProperty('disk_encryption');
      } finally {
        await copy.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('skips what a narrow token cannot read, naming the scope that would, and imports the rest', async () => {
    const made = await call(source, 'POST', '/profile/tokens', { body: { label: 'narrow', scopes: 'vms:read_only' } });
    expect(made.status).toBe(200);
    const run = await runCaptured(['--from', source.baseUrl, '--token', made.body.token, '--data', newFile()]);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(/^instances 21\/21$/m);
    expect(run.err).toMatch(/^skipped load balancers: the token lacks nodebalancers:read_only/m);
    expect(run.err).toMatch(/^skipped firewalls: the token lacks firewall:read_only/m);
    expect(run.err).toMatch(/^skipped events: the token lacks account:read_only/m);
    await call(source, 'DELETE', `/profile/tokens/${made.body.id}`);
  });

  it("imports a restricted user's view as that user, with its grants, and a new token for it", async () => {
    const file = newFile();
    const run = await runCaptured(['--from', source.baseUrl, '--token', RESTRICTED_TOKEN, '--data', file]);
    expect(run.code, run.err).toBe(0);
    const restricted = /restricted user token:\s+(\S+)/.exec(run.out)?.[1];
    expect(restricted).toMatch(/^[0-9a-f]{64}$/);
    const copy = await startService({ data: file, speed: 'instant', token: ownerToken(run.out)!, port: 0 });
    try {
      for (const path of ['/profile', '/profile/grants', '/vm/instances']) {
        const [a, b] = await Promise.all([call(source, 'GET', path, { token: RESTRICTED_TOKEN }), call(copy, 'GET', path, { token: restricted })]);
        expect(b.body, path).toEqual(a.body);
      }
    } finally {
      await copy.close();
    }
  });

  it('exits 1 when nothing can be read, and refuses to write over a file', async () => {
    const file = newFile();
    const bad = await runCaptured(['--from', source.baseUrl, '--token', 'not-a-token', '--data', file]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('nothing could be read');
    expect(bad.err).toMatch(/^skipped profile: HTTP 401/m);

    const taken = newFile();
    const first = await runCaptured(['--from', source.baseUrl, '--token', OWNER_TOKEN, '--data', taken]);
    expect(first.code).toBe(0);
    const again = await runCaptured(['--from', source.baseUrl, '--token', OWNER_TOKEN, '--data', taken]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('exists');
    const resumed = await runCaptured(['--from', source.baseUrl, '--token', OWNER_TOKEN, '--data', taken, '--resume']);
    expect(resumed.code).toBe(1);
    expect(resumed.err).toContain('is a finished import');
  });

  it('takes bad arguments as usage errors (exit 2)', () => {
    const env = {};
    expect(() => parseImportArgs(['--data', 'x'], env)).toThrow(UsageError);
    expect(() => parseImportArgs(['--from', 'http://h/api', '--token', 't', '--data', 'x'], env)).toThrow(/ending in \/v4/);
    expect(() => parseImportArgs(['--from', 'http://h/v4', '--data', 'x'], env)).toThrow(/--token/);
    expect(() => parseImportArgs(['--from', 'http://h/v4', '--token', 't', '--data', 'x', '--beta-url', 'http://other/v4beta'], env)).toThrow(/same host/);
    expect(() => parseImportArgs(['--from', 'http://h/v4', '--token', 't', '--data', 'x', '--objects', '-1'], env)).toThrow(/--objects/);
    expect(parseImportArgs(['--data', 'x'], { VM_API_URL: 'http://h/v4', VM_TOKEN: 't' })).toMatchObject({ base: 'http://h/v4', beta: 'http://h/v4beta', objects: 1000 });
  });

  it('resumes an interrupted import where it stopped, after waiting out a 429', async () => {
    let dropBalancers = true;
    let limited = 0;
    const proxy = await startRecordingProxy(source.origin, {
      fail: (path, res) => {
        if (path === '/v4/nodebalancers' && dropBalancers) {
          res.destroy();
          return true;
        }
        if (path === '/v4/tags' && limited++ === 0) {
          res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"errors":[{"reason":"slow down"}]}');
          return true;
        }
        return false;
      },
    });
    try {
      const file = newFile();
      const first = await runCaptured(['--from', proxy.base, '--token', OWNER_TOKEN, '--data', file]);
      expect(first.code, first.err).toBe(0);
      expect(first.out).toContain('run again with --resume');
      expect(first.err).toMatch(/^skipped load balancers: the answer to GET \/v4\/nodebalancers broke off|^skipped load balancers: cannot reach/m);
      expect(first.err).toContain('rate limited on /tags: waiting 1 s');
      expect(first.err).toMatch(/^tags 14\/14$/m);
      const refused = await runCaptured(['--from', proxy.base, '--token', OWNER_TOKEN, '--data', file]);
      expect(refused.code).toBe(1);

      dropBalancers = false;
      const before = proxy.seen.length;
      const second = await runCaptured(['--from', proxy.base, '--token', OWNER_TOKEN, '--data', file, '--resume']);
      expect(second.code, second.err).toBe(0);
      expect(second.out).not.toContain('--resume');
      const asked = proxy.seen.slice(before).map((r) => r.url.split('?')[0]);
      expect(asked).toContain('/v4/nodebalancers');
      // What the first run wrote is not read again.
      expect(asked).not.toContain('/v4/vm/instances');
      expect(asked).not.toContain('/v4/vm/instances/41001/disks');
      const token = ownerToken(second.out)!;
      const copy = await startService({ data: file, speed: 'instant', token, port: 0 });
      try {
        const [a, b] = await Promise.all([call(source, 'GET', '/nodebalancers'), call(copy, 'GET', '/nodebalancers', { token })]);
        expect(b.body).toEqual(a.body);
        expect((await call(copy, 'GET', '/vm/instances', { token })).body.results).toBe(21);
      } finally {
        await copy.close();
      }
      expect(existsSync(`${file}.key`)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('POST /__control/import reads an account into a new isolated account of a running service, answering as account creation does', async () => {
    const target = await startTestService();
    try {
      const r = await call(target, 'POST', '/__control/import', { body: { from: source.baseUrl, token: OWNER_TOKEN } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toEqual({
        id: 2,
        primary: false,
        seed: 'import',
        speed: 'instant',
        created: expect.any(String),
        token: expect.stringMatching(/^[0-9a-f]{64}$/),
        restricted_token: expect.stringMatching(/^[0-9a-f]{64}$/),
        base_url: target.baseUrl,
        beta_url: target.betaUrl,
      });
      const [a, b] = await Promise.all([call(source, 'GET', '/vm/instances'), call(target, 'GET', '/vm/instances', { token: r.body.token })]);
      expect(b.body).toEqual(a.body);
      // The primary account is untouched.
      expect((await call(target, 'GET', '/vm/instances')).body.results).toBe(0);

      expect((await call(target, 'POST', '/__control/import', { body: { from: 'file:///etc/passwd', token: 'x' } })).body.errors[0].field).toBe('from');
      expect((await call(target, 'POST', '/__control/import', { body: { from: source.baseUrl, token: 'x', extra: 1 } })).status).toBe(400);
      const nothing = await call(target, 'POST', '/__control/import', { body: { from: source.baseUrl, token: 'not-a-token' } });
      expect(nothing.status).toBe(400);
      expect(nothing.body.errors[0].reason).toContain('Nothing could be read');
      expect((await call(target, 'POST', '/__control/import', { token: r.body.token, body: { from: source.baseUrl, token: OWNER_TOKEN } })).status).toBe(403);
    } finally {
      await target.close();
    }
  });
});
