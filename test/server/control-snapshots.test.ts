import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startService, type RunningService } from '../../src/server/service.js';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { createInstance } from './instances-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'vmtui-snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const control = (svc: RunningService, method: string, path: string, body?: unknown, token: string | null = OWNER_TOKEN) =>
  call(svc, method, `/__control${path}`, { body, token });
const instanceIds = async (svc: RunningService) => ((await call(svc, 'GET', '/vm/instances')).body.data as { id: number }[]).map((i) => i.id);

describe('snapshots: save, list, restore, delete', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it('answers only the control token', async () => {
    expect((await control(svc, 'GET', '/snapshots', undefined, null)).status).toBe(401);
    expect((await control(svc, 'GET', '/snapshots', undefined, RESTRICTED_TOKEN)).status).toBe(403);
    expect((await control(svc, 'POST', '/snapshots', { name: 'x' }, RESTRICTED_TOKEN)).status).toBe(403);
    expect((await control(svc, 'POST', '/reset', { seed: 'empty' }, 'nope')).status).toBe(403);
  });

  it('brings a deleted instance back, and a later one goes; the listing follows', async () => {
    const kept = await createInstance(svc, { label: 'kept-vm' });
    const saved = await control(svc, 'POST', '/snapshots', { name: 'before' });
    expect(saved).toMatchObject({ status: 200, body: { name: 'before', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/), size: expect.any(Number) } });
    expect((await control(svc, 'GET', '/snapshots')).body).toEqual({ data: [saved.body] });

    expect((await call(svc, 'DELETE', `/vm/instances/${kept.id}`)).status).toBe(200);
    const later = await createInstance(svc, { label: 'later-vm' });
    // The list page is cached: the restore must not leave the old page served.
    expect(await instanceIds(svc)).toEqual([later.id]);

    const restored = await control(svc, 'POST', '/snapshots/before/restore');
    expect(restored).toMatchObject({ status: 200, body: { name: 'before' } });
    expect(await instanceIds(svc)).toEqual([kept.id]);
    expect((await call(svc, 'GET', `/vm/instances/${kept.id}`)).body).toMatchObject({ label: 'kept-vm', status: 'running' });
    expect((await call(svc, 'GET', `/vm/instances/${later.id}`)).status).toBe(404);
    // The restored counters hand out ids again without a clash.
    expect((await createInstance(svc, { label: 'after-vm' })).id).toBeGreaterThan(kept.id);

    expect((await control(svc, 'DELETE', '/snapshots/before')).status).toBe(200);
    expect((await control(svc, 'GET', '/snapshots')).body).toEqual({ data: [] });
    expect((await control(svc, 'POST', '/snapshots/before/restore')).status).toBe(404);
  });

  it('tokens made after the snapshot stop working; the serve tokens keep working', async () => {
    await control(svc, 'POST', '/snapshots', { name: 'tokens' });
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'ci', scopes: '*' } });
    expect(made.status).toBe(200);
    const value = made.body.token as string;
    expect((await call(svc, 'GET', '/profile', { token: value })).status).toBe(200);

    expect((await control(svc, 'POST', '/snapshots/tokens/restore')).status).toBe(200);
    expect((await call(svc, 'GET', '/profile', { token: value })).status).toBe(401);
    expect((await call(svc, 'GET', '/profile')).status).toBe(200);
    expect((await call(svc, 'GET', '/profile', { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await control(svc, 'GET', '/snapshots')).status).toBe(200);
  });

  it('refuses bad names and a duplicate in the errors shape; unknown names are 404', async () => {
    for (const name of ['', 'a b', '../x', '-lead', 'x'.repeat(65), 7, null]) {
      const r = await control(svc, 'POST', '/snapshots', { name });
      expect(r.status).toBe(400);
      expect(errorFields(r)).toEqual(['name']);
    }
    expect(errorFields(await control(svc, 'POST', '/snapshots', {}))).toEqual(['name']);
    expect((await call(svc, 'POST', '/__control/snapshots', { raw: '[1]' })).status).toBe(400);
    await control(svc, 'POST', '/snapshots', { name: 'twice' });
    const dup = await control(svc, 'POST', '/snapshots', { name: 'twice' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0]).toMatchObject({ field: 'name', reason: expect.stringMatching(/delete it first/) });
    for (const [method, path] of [['DELETE', '/snapshots/nope'], ['POST', '/snapshots/nope/restore'], ['GET', '/snapshots/nope/export'], ['POST', '/snapshots/__proto__/restore']]) {
      const r = await control(svc, method!, path!);
      expect(r.status).toBe(404);
      expect(r.body.errors[0].reason).toMatch(/No snapshot named/);
    }
  });

  it("object data comes back as it was saved: an overwritten object's bytes", async () => {
    const B = '/object-storage/buckets';
    expect((await call(svc, 'POST', B, { body: { label: 'snap-bucket', cluster: 'us-east-1' } })).status).toBe(200);
    const objectUrl = async (method: 'GET' | 'PUT') =>
      (await call(svc, 'POST', `${B}/us-east-1/snap-bucket/object-url`, { body: { name: 'note.txt', method, ...(method === 'PUT' ? { content_type: 'text/plain' } : {}) } })).body.url as string;
    const put = async (text: string) => (await request(await objectUrl('PUT'), { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: text })).body.dump();
    const get = async () => {
      const res = await request(await objectUrl('GET'));
      return [res.statusCode, await res.body.text()];
    };
    await put('first');
    await control(svc, 'POST', '/snapshots', { name: 'objects' });
    await put('second, longer');
    expect(await get()).toEqual([200, 'second, longer']);
    expect((await control(svc, 'POST', '/snapshots/objects/restore')).status).toBe(200);
    expect(await get()).toEqual([200, 'first']);
  });

  it('reset starts the account over from a seed; the caller is not locked out', async () => {
    await createInstance(svc, { label: 'doomed' });
    expect(errorFields(await control(svc, 'POST', '/reset', { seed: 'other' }))).toEqual(['seed']);
    expect(errorFields(await control(svc, 'POST', '/reset'))).toEqual(['seed']);
    expect(await control(svc, 'POST', '/reset', { seed: 'empty' })).toMatchObject({ status: 200, body: { seed: 'empty' } });
    expect(await instanceIds(svc)).toEqual([]);
    expect((await call(svc, 'GET', '/profile')).body.username).toBe('demo-owner');
    expect(await control(svc, 'POST', '/reset', { seed: 'demo' })).toMatchObject({ status: 200 });
    expect((await instanceIds(svc)).length).toBeGreaterThan(0);
    expect((await call(svc, 'GET', '/profile', { token: RESTRICTED_TOKEN })).status).toBe(200);
    // Snapshots are not the account's state: a reset keeps them.
    expect((await control(svc, 'GET', '/snapshots')).body.data.map((s: { name: string }) => s.name)).toContain('twice');
  });
});

/** Moves the saved snapshots an hour into the past, their jobs' due times with them; the rows changed. */
const hourAgo = (svc: RunningService) =>
  svc.store.tx(() => {
    svc.store.db.prepare('UPDATE snapshots SET taken_ms = taken_ms - 3600000').run();
    return svc.store.db.prepare("UPDATE snapshot_rows SET ord = ord - 3600000000, data = json_set(data, '$.due', json_extract(data, '$.due') - 3600000) WHERE kind = 'job'").run().changes;
  });

describe('snapshots: pending jobs', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ speed: 'realistic' });
    svc.sim.stop();
  });
  afterAll(() => svc.close());

  it('a boot pending when saved is pending after restore, with the time it had left, and then completes', async () => {
    const vm = await createInstance(svc, { label: 'booting' });
    expect(vm.status).toBe('provisioning');
    await control(svc, 'POST', '/snapshots', { name: 'booting' });
    // The boot completes (time moved on), then the snapshot brings it back pending.
    svc.sim.advance(3600_000);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
    // As if it had been saved an hour ago: its jobs were due then, well before now.
    expect(hourAgo(svc)).toBeGreaterThan(0);
    expect((await control(svc, 'POST', '/snapshots/booting/restore')).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('provisioning');
    const jobs = svc.store.all<{ due: number }>('job');
    expect(jobs.length).toBeGreaterThan(0);
    expect(Math.min(...jobs.map((j) => j.due))).toBeGreaterThan(Date.now());
    svc.sim.advance(3600_000);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
  });
});

describe('snapshots: export', () => {
  it('exports a data file that serve --data opens as is: same data, tokens, and secrets that still open', async () => {
    const svc = await startTestService({ seed: 'demo' });
    let second: RunningService | undefined;
    try {
      const enable = await call(svc, 'POST', '/profile/tfa-enable');
      expect(enable.status).toBe(200);
      await control(svc, 'POST', '/snapshots', { name: 'fixture' });
      const res = await request(`${svc.origin}/__control/snapshots/fixture/export`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.sqlite3');
      expect(res.headers['content-disposition']).toBe('attachment; filename="fixture.sqlite"');
      const bytes = Buffer.from(await res.body.arrayBuffer());
      expect(bytes.subarray(0, 15).toString()).toBe('SQLite format 3');
      const file = join(dir, 'fixture.sqlite');
      writeFileSync(file, bytes);

      second = await startService({ data: file, speed: 'instant', port: 0, token: 'second-owner-token-0123456789abcdef' });
      const ids = async (s: RunningService, token: string) => (await call(s, 'GET', '/vm/instances', { token })).body.data.map((i: { id: number; label: string }) => [i.id, i.label]);
      expect(await ids(second, 'second-owner-token-0123456789abcdef')).toEqual(await ids(svc, OWNER_TOKEN));
      // The tokens saved in the snapshot work there too.
      expect((await call(second, 'GET', '/profile', { token: OWNER_TOKEN })).status).toBe(200);
      // The pending two-factor secret was sealed again under the key the file shipped with: it still opens.
      const confirmed = await call(second, 'POST', '/profile/tfa-enable-confirm', { token: OWNER_TOKEN, body: { tfa_code: authenticator.generate(enable.body.secret) } });
      expect(confirmed.status).toBe(200);
      // The key moved out of the data into the key file beside it.
      expect(existsSync(`${file}.key`)).toBe(true);
      expect(second.store.getMeta('seal.shipped_key')).toBeUndefined();
      expect(readFileSync(`${file}.key`, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
      // A stale key file beside a fresh copy of the export is named, not taken for the file's key.
      const stale = join(dir, 'stale.sqlite');
      writeFileSync(stale, bytes);
      writeFileSync(`${stale}.key`, `${'ab'.repeat(32)}\n`);
      await expect(startService({ data: stale, port: 0, token: OWNER_TOKEN })).rejects.toThrow(/is not the key of the exported file .*remove that key file/);
      // The export carries none of the exporting service's snapshots.
      expect((await call(second, 'GET', '/__control/snapshots', { token: 'second-owner-token-0123456789abcdef' })).body).toEqual({ data: [] });
    } finally {
      await second?.close();
      await svc.close();
    }
  });

  it('on a data file, snapshots outlive the process and a restore is seen by a second service on the file', async () => {
    const file = join(dir, 'shared.sqlite');
    const a = await startService({ data: file, seed: 'empty', speed: 'instant', port: 0, token: OWNER_TOKEN });
    let b: RunningService | undefined;
    try {
      const vm = await createInstance(a, { label: 'shared-vm' });
      await control(a, 'POST', '/snapshots', { name: 'one' });
      b = await startService({ data: file, speed: 'instant', port: 0 });
      expect(await instanceIds(b)).toEqual([vm.id]);
      await call(b, 'DELETE', `/vm/instances/${vm.id}`, { token: b.token });
      expect(await instanceIds(a)).toEqual([]);
      expect((await control(a, 'POST', '/snapshots/one/restore')).status).toBe(200);
      expect(await instanceIds(a)).toEqual([vm.id]);
      // b's generated tokens were carried over: it is not locked out of its own API.
      expect((await call(b, 'GET', '/vm/instances', { token: b.token })).body.data.map((i: { id: number }) => i.id)).toEqual([vm.id]);
      expect((await control(b, 'GET', '/snapshots', undefined, b.token)).body.data.map((s: { name: string }) => s.name)).toEqual(['one']);
    } finally {
      await b?.close();
      await a.close();
    }
    const again = await startService({ data: file, speed: 'instant', port: 0, token: OWNER_TOKEN });
    try {
      expect((await control(again, 'GET', '/snapshots')).body.data.map((s: { name: string }) => s.name)).toEqual(['one']);
    } finally {
      await again.close();
    }
  });
});
