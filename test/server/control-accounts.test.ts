import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { createInstance } from './instances-fixtures.js';
import { ACCOUNTS_MAX } from '../../src/server/accounts.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

interface Made {
  id: number;
  token: string;
  restricted_token: string;
}

const make = async (body: unknown = { seed: 'empty' }): Promise<Made> => {
  const r = await call(svc, 'POST', '/__control/accounts', { body });
  expect(r.status).toBe(200);
  return r.body as Made;
};
const remove = (id: number) => call(svc, 'DELETE', `/__control/accounts/${id}`);
const listed = async () => ((await call(svc, 'GET', '/__control/accounts')).body.data as { id: number }[]).map((a) => a.id);
const tagsOf = async (token: string) => ((await call(svc, 'GET', '/tags', { token })).body.data as { label: string }[]).map((t) => t.label);
const tag = (token: string, label: string) => call(svc, 'POST', '/tags', { token, body: { label } });

const poll = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
  expect(await check()).toBe(true);
};

describe('accounts: made, listed and removed by the primary owner', () => {
  it('makes an empty and a demo account, each with its own owner and restricted tokens, shown once', async () => {
    const empty = await call(svc, 'POST', '/__control/accounts', { body: { seed: 'empty' } });
    expect(empty.body).toEqual({
      id: expect.any(Number),
      primary: false,
      seed: 'empty',
      speed: 'instant',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      restricted_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      base_url: `${svc.origin}/v4`,
      beta_url: `${svc.origin}/v4beta`,
    });
    const demo = (await call(svc, 'POST', '/__control/accounts', { body: { seed: 'demo', speed: 'realistic' } })).body;
    expect(demo).toMatchObject({ seed: 'demo', speed: 'realistic' });
    expect(new Set([empty.body.token, empty.body.restricted_token, demo.token, demo.restricted_token, OWNER_TOKEN]).size).toBe(5);

    expect((await call(svc, 'GET', '/vm/instances', { token: empty.body.token })).body.results).toBe(0);
    expect((await call(svc, 'GET', '/vm/instances', { token: demo.token })).body.results).toBeGreaterThan(0);
    expect((await call(svc, 'GET', '/vm/instances')).body.results).toBe(0);
    expect((await call(svc, 'GET', '/profile', { token: demo.restricted_token })).body).toMatchObject({ restricted: true });
    // The demo's restricted user sees what its grants name, of the demo account.
    const granted = (await call(svc, 'GET', '/vm/instances', { token: demo.restricted_token })).body.results;
    expect(granted).toBeGreaterThan(0);
    expect(granted).toBeLessThan((await call(svc, 'GET', '/vm/instances', { token: demo.token })).body.results);

    const list = await call(svc, 'GET', '/__control/accounts');
    expect(list.body.data.slice(0, 1)).toEqual([expect.objectContaining({ id: 1, primary: true, seed: 'empty' })]);
    expect(list.body.data.map((a: { id: number }) => a.id)).toEqual(expect.arrayContaining([empty.body.id, demo.id]));
    const text = JSON.stringify(list.body);
    for (const secret of [empty.body.token, empty.body.restricted_token, demo.token, demo.restricted_token, OWNER_TOKEN]) expect(text).not.toContain(secret);
    const one = await call(svc, 'GET', `/__control/accounts/${demo.id}`);
    expect(one.body).toEqual(list.body.data.find((a: { id: number }) => a.id === demo.id));
    expect(JSON.stringify(one.body)).not.toContain(demo.token);

    for (const id of [empty.body.id, demo.id]) expect((await remove(id)).status).toBe(200);
  });

  it('answers the primary owner only: not another account’s owner, nor a restricted user', async () => {
    const a = await make();
    expect((await call(svc, 'GET', '/__control/accounts', { token: null })).status).toBe(401);
    expect((await call(svc, 'GET', '/__control/accounts', { token: RESTRICTED_TOKEN })).status).toBe(403);
    const other = await call(svc, 'POST', '/__control/accounts', { token: a.token, body: { seed: 'empty' } });
    expect(other).toMatchObject({ status: 403, body: { errors: [{ reason: expect.stringContaining('primary account') }] } });
    expect((await call(svc, 'DELETE', `/__control/accounts/${a.id}`, { token: a.token })).status).toBe(403);
    expect((await call(svc, 'GET', '/__control/accounts', { token: a.restricted_token })).status).toBe(403);
    // The account's owner still controls its own account.
    expect((await call(svc, 'GET', '/__control/clock', { token: a.token })).status).toBe(200);
    expect((await call(svc, 'GET', '/__control/clock', { token: a.restricted_token })).status).toBe(403);
    expect(await listed()).toContain(a.id);
    await remove(a.id);
  });

  it('refuses bad bodies and ids in the errors shape, and keeps the primary', async () => {
    const before = await listed();
    expect(errorFields(await call(svc, 'POST', '/__control/accounts', { body: {} }))).toEqual(['seed']);
    expect(errorFields(await call(svc, 'POST', '/__control/accounts'))).toEqual(['seed']);
    expect(errorFields(await call(svc, 'POST', '/__control/accounts', { body: { seed: 'full' } }))).toEqual(['seed']);
    expect(errorFields(await call(svc, 'POST', '/__control/accounts', { body: { seed: 'empty', speed: 'warp' } }))).toEqual(['speed']);
    for (const raw of ['[1]', '"empty"', 'not json', '{"seed": "empty", "__proto__": {"seed": "demo"}}']) {
      const r = await call(svc, 'POST', '/__control/accounts', { raw });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errors: [expect.objectContaining({ reason: expect.any(String) })] });
    }
    expect(await listed()).toEqual(before);
    for (const id of ['99999', 'abc', '1e3', '__proto__']) expect((await call(svc, 'DELETE', `/__control/accounts/${id}`)).status).toBe(404);
    expect((await call(svc, 'GET', '/__control/accounts/99999')).status).toBe(404);
    const primary = await remove(1);
    expect(primary).toMatchObject({ status: 400, body: { errors: [{ reason: expect.stringContaining('primary account') }] } });
    expect((await call(svc, 'GET', '/tags')).status).toBe(200);
  });

  it(`holds at most ${ACCOUNTS_MAX} accounts besides the primary, and makes room when one goes`, { timeout: 120_000 }, async () => {
    const made: Made[] = [];
    while (made.length < ACCOUNTS_MAX) {
      const batch = Math.min(20, ACCOUNTS_MAX - made.length);
      made.push(...(await Promise.all(Array.from({ length: batch }, () => make()))));
    }
    const over = await call(svc, 'POST', '/__control/accounts', { body: { seed: 'empty' } });
    expect(over).toMatchObject({ status: 400, body: { errors: [{ reason: expect.stringContaining(`${ACCOUNTS_MAX} accounts`) }] } });
    // Every one of them answers its own token, the last as the first.
    expect(await tag(made[0]!.token, 'first')).toMatchObject({ status: 200 });
    expect(await tagsOf(made.at(-1)!.token)).toEqual([]);
    expect((await remove(made[0]!.id)).status).toBe(200);
    made.shift();
    made.push(await make());
    for (const a of made) expect((await remove(a.id)).status).toBe(200);
    expect(await listed()).toEqual([1]);
  });
});

describe('accounts: each sees only its own', () => {
  it('lists, ids and events: what one account makes the others never see', async () => {
    const a = await make();
    const b = await make();
    const vm = await createInstance(svc, { label: 'only-in-a' }, a.token);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`, { token: a.token })).status).toBe(200);
    for (const token of [b.token, OWNER_TOKEN]) {
      expect((await call(svc, 'GET', '/vm/instances', { token })).body.results).toBe(0);
      expect((await call(svc, 'GET', `/vm/instances/${vm.id}`, { token })).status).toBe(404);
      expect((await call(svc, 'DELETE', `/vm/instances/${vm.id}`, { token })).status).toBe(404);
    }
    const eventsOf = async (token: string) => ((await call(svc, 'GET', '/account/events', { token })).body.data as { entity: { label: string } | null }[]).map((e) => e.entity?.label);
    expect(await eventsOf(a.token)).toContain('only-in-a');
    expect(await eventsOf(b.token)).not.toContain('only-in-a');
    expect(await eventsOf(OWNER_TOKEN)).not.toContain('only-in-a');
    // The same label is free in each account, and ids are counted per account.
    const inB = await createInstance(svc, { label: 'only-in-a' }, b.token);
    expect(inB).toMatchObject({ id: vm.id, label: 'only-in-a' });
    // The provider's side acts on the calling owner's account only.
    expect((await call(svc, 'POST', `/__control/vm/instances/${vm.id}/status`, { token: a.token, body: { status: 'stopped' } })).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`, { token: a.token })).body.status).toBe('stopped');
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`, { token: b.token })).body.status).not.toBe('stopped');
    expect((await call(svc, 'POST', `/__control/vm/instances/${vm.id}/status`, { body: { status: 'stopped' } })).status).toBe(404);
    await remove(a.id);
    await remove(b.id);
  });

  it('a token made inside an account works there only; revoked, restored away or reset away, it stops at once', async () => {
    const a = await make();
    const b = await make();
    await tag(a.token, 'a-tag');
    await tag(b.token, 'b-tag');
    const made = await call(svc, 'POST', '/profile/tokens', { token: a.token, body: { label: 'ci' } });
    expect(made.status).toBe(200);
    const inner: string = made.body.token;
    expect(await tagsOf(inner)).toEqual(['a-tag']);
    expect((await call(svc, 'GET', '/profile/tokens', { token: b.token })).body.data.map((t: { label: string }) => t.label)).not.toContain('ci');
    expect((await call(svc, 'DELETE', `/profile/tokens/${made.body.id}`, { token: a.token })).status).toBe(200);
    expect(await call(svc, 'GET', '/tags', { token: inner })).toMatchObject({ status: 401, body: { errors: [{ reason: 'Invalid Token' }] } });

    // A snapshot taken before a token was made: restoring it takes the token away, the account's own tokens stay.
    expect((await call(svc, 'POST', '/__control/snapshots', { token: a.token, body: { name: 'clean' } })).status).toBe(200);
    const later: string = (await call(svc, 'POST', '/profile/tokens', { token: a.token, body: { label: 'later' } })).body.token;
    expect((await call(svc, 'GET', '/tags', { token: later })).status).toBe(200);
    expect((await call(svc, 'POST', '/__control/snapshots/clean/restore', { token: a.token })).status).toBe(200);
    expect((await call(svc, 'GET', '/tags', { token: later })).status).toBe(401);
    expect(await tagsOf(a.token)).toEqual(['a-tag']);
    expect((await call(svc, 'GET', '/profile', { token: a.restricted_token })).status).toBe(200);

    const again: string = (await call(svc, 'POST', '/profile/tokens', { token: a.token, body: { label: 'again' } })).body.token;
    expect((await call(svc, 'POST', '/__control/reset', { token: a.token, body: { seed: 'demo' } })).status).toBe(200);
    expect((await call(svc, 'GET', '/tags', { token: again })).status).toBe(401);
    expect((await call(svc, 'GET', '/vm/instances', { token: a.token })).body.results).toBeGreaterThan(0);
    expect(await tagsOf(b.token)).toEqual(['b-tag']);
    expect((await call(svc, 'GET', '/vm/instances')).body.results).toBe(0);
    await remove(a.id);
    await remove(b.id);
  });

  it('an account’s owner token revoked through the API still controls it, as the primary’s does', async () => {
    const a = await make();
    const tokens = (await call(svc, 'GET', '/profile/tokens', { token: a.token })).body.data as { id: number; token: string }[];
    const own = tokens.find((t) => a.token.startsWith(t.token))!;
    expect((await call(svc, 'DELETE', `/profile/tokens/${own.id}`, { token: a.token })).status).toBe(200);
    expect((await call(svc, 'GET', '/tags', { token: a.token })).status).toBe(401);
    expect((await call(svc, 'GET', '/__control/clock', { token: a.token })).status).toBe(200);
    expect((await call(svc, 'POST', '/__control/snapshots', { token: a.token, body: { name: 'after-revoke' } })).status).toBe(200);
    expect((await call(svc, 'GET', '/__control/accounts', { token: a.token })).status).toBe(403);
    await remove(a.id);
  });

  it('snapshots are the account’s own: another account neither lists nor restores them', async () => {
    const a = await make();
    const b = await make();
    expect((await call(svc, 'POST', '/__control/snapshots', { token: a.token, body: { name: 'mine' } })).status).toBe(200);
    const names = async (token: string) => ((await call(svc, 'GET', '/__control/snapshots', { token })).body.data as { name: string }[]).map((s) => s.name);
    expect(await names(a.token)).toEqual(['mine']);
    expect(await names(b.token)).toEqual([]);
    expect(await names(OWNER_TOKEN)).not.toContain('mine');
    expect((await call(svc, 'POST', '/__control/snapshots/mine/restore', { token: b.token })).status).toBe(404);
    expect((await call(svc, 'POST', '/__control/snapshots/mine/restore')).status).toBe(404);
    // The primary's snapshot of the same name is its own too.
    await tag(OWNER_TOKEN, 'primary-before');
    expect((await call(svc, 'POST', '/__control/snapshots', { body: { name: 'mine' } })).status).toBe(200);
    await tag(a.token, 'a-after');
    expect((await call(svc, 'POST', '/__control/snapshots/mine/restore', { token: a.token })).status).toBe(200);
    expect(await tagsOf(a.token)).toEqual([]);
    expect(await tagsOf(OWNER_TOKEN)).toContain('primary-before');
    expect((await call(svc, 'DELETE', '/__control/snapshots/mine')).status).toBe(200);
    expect(await names(a.token)).toEqual(['mine']);
    // Exported, it is a data file of its own (serve --data opens it; see control-snapshots.test.ts).
    const exported = await request(`${svc.origin}/__control/snapshots/mine/export`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(exported.statusCode).toBe(200);
    expect(Buffer.from(await exported.body.arrayBuffer()).subarray(0, 16).toString()).toBe('SQLite format 3\0');
    expect((await call(svc, 'GET', '/__control/snapshots/mine/export', { token: b.token })).status).toBe(404);
    await call(svc, 'DELETE', '/tags/primary-before');
    await remove(a.id);
    await remove(b.id);
  });

  it('pre-signed URLs open their own account’s objects only', async () => {
    const a = await make();
    const b = await make();
    const B = '/object-storage/buckets';
    for (const token of [a.token, b.token]) expect((await call(svc, 'POST', B, { token, body: { label: 'same-name', cluster: 'us-east-1' } })).status).toBe(200);
    const sign = async (token: string, body: Record<string, unknown>) => new URL((await call(svc, 'POST', `${B}/us-east-1/same-name/object-url`, { token, body })).body.url as string);
    const send = async (url: URL, method: string, body?: string) => {
      const res = await request(url, { method: method as 'GET', body, headers: body ? { 'content-type': 'text/plain' } : {} });
      return { status: res.statusCode, text: await res.body.text() };
    };
    for (const [token, text] of [[a.token, 'from a'], [b.token, 'from b']] as const) {
      expect((await send(await sign(token, { name: 'note.txt', method: 'PUT', content_type: 'text/plain' }), 'PUT', text)).status).toBe(200);
    }
    const getA = await sign(a.token, { name: 'note.txt', method: 'GET' });
    const getB = await sign(b.token, { name: 'note.txt', method: 'GET' });
    expect(getA.searchParams.get('acct')).toBe(String(a.id));
    expect(await send(getA, 'GET')).toEqual({ status: 200, text: 'from a' });
    expect(await send(getB, 'GET')).toEqual({ status: 200, text: 'from b' });
    // Each URL's request is in its own account's journal.
    const objectPaths = async (token: string) => ((await call(svc, 'GET', '/__control/requests', { token })).body.data as { path: string; method: string }[]).filter((e) => e.path.startsWith('/__objects/'));
    expect((await objectPaths(a.token)).map((e) => e.method)).toEqual(['PUT', 'GET']);
    expect((await objectPaths(b.token)).map((e) => e.method)).toEqual(['PUT', 'GET']);
    expect(await objectPaths(OWNER_TOKEN)).toEqual([]);

    // A's URL pointed at B, or at the primary (which has a bucket of that name too), opens nothing.
    expect((await call(svc, 'POST', B, { body: { label: 'same-name', cluster: 'us-east-1' } })).status).toBe(200);
    const atB = new URL(getA);
    atB.searchParams.set('acct', String(b.id));
    const atPrimary = new URL(getA);
    atPrimary.searchParams.delete('acct');
    const atNobody = new URL(getA);
    atNobody.searchParams.set('acct', '99999');
    for (const url of [atB, atPrimary, atNobody]) expect((await send(url, 'GET')).status).toBe(403);
    const primaryUrl = new URL((await call(svc, 'POST', `${B}/us-east-1/same-name/object-url`, { body: { name: 'note.txt', method: 'GET' } })).body.url as string);
    expect(primaryUrl.searchParams.has('acct')).toBe(false);
    expect((await send(primaryUrl, 'GET')).status).toBe(404);

    await remove(a.id);
    expect((await send(getA, 'GET')).status).toBe(403);
    expect(await send(getB, 'GET')).toEqual({ status: 200, text: 'from b' });
    await call(svc, 'DELETE', `${B}/us-east-1/same-name`);
    await remove(b.id);
  });

  it('two accounts written at once each end with exactly their own writes', async () => {
    const a = await make();
    const b = await make();
    const writes = Array.from({ length: 15 }, (_, i) => [tag(a.token, `a-${i}`), tag(b.token, `b-${i}`)]).flat();
    expect((await Promise.all(writes)).map((r) => r.status)).toEqual(writes.map(() => 200));
    expect((await tagsOf(a.token)).sort()).toEqual(Array.from({ length: 15 }, (_, i) => `a-${i}`).sort());
    expect((await tagsOf(b.token)).sort()).toEqual(Array.from({ length: 15 }, (_, i) => `b-${i}`).sort());
    expect(await tagsOf(OWNER_TOKEN)).toEqual([]);
    await remove(a.id);
    await remove(b.id);
  });
});

describe('accounts: faults and the journal are per account', () => {
  it('a fault rule of one account fails its requests only, and its id names nothing in another', async () => {
    const a = await make();
    const b = await make();
    const rule = (await call(svc, 'POST', '/__control/faults', { token: a.token, body: { path: '/v4/regions*', action: 'error', status: 503 } })).body;
    expect((await call(svc, 'GET', '/regions', { token: a.token })).status).toBe(503);
    expect((await call(svc, 'GET', '/regions', { token: b.token })).status).toBe(200);
    expect((await call(svc, 'GET', '/regions')).status).toBe(200);
    expect((await call(svc, 'GET', '/__control/faults', { token: b.token })).body.data).toEqual([]);
    expect((await call(svc, 'GET', '/__control/faults')).body.data).toEqual([]);

    const named = (await call(svc, 'POST', '/__control/faults', { token: a.token, body: { path: '*', action: 'rate_limit', only_when_named: true } })).body;
    const inB = await call(svc, 'GET', '/tags', { token: b.token, headers: { 'x-vm-fault': String(named.id) } });
    expect(inB).toMatchObject({ status: 400, body: { errors: [{ field: 'X-Vm-Fault' }] } });
    expect((await call(svc, 'GET', '/tags', { token: a.token, headers: { 'x-vm-fault': String(named.id) } })).status).toBe(429);
    expect((await call(svc, 'GET', `/__control/faults/${named.id}`, { token: a.token })).body).toMatchObject({ hits: 1, matched: 1 });
    expect((await call(svc, 'GET', `/__control/faults/${rule.id}`, { token: a.token })).body).toMatchObject({ hits: 1 });
    // B clears all its rules: A's stay.
    expect((await call(svc, 'DELETE', '/__control/faults', { token: b.token })).status).toBe(200);
    expect((await call(svc, 'GET', '/regions', { token: a.token })).status).toBe(503);
    await remove(a.id);
    await remove(b.id);
  });

  it('each account’s journal holds its own requests only, and so does its stream', async () => {
    const a = await make();
    const b = await make();
    const paths = async (token: string) => ((await call(svc, 'GET', '/__control/requests?limit=1000', { token })).body.data as { path: string }[]).map((e) => e.path);
    await call(svc, 'GET', '/vm/instances/1111', { token: a.token });
    await call(svc, 'GET', '/vm/instances/2222', { token: b.token });
    await call(svc, 'GET', '/vm/instances/3333');
    expect(await paths(a.token)).toEqual(['/v4/vm/instances/1111']);
    expect(await paths(b.token)).toEqual(['/v4/vm/instances/2222']);
    const primary = await paths(OWNER_TOKEN);
    expect(primary).toContain('/v4/vm/instances/3333');
    expect(primary).not.toContain('/v4/vm/instances/1111');
    expect(primary).not.toContain('/v4/vm/instances/2222');

    const streams = new Agent();
    try {
      const res = await request(`${svc.origin}/__control/requests/stream`, { dispatcher: streams, headers: { authorization: `Bearer ${a.token}` } });
      expect(res.statusCode).toBe(200);
      await poll(async () => (await call(svc, 'GET', '/__control/requests', { token: a.token })).body.streams === 1);
      expect((await call(svc, 'GET', '/__control/requests')).body.streams).toBe(0);
      await call(svc, 'GET', '/vm/instances/2223', { token: b.token });
      await call(svc, 'GET', '/vm/instances/3334');
      await call(svc, 'GET', '/vm/instances/1112', { token: a.token });
      let text = '';
      for await (const chunk of res.body) {
        text += chunk.toString();
        if (text.includes('1112')) break;
      }
      expect(text).not.toContain('2223');
      expect(text).not.toContain('3334');

      // Removing the account ends its stream.
      const again = await request(`${svc.origin}/__control/requests/stream`, { dispatcher: streams, headers: { authorization: `Bearer ${a.token}` } });
      await poll(async () => (await call(svc, 'GET', '/__control/requests', { token: a.token })).body.streams >= 1);
      await remove(a.id);
      let rest = '';
      for await (const chunk of again.body) rest += chunk.toString();
      expect(rest).toContain('vmtui request journal');
    } finally {
      await streams.destroy();
    }
    await remove(b.id);
  });
});

describe('accounts: removal', () => {
  it('stops every token of the account at once, and one already on its way', async () => {
    const a = await make();
    const inner: string = (await call(svc, 'POST', '/profile/tokens', { token: a.token, body: { label: 'ci' } })).body.token;
    const slow = (await call(svc, 'POST', '/__control/faults', { token: a.token, body: { method: 'POST', path: '/v4/tags', action: 'latency', latency_ms: 400 } })).body;
    expect(slow.id).toBeGreaterThan(0);
    const pending = tag(a.token, 'too-late');
    await new Promise((r) => setTimeout(r, 100));
    expect((await remove(a.id)).status).toBe(200);
    expect(await pending).toMatchObject({ status: 401, body: { errors: [{ reason: 'Invalid Token' }] } });
    for (const token of [a.token, a.restricted_token, inner]) {
      expect(await call(svc, 'GET', '/profile', { token })).toMatchObject({ status: 401, body: { errors: [{ reason: 'Invalid Token' }] } });
    }
    // Its owner token no longer controls anything: to the control interface it is just not the control token.
    expect((await call(svc, 'GET', '/__control/requests', { token: a.token })).status).toBe(403);
    expect(await listed()).not.toContain(a.id);
    expect((await remove(a.id)).status).toBe(404);
    // Its id is never given again.
    expect((await make()).id).toBeGreaterThan(a.id);
  });

  it('an added account lives in memory: nothing of it reaches the primary’s data file, and it ends with the service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-accounts-'));
    const data = join(dir, 'service.sqlite');
    try {
      const onFile = await startTestService({ data });
      const a = (await call(onFile, 'POST', '/__control/accounts', { body: { seed: 'empty' } })).body as Made;
      expect((await call(onFile, 'POST', '/tags', { token: a.token, body: { label: 'in-memory-only' } })).status).toBe(200);
      expect((await call(onFile, 'POST', '/__control/snapshots', { token: a.token, body: { name: 'in-memory-snapshot' } })).status).toBe(200);
      await onFile.close();
      const again = await startTestService({ data });
      try {
        const text = JSON.stringify(again.store.db.prepare('SELECT * FROM rows').all()) + JSON.stringify(again.store.db.prepare('SELECT name FROM snapshots').all());
        expect(text).not.toContain('in-memory-only');
        expect(text).not.toContain('in-memory-snapshot');
        expect((await call(again, 'GET', '/tags', { token: a.token })).status).toBe(401);
        expect((await call(again, 'GET', '/__control/accounts')).body.data.map((x: { id: number }) => x.id)).toEqual([1]);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an added account reads as the service does: serve --strict holds for it too', async () => {
    const strict = await startTestService({ strict: true });
    try {
      const a = (await call(strict, 'POST', '/__control/accounts', { body: { seed: 'empty' } })).body as Made;
      const r = await call(strict, 'POST', '/tags', { token: a.token, body: { label: 'strict-tag', colour: 'red' } });
      expect(r).toMatchObject({ status: 400, body: { errors: [{ field: 'colour' }] } });
    } finally {
      await strict.close();
    }
  });

  it('the service closes cleanly with accounts open, and they close with it', async () => {
    const other = await startTestService();
    const r = await call(other, 'POST', '/__control/accounts', { body: { seed: 'demo' } });
    expect(r.status).toBe(200);
    await other.close();
    expect(other.accounts.list().map((a) => a.id)).toEqual([1]);
  });
});
