import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { fetchAllPages } from '../../src/api/pages.js';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

let server: Server | undefined;

/** A tiny HTTP server: the handler gets each request and how many came before it. */
async function serve(handler: Handler): Promise<{ client: ApiClient; calls: () => IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  server = createServer((req, res) => {
    seen.push(req);
    handler(req, res, seen.length);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/v4`, betaUrl: `http://127.0.0.1:${port}/v4beta`, token: 'secret-token-1234567890', retryDelaysMs: [20, 40, 80], timeoutMs: 500 });
  return { client, calls: () => seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe('ApiClient', () => {
  it('sends the bearer token, X-Filter and the root', async () => {
    const { client, calls } = await serve((_req, res) => json(res, 200, { ok: true }));
    await client.get('/things', { filter: { label: 'a' }, query: { page: 2 } });
    await client.get('/networking/firewalls', { root: 'beta' });
    const [a, b] = calls();
    expect(a!.headers.authorization).toBe('Bearer secret-token-1234567890');
    expect(a!.headers['x-filter']).toBe('{"label":"a"}');
    expect(a!.url).toBe('/v4/things?page=2');
    expect(b!.url).toBe('/v4beta/networking/firewalls');
  });

  it('sends a filter with non-ASCII text as ASCII JSON that reads back the same', async () => {
    const { client, calls } = await serve((_req, res) => json(res, 200, { ok: true }));
    const filter = { label: { '+contains': 'café 😀 Ω' } };
    await client.get('/things', { filter });
    const sent = calls()[0]!.headers['x-filter'] as string;
    expect(sent).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(sent)).toEqual(filter);
  });

  it('sends a JSON body and reads a reply byte for byte, beyond ASCII and across chunks', async () => {
    const { client } = await serve((req, res) => {
      let got = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (got += c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // The reply in two writes, split inside a multi-byte character.
        const bytes = Buffer.from(JSON.stringify({ echoed: JSON.parse(got), length: req.headers['content-length'] }));
        const cut = bytes.indexOf(0xc3) + 1;
        res.write(bytes.subarray(0, cut));
        setTimeout(() => res.end(bytes.subarray(cut)), 10);
      });
    });
    const reply = await client.post<{ echoed: unknown; length: string }>('/echo', { name: 'Zoë Ångström' });
    expect(reply.echoed).toEqual({ name: 'Zoë Ångström' });
    expect(reply.length).toBe(String(Buffer.byteLength(JSON.stringify({ name: 'Zoë Ångström' }))));
  });

  it('waits for a server still starting, then sends to where it came up; a server that never starts fails each request at once', async () => {
    const { client: ready, calls } = await serve((_req, res) => json(res, 200, { ok: true }));
    let up!: (c: { baseUrl: string; betaUrl: string; token: string }) => void;
    const starting = ApiClient.whenReady(new Promise((r) => (up = r)), { retryDelaysMs: [20, 40] });
    const reply = starting.get('/things');
    await new Promise((r) => setTimeout(r, 30));
    expect(calls()).toHaveLength(0);
    up({ baseUrl: `${ready.baseUrl}/`, betaUrl: ready.betaUrl, token: 'late-token-0123456789' });
    await expect(reply).resolves.toEqual({ ok: true });
    expect(calls()[0]!.headers.authorization).toBe('Bearer late-token-0123456789');
    expect(starting.baseUrl).toBe(ready.baseUrl);

    const broken = ApiClient.whenReady(Promise.reject(new Error('the embedded service did not start: file is not a database')), { retryDelaysMs: [5_000] });
    const t0 = Date.now();
    await expect(broken.get('/things')).rejects.toMatchObject({ kind: 'unavailable', message: 'the embedded service did not start: file is not a database' });
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('does not follow a redirect: it says where the API moved, and the token goes nowhere else', async () => {
    const { client, calls } = await serve((_req, res) => {
      res.writeHead(301, { location: 'https://api.example.com/v4/regions' });
      res.end();
    });
    await expect(client.get('/regions')).rejects.toMatchObject({
      kind: 'http',
      status: 301,
      message: 'GET /regions was redirected to https://api.example.com/v4/regions (HTTP 301); use the address it moved to as the API URL',
    });
    expect(calls()).toHaveLength(1);
  });

  it('retries a GET after 5xx, then succeeds', async () => {
    const { client, calls } = await serve((_req, res, n) => (n === 1 ? json(res, 503, { errors: [{ reason: 'busy' }] }) : json(res, 200, { fine: n })));
    expect(await client.get('/x')).toEqual({ fine: 2 });
    expect(calls()).toHaveLength(2);
  });

  it('no answer at all: the link is down, nothing is sent but one probe backing off, and the first answer brings it up', async () => {
    let dead = true;
    const { client, calls } = await serve((req, res) => (dead ? req.socket.destroy() : json(res, 200, { fine: true })));
    const links: string[] = [];
    client.onLink((l) => links.push(l.state));
    await expect(client.get('/x')).rejects.toMatchObject({ kind: 'network' });
    // Not retried, and what is asked while down fails at once without being sent.
    expect(calls()).toHaveLength(1);
    await expect(client.get('/y')).rejects.toMatchObject({ kind: 'network' });
    await expect(client.post('/z', {})).rejects.toMatchObject({ kind: 'network' });
    expect(calls()).toHaveLength(1);
    // Probes at 1 s, then 2 s more: two in 3.5 s.
    await new Promise((r) => setTimeout(r, 3500));
    expect(calls().map((c) => c.url)).toEqual(['/v4/x', '/v4/profile', '/v4/profile']);
    dead = false;
    await new Promise((r) => setTimeout(r, 4200));
    expect(links).toEqual(['down', 'up']);
    expect(await client.get('/x')).toEqual({ fine: true });
  });

  it('a 401 refuses the token for good: said once, nothing sent after it', async () => {
    const { client, calls } = await serve((_req, res) => json(res, 401, { errors: [{ reason: 'Invalid Token' }] }));
    await expect(client.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(client.link).toMatchObject({ state: 'refused', error: { message: expect.stringMatching(/The token no longer works .*:ctx/) } });
    await expect(client.get('/y')).rejects.toMatchObject({ status: 401 });
    expect(calls()).toHaveLength(1);
  });

  it('gives up after its retries with the last error', async () => {
    const { client, calls } = await serve((_req, res) => json(res, 500, { errors: [{ reason: 'broken' }] }));
    await expect(client.get('/x')).rejects.toMatchObject({ status: 500, message: 'HTTP 500: broken' });
    expect(calls()).toHaveLength(4);
  });

  it('honours Retry-After on 429', async () => {
    const { client, calls } = await serve((_req, res, n) => (n === 1 ? json(res, 429, { errors: [{ reason: 'slow down' }] }, { 'retry-after': '1' }) : json(res, 200, {})));
    const t0 = Date.now();
    await client.get('/x');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(calls()).toHaveLength(2);
  });

  it('never retries POST, PUT or DELETE', async () => {
    const { client, calls } = await serve((_req, res) => json(res, 503, { errors: [{ reason: 'busy' }] }));
    await expect(client.post('/x', { a: 1 })).rejects.toBeInstanceOf(ApiError);
    await expect(client.put('/x', { a: 1 })).rejects.toBeInstanceOf(ApiError);
    await expect(client.delete('/x')).rejects.toBeInstanceOf(ApiError);
    expect(calls()).toHaveLength(3);
  });

  it('times out with a clear error', async () => {
    const { client } = await serve(() => {
      // never answers
    });
    const slow = new ApiClient({ baseUrl: client.baseUrl, betaUrl: client.betaUrl, token: 't', timeoutMs: 150, retryDelaysMs: [] });
    await expect(slow.get('/regions')).rejects.toMatchObject({ kind: 'timeout', message: 'GET /regions timed out after 0.15 s' });
  });

  it('turns a body that is not JSON, or a page of the wrong shape, into an error', async () => {
    const { client } = await serve((req, res) => {
      if (req.url!.startsWith('/v4/bad')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{nope');
      }
      json(res, 200, { items: [] });
    });
    await expect(client.get('/bad')).rejects.toMatchObject({ kind: 'shape', message: 'The response to GET /bad is not JSON: "{nope"' });
    await expect(client.page('/list')).rejects.toMatchObject({ kind: 'shape', message: expect.stringContaining('is not a page') });
  });

  it('checks the envelope of a page and each item against the resource its path lists: marked, or the page fails', async () => {
    const bodies: Record<string, unknown> = {
      '/v4/nodebalancers?page=1': { data: [{ id: 1, label: 'ok', transfer: { total: 1 } }, null, { id: 3, transfer: { total: 'lots' } }, { label: 'no id' }], page: 1, pages: 1, results: 4 },
      '/v4/regions?page=1': { data: [], pages: 1, results: 0 },
      '/v4/images?page=1': { data: null, page: 1, pages: 1, results: 0 },
    };
    const { client } = await serve((req, res) => json(res, 200, bodies[req.url!] ?? {}));
    const marked = await client.page<Record<string, unknown>>('/nodebalancers', { page: 1, flawed: 'mark' });
    const { flawOf } = await import('../../src/model/response.js');
    expect(marked.data.map((r) => flawOf(r)?.reason)).toEqual([undefined, 'it is null, not an object', 'transfer.total is "lots", not a number', 'it has no id']);
    expect(new Set(marked.data.map((r) => flawOf(r)?.key)).size).toBe(4);
    await expect(client.page('/nodebalancers', { page: 1 })).rejects.toMatchObject({ kind: 'shape', message: 'Item 2 of GET /nodebalancers (page 1) is not readable: it is null, not an object' });
    await expect(client.page('/regions', { page: 1 })).rejects.toMatchObject({ message: 'The response to GET /regions is not a page: page is missing or not valid' });
    await expect(client.page('/images', { page: 1 })).rejects.toMatchObject({ message: 'The response to GET /images is not a page: data is missing or not a list' });
  });

  it('checks a record it reads or a write returns; an unreadable answer to a write says it may have been applied', async () => {
    const { client } = await serve((req, res) => {
      if (req.url === '/v4/managed/contacts/5') return json(res, 200, { id: 5, name: ['x'] });
      if (req.url === '/v4/managed/credentials/sshkey') return json(res, 200, { ssh_key: 'ssh-ed25519 AAAA' });
      if (req.url === '/v4/html') {
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      }
      if (req.url === '/v4/page') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body><h1>Welcome to nginx</h1></body></html>');
      }
      json(res, 200, null);
    });
    await expect(client.get('/managed/contacts/5')).rejects.toMatchObject({ kind: 'shape', message: 'The response to GET /managed/contacts/5 is not a readable managed contact: name is a list, not a string' });
    await expect(client.get('/managed/credentials/sshkey')).resolves.toEqual({ ssh_key: 'ssh-ed25519 AAAA' });
    await expect(client.post('/managed/contacts', { name: 'a' })).rejects.toMatchObject({
      kind: 'shape',
      message: 'POST /managed/contacts was sent, but its answer is not a readable managed contact (it is null, not an object); refresh to see whether it was applied',
    });
    await expect(client.get('/page')).rejects.toMatchObject({ kind: 'shape', message: 'The response to GET /page is not JSON: "Welcome to nginx"' });
    await expect(client.get('/html')).rejects.toMatchObject({ kind: 'http', message: 'HTTP 502 from GET /html' });
  });

  it("counts a write's timeout from when it was sent, not while it waited behind slow reads; its timeout says it may still be applied", async () => {
    const held: ServerResponse[] = [];
    const { client } = await serve((req, res) => {
      if (req.method === 'GET') return void held.push(res);
      setTimeout(() => json(res, 200, { id: 9, label: 'made' }), 100);
    });
    // Loopback: six connections; six slow reads take them all.
    const slow = new ApiClient({ baseUrl: client.baseUrl, betaUrl: client.betaUrl, token: 't', timeoutMs: 300, retryDelaysMs: [] });
    const reads = Array.from({ length: 6 }, () => slow.get('/vm/types').catch((e: unknown) => e));
    const write = slow.post('/tags', { label: 'made' });
    // The reads end at 300 ms; the write then takes 100 ms of its own 300.
    await expect(write).resolves.toEqual({ id: 9, label: 'made' });
    await Promise.all(reads);
    held.forEach((res) => res.destroy());

    const { client: mute } = await serve(() => {});
    const never = new ApiClient({ baseUrl: mute.baseUrl, betaUrl: mute.betaUrl, token: 't', timeoutMs: 150, retryDelaysMs: [] });
    await expect(never.put('/tags/x', {})).rejects.toMatchObject({ kind: 'timeout', message: 'PUT /tags/x: no answer yet after 0.15 s; it may still be applied — refresh to see' });
  });

  it('abandons every request in flight at once when aborted, and refuses new ones', async () => {
    const { client } = await serve(() => {});
    const hanging = new ApiClient({ baseUrl: client.baseUrl, betaUrl: client.betaUrl, token: 't', timeoutMs: 10_000, retryDelaysMs: [] });
    const pending = [hanging.get('/vm/types'), hanging.post('/tags', {}), hanging.page('/regions')].map((p) => p.catch((e: unknown) => e));
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    hanging.abort();
    const errors = await Promise.all(pending);
    expect(Date.now() - t0).toBeLessThan(200);
    for (const e of errors) expect(e).toMatchObject({ kind: 'aborted' });
    await expect(hanging.get('/vm/types')).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('joins the reasons of an error body and keeps the field errors', async () => {
    const { client } = await serve((_req, res) =>
      json(res, 400, { errors: [{ field: 'label', reason: 'label is too short' }, { reason: 'and something else' }] }),
    );
    const err = (await client.post('/x', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe('HTTP 400: label is too short; and something else');
    expect(err.errors).toEqual([{ field: 'label', reason: 'label is too short' }, { reason: 'and something else' }]);
  });

  it('names the reason of a 403 and a rejected token', async () => {
    const { client } = await serve((req, res) =>
      req.url!.includes('403') ? json(res, 403, { errors: [{ reason: 'Token lacks scope vms:read_write' }] }) : json(res, 401, { errors: [{ reason: 'Invalid Token' }] }),
    );
    await expect(client.delete('/403')).rejects.toMatchObject({ status: 403, message: 'Not permitted: Token lacks scope vms:read_write' });
    await expect(client.get('/401')).rejects.toMatchObject({ status: 401, message: 'The token was rejected: Invalid Token' });
  });

  it('reports an unreachable server as a network error without the token', async () => {
    const dead = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'secret-token-1234567890', retryDelaysMs: [] });
    const err = (await dead.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/^Cannot reach 127\.0\.0\.1:9/);
    expect(err.message).not.toContain('secret');
  });
});

describe('fetchAllPages', () => {
  it('fetches the first page, then the rest with bounded concurrency, in order, reporting progress', async () => {
    let inFlight = 0;
    let most = 0;
    const { client } = await serve((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      inFlight++;
      most = Math.max(most, inFlight);
      // Later pages answer sooner, so arrival order differs from page order.
      setTimeout(() => {
        inFlight--;
        json(res, 200, { data: [page * 10, page * 10 + 1], page, pages: 12, results: 24 });
      }, 40 - page * 2);
    });
    const progress: string[] = [];
    const rows = await fetchAllPages<number>(client, '/list', { concurrency: 4, onPage: (_r, n, loaded, total) => progress.push(`${n}:${loaded}/${total}`) });
    expect(rows).toEqual(Array.from({ length: 12 }, (_, i) => [(i + 1) * 10, (i + 1) * 10 + 1]).flat());
    expect(most).toBeLessThanOrEqual(4);
    expect(progress[0]).toBe('1:1/12');
    expect(progress.at(-1)).toMatch(/:12\/12$/);
  });
});
