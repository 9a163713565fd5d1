import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { BODY_LIMIT, MASKED, RequestLog } from '../../src/api/request-log.js';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';

let svc: RunningService;
let client: ApiClient;

beforeAll(async () => {
  svc = await startTestService();
  client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [10], timeoutMs: 5000 });
});
afterAll(async () => {
  client.abort();
  await svc.close();
});

const newest = () => client.requests.entries()[0]!;

describe("the client's record of its calls", () => {
  it('keeps method, URL, root, status, timing and both sides; the token only as its first characters', async () => {
    const before = Date.now();
    await client.get('/vm/instances', { filter: { label: 'web' }, query: { page: 1 } });
    const r = newest();
    expect(r).toMatchObject({ method: 'GET', path: '/vm/instances', root: 'base', status: 200, attempt: 1 });
    expect(r.url).toBe(`${svc.baseUrl}/vm/instances?page=1`);
    expect(r.started).toBeGreaterThanOrEqual(before);
    expect(r.duration).toBeGreaterThanOrEqual(0);
    expect(r.requestHeaders.authorization).toBe('Bearer test…');
    expect(r.requestHeaders['x-filter']).toBe('{"label":"web"}');
    expect(r.responseHeaders?.['content-type']).toMatch(/json/);
    expect(JSON.parse(r.responseBody!)).toMatchObject({ data: [], page: 1 });
    expect(JSON.stringify(client.requests.entries())).not.toContain(OWNER_TOKEN);
  });

  it('masks the secret fields of what is sent as shell variables, and of what comes back', async () => {
    await client.post('/vm/instances', { region: 'us-east', type: 'vm-standard-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42!', label: 'logged' }).catch(() => {});
    const sent = client.requests.entries().find((r) => r.method === 'POST' && r.path === '/vm/instances')!;
    expect(sent.requestBody).not.toContain('Correct-Horse');
    expect(JSON.parse(sent.requestBody!)).toMatchObject({ root_pass: '$VM_ROOT_PASS', label: 'logged' });
    expect(sent.variables).toEqual(['VM_ROOT_PASS']);

    const created = await client.post<{ token: string }>('/profile/tokens', { label: 'from-the-log-test', scopes: '*' });
    const answer = client.requests.entries().find((r) => r.path === '/profile/tokens' && r.method === 'POST')!;
    expect(answer.responseBody).not.toContain(created.token);
    expect(JSON.parse(answer.responseBody!).token).toBe(MASKED);
  });

  it('records an error status with its body, a retry as an entry of its own, and a network failure', async () => {
    await expect(client.get('/vm/instances/999999')).rejects.toThrow();
    expect(newest()).toMatchObject({ status: 404, path: '/vm/instances/999999' });
    expect(newest().responseBody).toMatch(/errors/);

    // One 503 from the service's fault rules, then the retry succeeds.
    const rule = await call(svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4/vm/types', action: 'error', status: 503, count: 1 } });
    expect(rule.status).toBe(200);
    await client.get('/vm/types');
    const [second, first] = client.requests.entries();
    expect(first).toMatchObject({ path: '/vm/types', status: 503, attempt: 1 });
    expect(second).toMatchObject({ path: '/vm/types', status: 200, attempt: 2 });

    const nowhere = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'x', retryDelaysMs: [], timeoutMs: 1000 });
    await expect(nowhere.get('/regions')).rejects.toThrow(/Cannot reach/);
    expect(nowhere.requests.entries()[0]).toMatchObject({ status: undefined, failure: expect.stringMatching(/Cannot reach 127\.0\.0\.1:9/) });
  });

  it('records what the client could not read, with the reason', async () => {
    await call(svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4/profile', action: 'malformed', count: 1 } });
    await expect(client.get('/profile')).rejects.toThrow();
    expect(newest().path).toBe('/profile');
    expect(newest().problem).toMatch(/not JSON|not a readable/);
  });

  it('marks a page whose envelope the client cannot read, with the reason', async () => {
    const stub = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":null}');
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
    const other = new ApiClient({ baseUrl: `${origin}/v4`, betaUrl: `${origin}/v4beta`, token: 'x', retryDelaysMs: [], timeoutMs: 2000 });
    try {
      await expect(other.page('/vm/instances')).rejects.toThrow(/not a page/);
      expect(other.requests.entries()[0]).toMatchObject({ status: 200, problem: expect.stringMatching(/not a page/) });
    } finally {
      stub.closeAllConnections();
      stub.close();
    }
  });

  it('is a bounded ring, and keeps at most BODY_LIMIT of a body', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) {
      const r = log.begin({ method: 'GET', url: new URL(`http://h/v4/x/${i}`), path: `/x/${i}`, root: 'base', attempt: 1, headers: {} });
      log.finish(r, { status: 200, headers: {}, text: 'y'.repeat(BODY_LIMIT + 10) });
    }
    const kept = log.entries();
    expect(kept.map((r) => r.path)).toEqual(['/x/4', '/x/3', '/x/2']);
    expect(kept[0]!.responseBody!.length).toBe(BODY_LIMIT);
    expect(kept[0]).toMatchObject({ responseCut: true, responseBytes: BODY_LIMIT + 10 });
  });

  it('is bounded by the characters of the bodies it holds too: the oldest answers\' bodies go first, the calls stay, the newest stays whole', () => {
    const log = new RequestLog(500, 3 * 1000);
    const call = (path: string, body?: string) => log.begin({ method: body ? 'POST' : 'GET', url: new URL(`http://h/v4${path}`), path, root: 'base', attempt: 1, headers: {}, text: body });
    for (let i = 0; i < 10; i++) log.finish(call(`/x/${i}`), { status: 200, headers: {}, text: 'y'.repeat(1000) });
    const kept = log.entries();
    expect(kept.map((r) => r.path)).toEqual(['/x/9', '/x/8', '/x/7', '/x/6', '/x/5', '/x/4', '/x/3', '/x/2', '/x/1', '/x/0']);
    expect(kept.map((r) => r.responseBody !== undefined)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(kept[3]).toMatchObject({ responseDropped: true, status: 200, responseBytes: 1000 });
    // A call still waiting while older bodies go: its answer, coming later, is let go at once when newer ones are held.
    const slow = call('/slow');
    for (let i = 10; i < 14; i++) log.finish(call(`/x/${i}`), { status: 200, headers: {}, text: 'y'.repeat(1000) });
    log.finish(slow, { status: 200, headers: {}, text: 'y'.repeat(1000) });
    expect(log.get(slow.id)).toMatchObject({ responseDropped: true, responseBody: undefined });
    expect(log.entries().filter((r) => r.responseBody !== undefined).map((r) => r.path)).toEqual(['/x/13', '/x/12', '/x/11']);
    // What was sent stays for a curl line while answers go; past that, the oldest calls go, and one too big alone still stays.
    const post = call('/w', 'z'.repeat(500));
    log.finish(post, { status: 200, headers: {}, text: '{}' });
    expect(log.get(post.id)!.requestBody).toHaveLength(500);
    const big = call('/big');
    log.finish(big, { status: 200, headers: {}, text: 'y'.repeat(BODY_LIMIT) });
    expect(log.entries().map((r) => r.path)).toEqual(['/big']);
  });

  it('gives views the same object for a call that did not change and a new one for a call that did', () => {
    const log = new RequestLog();
    const a = log.begin({ method: 'GET', url: new URL('http://h/v4/a'), path: '/a', root: 'base', attempt: 1, headers: {} });
    const b = log.begin({ method: 'GET', url: new URL('http://h/v4/b'), path: '/b', root: 'base', attempt: 1, headers: {} });
    const [b1, a1] = log.entries();
    log.finish(b, { status: 200, headers: {}, text: '{}' });
    const [b2, a2] = log.entries();
    expect(a2).toBe(a1);
    expect(b2).not.toBe(b1);
    expect(b1!.status).toBeUndefined();
    expect(b2!.status).toBe(200);
    log.problem(a, 'not a page');
    expect(log.entries()[1]).toMatchObject({ path: '/a', problem: 'not a page' });
  });
});
