import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { addInstance, createBalancer, scopedToken, setGrants } from './nodebalancers-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

interface Entry {
  id: number;
  method: string;
  path: string;
  status: number | null;
  operation: string | null;
  denial: string | null;
  [key: string]: unknown;
}

const journal = async (query = '') => (await call(svc, 'GET', `/__control/requests${query}`)).body as { data: Entry[]; latest: number; kept: number; streams: number };
/** The entry of the request `send` makes: the first one after what the journal held before it. */
async function entryOf(send: () => Promise<unknown>): Promise<Entry> {
  const { latest } = await journal();
  await send();
  const { data } = await journal(`?since=${latest}&limit=1`);
  expect(data).toHaveLength(1);
  return data[0]!;
}

const poll = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
  expect(await check()).toBe(true);
};

describe('the request journal', () => {
  it('answers only the control token, and keeps no entry of the control interface', async () => {
    expect((await call(svc, 'GET', '/__control/requests', { token: null })).status).toBe(401);
    expect((await call(svc, 'GET', '/__control/requests', { token: RESTRICTED_TOKEN })).status).toBe(403);
    const before = (await journal()).latest;
    await call(svc, 'GET', '/__control/health');
    await call(svc, 'GET', '/__control/faults');
    expect((await journal()).latest).toBe(before);
  });

  it('records what was asked, what was matched and what came of it', async () => {
    const e = await entryOf(() => call(svc, 'GET', '/v4beta/regions?page=1&page_size=25'));
    expect(e).toEqual({
      id: expect.any(Number),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: 'GET',
      path: '/v4beta/regions',
      query: { page: '1', page_size: '25' },
      status: 200,
      duration_ms: expect.any(Number),
      operation: 'GET /regions',
      token: 'test-o…',
      user: 'demo-owner',
      access: [],
      denial: null,
      errors: [],
      ignored_fields: [],
      fault: null,
    });
    const missing = await entryOf(() => call(svc, 'GET', '/nothing/here', { token: null }));
    expect(missing).toMatchObject({ status: 404, operation: null, token: null, user: null, errors: [{ reason: 'Not found' }] });
    const bad = await entryOf(() => call(svc, 'GET', '/regions', { token: 'wrong-token-value' }));
    expect(bad).toMatchObject({ status: 401, token: 'wron…', errors: [{ reason: 'Invalid Token' }] });
  });

  it('says which scope a request needed and what the token had: a denial names what would allow it', async () => {
    const token = scopedToken(svc, 'vms:read_only');
    const denied = await entryOf(() => call(svc, 'POST', '/vm/instances', { token, body: { region: 'us-east', type: 'g6-standard-1' } }));
    expect(denied).toMatchObject({
      status: 403,
      operation: 'POST /vm/instances',
      access: [{ kind: 'scope', needs: 'vms:read_write', has: 'vms:read_only', allowed: false }],
      denial: 'needs vms:read_write; the token has vms:read_only',
    });
    const none = await entryOf(() => call(svc, 'GET', '/nodebalancers', { token }));
    expect(none.denial).toBe('needs nodebalancers:read_only; the token has no nodebalancers scope');
    const allowed = await entryOf(() => call(svc, 'GET', '/vm/instances', { token }));
    expect(allowed).toMatchObject({ status: 200, access: [{ kind: 'scope', needs: 'vms:read_only', allowed: true }], denial: null });
  });

  it("records a restricted user's grant decisions", async () => {
    addInstance(svc, 8801, 'running');
    setGrants(svc, (g) => {
      g.vm.push({ id: 8801, permissions: 'read_only' });
    });
    const put = await entryOf(() => call(svc, 'PUT', '/vm/instances/8801', { token: RESTRICTED_TOKEN, body: { label: 'renamed' } }));
    expect(put).toMatchObject({ status: 403, user: 'demo-ops', denial: 'needs read_write on vm 8801; the user has read_only on it' });
    expect(put.access).toContainEqual({ kind: 'grant', needs: 'read_write on vm 8801', has: 'read_only on it', allowed: false });
    const hidden = await entryOf(() => call(svc, 'GET', '/vm/instances/987654', { token: RESTRICTED_TOKEN }));
    expect(hidden).toMatchObject({ status: 404, denial: 'needs read_only on vm 987654; the user has no access to it' });
    const create = await entryOf(() => call(svc, 'POST', '/nodebalancers', { token: RESTRICTED_TOKEN, body: { region: 'us-east' } }));
    expect(create).toMatchObject({ status: 403, denial: 'needs the add_nodebalancers grant; the user has no add_nodebalancers grant' });
  });

  it('records the validation errors, the ignored fields and the fault rule applied', async () => {
    const invalid = await entryOf(() => call(svc, 'POST', '/nodebalancers', { body: { region: 'nowhere', colour: 'red' } }));
    expect(invalid.status).toBe(400);
    expect((invalid.errors as { field: string }[]).map((e) => e.field)).toEqual(['region']);
    expect(invalid.ignored_fields).toEqual(['colour']);
    const rule = (await call(svc, 'POST', '/__control/faults', { body: { path: '/v4/regions', action: 'rate_limit', only_when_named: true } })).body;
    const faulted = await entryOf(() => call(svc, 'GET', '/regions', { headers: { 'x-vm-fault': String(rule.id) } }));
    expect(faulted).toMatchObject({ status: 429, fault: rule.id, errors: [{ reason: 'Too many requests' }] });
    const dropRule = (await call(svc, 'POST', '/__control/faults', { body: { path: '*', action: 'drop', only_when_named: true } })).body;
    const dropped = await entryOf(() => call(svc, 'GET', '/regions', { headers: { 'x-vm-fault': String(dropRule.id) } }).catch(() => undefined));
    expect(dropped).toMatchObject({ status: null, fault: dropRule.id });
    await call(svc, 'DELETE', '/__control/faults');
  });

  it('records a request whose client gave up, once, with no status', async () => {
    const slow = (await call(svc, 'POST', '/__control/faults', { body: { path: '/v4/regions/us-east', action: 'latency', latency_ms: 400, only_when_named: true } })).body;
    const { latest } = await journal();
    const gaveUp = request(`${svc.baseUrl}/regions/us-east`, { headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'x-vm-fault': String(slow.id) }, signal: AbortSignal.timeout(100) });
    await expect(gaveUp).rejects.toThrow();
    await poll(async () => (await journal(`?since=${latest}`)).data.length === 1);
    await new Promise((r) => setTimeout(r, 500));
    const { data } = await journal(`?since=${latest}`);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ path: '/v4/regions/us-east', status: null, fault: slow.id });
    await call(svc, 'DELETE', '/__control/faults');
  });

  it('keeps no secret: tokens as their first characters, no body, no secret query value', async () => {
    const password = 'correct-horse-battery-staple-42';
    const tlsKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { latest } = await journal();
    expect((await call(svc, 'POST', '/managed/credentials', { body: { label: 'db', username: 'admin', password } })).status).toBe(200);
    const nb = await createBalancer(svc);
    await call(svc, 'POST', `/nodebalancers/${nb.id}/configs`, { body: { protocol: 'https', port: 443, ssl_cert: 'not a cert', ssl_key: tlsKey } });
    await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: '123456', secret: password } });
    await call(svc, 'GET', `/regions?signature=${password}&page=1`);
    const text = JSON.stringify((await journal(`?since=${latest}`)).data);
    expect(text).toContain('/managed/credentials');
    expect(text).toContain('<REDACTED>');
    for (const secret of [password, OWNER_TOKEN, OWNER_TOKEN.slice(0, 8), 'PRIVATE KEY', tlsKey.split('\n')[1]!]) expect(text).not.toContain(secret);
  });

  it("keeps a pre-signed URL's path and expiry but not its signature", async () => {
    expect((await call(svc, 'POST', '/object-storage/buckets', { body: { label: 'journal-bucket', cluster: 'us-east-1' } })).status).toBe(200);
    const signed = await call(svc, 'POST', '/object-storage/buckets/us-east-1/journal-bucket/object-url', { body: { name: 'notes.txt', method: 'GET' } });
    expect(signed.status).toBe(200);
    const url = new URL(signed.body.url as string);
    const sig = url.searchParams.get('sig')!;
    expect(sig.length).toBeGreaterThan(10);
    const e = await entryOf(() => request(url).then((r) => r.body.text()));
    expect(e.path).toBe(url.pathname);
    expect(e.query).toEqual({ method: 'GET', expires: url.searchParams.get('expires'), sig: '<REDACTED>' });
    expect(JSON.stringify((await journal()).data)).not.toContain(sig);
  });

  it('pages with limit and since, and refuses bad values', async () => {
    for (let i = 0; i < 3; i++) await call(svc, 'GET', '/regions');
    const { data, latest } = await journal('?limit=3');
    expect(data.map((e) => e.id)).toEqual([latest - 2, latest - 1, latest]);
    expect((await journal(`?since=${latest - 2}&limit=1`)).data.map((e) => e.id)).toEqual([latest - 1]);
    expect((await journal(`?since=${latest}`)).data).toEqual([]);
    for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'since=-1', 'since=1.5']) {
      const r = await call(svc, 'GET', `/__control/requests?${q}`);
      expect(r.status).toBe(400);
      expect(errorFields(r)).toEqual([q.split('=')[0]]);
    }
  });

  it('is a bounded ring: the newest 1,000 entries', async () => {
    const before = (await journal()).latest;
    for (let round = 0; round < 51; round++) await Promise.all(Array.from({ length: 20 }, () => call(svc, 'GET', '/regions')));
    const { data, latest, kept } = await journal('?limit=1000');
    expect(kept).toBe(1000);
    expect(latest - before).toBeGreaterThanOrEqual(1020);
    expect(data).toHaveLength(1000);
    expect(data[0]!.id).toBe(latest - 999);
    expect((await journal('?since=0&limit=1')).data[0]!.id).toBe(latest - 999);
  });
});

describe('the request journal as server-sent events', () => {
  // The streams' own connections, closed before the service: undici leaves a spare connection that the service's close would wait for.
  const streams = new Agent();
  afterAll(() => streams.destroy());
  const open = (query = '', token: string | null = OWNER_TOKEN, headers: Record<string, string> = {}) =>
    request(`${svc.origin}/__control/requests/stream${query}`, { dispatcher: streams, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  /** Reads the stream until `count` events arrived, handing each to `onEvent` as it comes. */
  async function events(body: AsyncIterable<Buffer>, count: number, onEvent?: (e: { id: number; entry: Entry }) => void): Promise<{ id: number; entry: Entry }[]> {
    let text = '';
    const out: { id: number; entry: Entry }[] = [];
    for await (const chunk of body) {
      text += chunk.toString();
      const frames = text.split('\n\n');
      text = frames.pop()!;
      for (const frame of frames) {
        const id = /^id: (\d+)$/m.exec(frame);
        const data = /^data: (.*)$/m.exec(frame);
        if (!id || !data) continue;
        out.push({ id: Number(id[1]), entry: JSON.parse(data[1]!) });
        onEvent?.(out.at(-1)!);
      }
      if (out.length >= count) return out;
    }
    return out;
  }

  it('sends each new entry, replays from since, and lets go of a client that leaves', async () => {
    expect((await open('', null)).statusCode).toBe(401);
    const { latest } = await journal();
    await call(svc, 'GET', '/regions/us-east');
    const res = await open(`?since=${latest}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    await poll(async () => (await journal()).streams === 1);
    await call(svc, 'GET', '/account/events', { token: 'stream-test-token-value' });
    const got = await events(res.body, 2);
    expect(got.map((e) => e.entry.path)).toEqual(['/v4/regions/us-east', '/v4/account/events']);
    expect(got[0]!.id).toBe(latest + 1);
    expect(got[1]!.entry).toMatchObject({ status: 401, token: 'strea…' });
    res.body.destroy();
    await poll(async () => (await journal()).streams === 0);
  });

  it('takes Last-Event-ID from a reconnecting client; many clients come and go without a leak', async () => {
    const { latest } = await journal();
    await call(svc, 'GET', '/regions');
    const again = await open('', OWNER_TOKEN, { 'last-event-id': String(latest) });
    expect((await events(again.body, 1))[0]!.id).toBe(latest + 1);
    again.body.destroy();
    const many = await Promise.all(Array.from({ length: 10 }, () => open()));
    await poll(async () => (await journal()).streams === 10);
    for (const r of many) r.body.destroy();
    await poll(async () => (await journal()).streams === 0);
    expect((await open('?since=x')).statusCode).toBe(400);
  });

  it('writes at the pace of a slow reader, and cuts it off only when entries it was not sent leave the journal', { timeout: 90_000 }, async () => {
    // A raw connection, so that not reading really leaves the bytes unread (a client library would buffer them).
    const slow = connect(Number(new URL(svc.origin).port), '127.0.0.1');
    slow.write(`GET /__control/requests/stream HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${OWNER_TOKEN}\r\n\r\n`);
    const received: Buffer[] = [];
    const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    slow.on('error', () => undefined);
    await new Promise<void>((resolve) => {
      slow.once('data', (chunk: Buffer) => {
        received.push(chunk);
        slow.pause();
        resolve();
      });
    });
    slow.on('data', (chunk: Buffer) => received.push(chunk));
    const fast = await open();
    const fastIds: number[] = [];
    const reading = events(fast.body, Number.MAX_SAFE_INTEGER, (e) => fastIds.push(e.id)).catch(() => undefined);
    await poll(async () => (await journal()).streams === 2);

    // Entries of about 13 KB (60 query values of 200 characters): the slow client's socket fills after a few hundred.
    const query = Array.from({ length: 60 }, (_, i) => `p${i}=${'x'.repeat(200)}`).join('&');
    const first = (await journal()).latest + 1;
    let sent = 0;
    while ((await journal()).streams === 2) {
      expect(sent, 'the slow client was never cut off').toBeLessThan(3000);
      await Promise.all(Array.from({ length: 10 }, () => call(svc, 'GET', `/regions?${query}`)));
      sent += 10;
    }
    // Not at 1 MiB behind (about 80 entries): only once the journal's 1,000 entries had passed what it was not sent.
    expect(sent).toBeGreaterThan(1000);
    const last = (await journal()).latest;

    slow.resume();
    await closed;
    const text = Buffer.concat(received).toString();
    const body = text.slice(text.indexOf('\r\n\r\n') + 4).replace(/\r\n[0-9a-f]+\r\n/g, '');
    // Every whole event up to the cut, in order; one cut short is not an event.
    const ids = body.split('\n\n').slice(0, -1).flatMap((frame) => /^id: (\d+)$/m.exec(frame)?.[1] ?? []).map(Number);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => first + i));
    const lastSeen = ids.at(-1)!;

    // Reconnecting, it gets the thousand entries kept, some 13 MB, at its pace: the ids show what it lost.
    const again = await open('', OWNER_TOKEN, { 'last-event-id': String(lastSeen) });
    const replayed = (await events(again.body, 1000)).map((e) => e.id);
    expect(replayed).toEqual(Array.from({ length: 1000 }, (_, i) => last - 999 + i));
    expect(replayed[0]!).toBeGreaterThan(lastSeen + 1);
    again.body.destroy();

    // The reader that kept up is still there, with every entry.
    await poll(async () => fastIds.at(-1) === last);
    expect(fastIds.filter((id) => id >= first)).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    await poll(async () => (await journal()).streams === 1);
    fast.body.destroy();
    await reading;
    await poll(async () => (await journal()).streams === 0);
  });
});
