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
    const reply = await client.post<{ echoed: unknown; length: string }>('/managed/contacts', { name: 'Zoë Ångström' });
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

  it('retries a GET after 5xx and network errors, then succeeds', async () => {
    const { client, calls } = await serve((req, res, n) => {
      if (n === 1) return json(res, 503, { errors: [{ reason: 'busy' }] });
      if (n === 2) return req.socket.destroy();
      json(res, 200, { fine: n });
    });
    expect(await client.get('/x')).toEqual({ fine: 3 });
    expect(calls()).toHaveLength(3);
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
    await expect(client.get('/bad')).rejects.toMatchObject({ kind: 'shape', message: 'The response to GET /bad is not valid JSON' });
    await expect(client.page('/list')).rejects.toMatchObject({ kind: 'shape', message: expect.stringContaining('is not a page') });
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
