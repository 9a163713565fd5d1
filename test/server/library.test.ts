import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ControlError, startService } from '../../src/server/library.js';
import type { FaultRule, FaultRuleInput, Service } from '../../src/server/library-api.js';
import type { FaultRules, FaultSpec } from '../../src/server/faults.js';

/** `vmtui/service` as a test suite uses it, from the sources (test/e2e/consumer.test.ts runs the packed package). */

const api = async (svc: Service, path: string, init: RequestInit = {}, token = svc.token) => {
  const res = await fetch(svc.baseUrl + path, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('startService', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('serves a throwaway empty account on a loopback port, its tokens random', async () => {
    expect(svc.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
    expect(svc.betaUrl).toBe(svc.baseUrl.replace(/\/v4$/, '/v4beta'));
    expect(svc.token).toMatch(/^[0-9a-f]{64}$/);
    expect(svc.restrictedToken).toMatch(/^[0-9a-f]{64}$/);
    expect((await api(svc, '/vm/instances')).body.results).toBe(0);
    expect((await api(svc, '/regions')).body.results).toBeGreaterThan(0);
    expect((await api(svc, '/profile', {}, svc.restrictedToken)).body.restricted).toBe(true);
  });

  it('creates at once (instant), and its control calls answer what the control interface does', async () => {
    const made = await api(svc, '/vm/instances', { method: 'POST', body: JSON.stringify({ region: 'us-east', type: 'g6-nanode-1', label: 'lib-1' }) });
    // Provisioned at once: with no image to boot, it stands offline.
    expect((await api(svc, `/vm/instances/${made.body.id}`)).body.status).toBe('offline');
    expect(await svc.control.snapshot('one')).toEqual({ name: 'one', created: expect.any(String), size: expect.any(Number) });
    await api(svc, `/vm/instances/${made.body.id}`, { method: 'DELETE' });
    expect((await api(svc, '/vm/instances')).body.results).toBe(0);
    expect(await svc.control.restore('one')).toMatchObject({ name: 'one' });
    expect((await api(svc, '/vm/instances')).body.data.map((vm: { label: string }) => vm.label)).toEqual(['lib-1']);

    const before = Date.parse((await svc.control.advanceClock(0.001)).now);
    const after = await svc.control.advanceClock(3600);
    expect(Date.parse(after.now) - before).toBeGreaterThanOrEqual(3600_000);
    expect(after).toEqual({ now: expect.any(String), frozen: false, offset_seconds: expect.any(Number) });

    const rule = await svc.control.addFault({ method: 'GET', path: '/v4/regions', action: 'error', status: 503, reason: 'down for a test' });
    expect(rule).toMatchObject({ id: expect.any(Number), action: 'error', status: 503, active: true });
    expect(await api(svc, '/regions')).toMatchObject({ status: 503, body: { errors: [{ reason: 'down for a test' }] } });
    expect(await svc.control.clearFaults()).toBeUndefined();
    expect((await api(svc, '/regions')).status).toBe(200);

    expect(await svc.control.reset('empty')).toEqual({ seed: 'empty' });
    expect((await api(svc, '/vm/instances')).body.results).toBe(0);
  });

  it('makes isolated accounts on the same service', async () => {
    const other = await svc.control.createAccount({ seed: 'demo' });
    expect(other).toMatchObject({ id: expect.any(Number), primary: false, seed: 'demo', speed: 'instant', base_url: svc.baseUrl, beta_url: svc.betaUrl });
    const theirs = await api(svc, '/vm/instances', {}, other.token);
    expect(theirs.body.results).toBeGreaterThan(0);
    expect((await api(svc, '/vm/instances')).body.results).toBe(0);
  });

  it("turns the service's refusals into a ControlError with its status and errors, never the token", async () => {
    await svc.control.snapshot('taken');
    const taken = await svc.control.snapshot('taken').catch((err: unknown) => err);
    expect(taken).toBeInstanceOf(ControlError);
    expect(taken).toMatchObject({ name: 'ControlError', status: 409, errors: [{ reason: expect.any(String) }] });
    expect((taken as Error).message).toMatch(/^POST \/__control\/snapshots: HTTP 409: /);
    expect((taken as Error).message).not.toContain(svc.token);

    const bad = await svc.control.addFault({ path: 'no-slash', action: 'error' }).catch((err: unknown) => err);
    expect(bad).toMatchObject({ status: 400, errors: [{ field: 'path' }] });
    expect((bad as Error).message).toMatch(/path: /);
    await expect(svc.control.restore('../../etc')).rejects.toMatchObject({ status: 404 });
    await expect(svc.control.reset('full' as never)).rejects.toMatchObject({ status: 400, errors: [{ field: 'seed' }] });
  });
});

describe('startService options', () => {
  it('takes a token, the demo seed and realistic speed', async () => {
    const svc = await startService({ token: 'lib-test-token', seed: 'demo', speed: 'realistic' });
    try {
      expect(svc.token).toBe('lib-test-token');
      expect((await api(svc, '/vm/instances')).body.results).toBeGreaterThan(0);
      const made = await api(svc, '/vm/instances', { method: 'POST', body: JSON.stringify({ region: 'us-east', type: 'g6-nanode-1', label: 'slow-1' }) });
      expect(made.body.status).toBe('provisioning');
    } finally {
      await svc.close();
    }
  });

  it('keeps a data file (0600) that a later start opens with what it held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-lib-'));
    try {
      const data = join(dir, 'svc.sqlite');
      const first = await startService({ data });
      await api(first, '/tags', { method: 'POST', body: JSON.stringify({ label: 'kept' }) });
      await first.close();
      expect(statSync(data).mode & 0o777).toBe(0o600);
      const second = await startService({ data });
      expect((await api(second, '/tags')).body.data.map((t: { label: string }) => t.label)).toEqual(['kept']);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad options with a clear message, never echoing a token', async () => {
    await expect(startService({ seed: 'full' } as never)).rejects.toThrow('startService: seed must be empty or demo, not "full"');
    await expect(startService({ speed: 3 } as never)).rejects.toThrow('startService: speed must be instant or realistic, not number');
    await expect(startService({ sped: 'instant' } as never)).rejects.toThrow('startService: no option "sped" (it takes data, seed, speed, token, strict)');
    await expect(startService({ data: ' ' })).rejects.toThrow("data must name a file, or be ':memory:'");
    await expect(startService('x' as never)).rejects.toThrow('the options must be an object');
    await expect(startService({ token: 'has a space' })).rejects.toThrow(/^startService: token must be 1 to 256 printable characters without spaces$/);
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-lib-'));
    try {
      writeFileSync(join(dir, 'a-file'), '');
      await expect(startService({ data: join(dir, 'a-file', 'svc.sqlite') })).rejects.toThrow(/a-file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes: the port stops answering', async () => {
    const svc = await startService();
    await svc.close();
    await expect(fetch(svc.baseUrl + '/regions')).rejects.toThrow();
  });
});

// Checked by the typecheck: a field added to one side and not the other fails it.
describe('fault rules, as declared and as kept', () => {
  it("the service keeps the declared input (its defaults filled in) and answers the declared rule", () => {
    expectTypeOf<FaultSpec>().toExtend<FaultRuleInput>();
    expectTypeOf<FaultSpec['method']>().toEqualTypeOf<NonNullable<FaultRuleInput['method']>>();
    expectTypeOf<ReturnType<FaultRules['add']>>().toEqualTypeOf<FaultRule>();
  });
});
