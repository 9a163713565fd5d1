import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { MAX_PAGES, fetchAllPages, type ListCut } from '../../src/api/pages.js';

/** What the server overstated in the issue: 66,837,935 pages, those past the real end empty. */
const CLAIMED = 66_837_935;

let server: Server | undefined;

/**
 * A server of `rows` numbered items, `size` to a page whatever is asked, that
 * claims `pages(real)` pages; each request counted.
 */
async function listServer(rows: number, size: number, pages: (real: number) => number, lie: { results?: number; page?: (n: number) => { n: number; delayMs?: number } } = {}) {
  const asked: number[] = [];
  server = createServer((req, res) => {
    const wanted = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? '1');
    asked.push(wanted);
    const { n, delayMs = 0 } = lie.page?.(wanted) ?? { n: wanted };
    const from = (n - 1) * size;
    const data = Array.from({ length: Math.max(0, Math.min(size, rows - from)) }, (_, i) => ({ id: from + i + 1 }));
    const body = JSON.stringify({ data, page: n, pages: pages(Math.max(1, Math.ceil(rows / size))), results: lie.results ?? rows });
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), delayMs);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/v4`, betaUrl: `http://127.0.0.1:${port}/v4beta`, token: 'secret-token-1234567890', retryDelaysMs: [], timeoutMs: 5000 });
  return { client, asked };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('fetchAllPages does not take a server at its word for its page count', () => {
  it('an overstated count, the pages past the end empty: stops at the short page, a few requests in all', async () => {
    const { client, asked } = await listServer(250, 100, () => CLAIMED);
    const cuts: ListCut[] = [];
    const rows = await fetchAllPages<{ id: number }>(client, '/things', { onCut: (c) => cuts.push(c) });
    expect(ids(rows)).toEqual(range(250));
    // Page 1 alone, then 4 at a time: the short page 3 ends it, with at most the 3 already on their way.
    expect(asked.length).toBeLessThanOrEqual(1 + 4 + 1);
    expect(Math.max(...asked)).toBeLessThanOrEqual(6);
    expect(cuts).toEqual([]);
  });

  it('a first page holding as many rows as the server counts is the only one, whatever pages it claims', async () => {
    const { client, asked } = await listServer(21, 100, () => CLAIMED);
    expect(ids(await fetchAllPages<{ id: number }>(client, '/things'))).toEqual(range(21));
    expect(asked).toEqual([1]);
  });

  it('the real end on a page boundary: the first empty page ends it', async () => {
    const { client, asked } = await listServer(200, 100, () => CLAIMED);
    const rows = await fetchAllPages<{ id: number }>(client, '/things');
    expect(ids(rows)).toEqual(range(200));
    expect(asked.length).toBeLessThanOrEqual(7);
  });

  it('an empty first page claiming more: one request', async () => {
    const { client, asked } = await listServer(0, 100, () => CLAIMED);
    expect(await fetchAllPages(client, '/things')).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it('a server whose every page is full, forever: reads MAX_PAGES pages, no more, and says the list was cut', async () => {
    // As many rows as a number holds: every page full, never an end.
    const { client, asked } = await listServer(Number.MAX_SAFE_INTEGER, 100, () => CLAIMED);
    const cuts: ListCut[] = [];
    const rows = await fetchAllPages(client, '/things', { onCut: (c) => cuts.push(c) });
    expect(asked.length).toBe(MAX_PAGES);
    expect(rows).toHaveLength(MAX_PAGES * 100);
    expect(cuts).toEqual([{ rows: MAX_PAGES * 100, pages: CLAIMED }]);
  });

  it('an honest list of many pages is read whole, each page once, in order', async () => {
    const { client, asked } = await listServer(1234, 100, (real) => real);
    const cuts: ListCut[] = [];
    const rows = await fetchAllPages<{ id: number }>(client, '/things', { onCut: (c) => cuts.push(c) });
    expect(ids(rows)).toEqual(range(1234));
    expect(asked.sort((a, b) => a - b)).toEqual(range(13));
    expect(cuts).toEqual([]);
  });

  it('a server that pages by fewer than asked is read whole: its own page size is the measure', async () => {
    const { client, asked } = await listServer(120, 25, (real) => real);
    const rows = await fetchAllPages<{ id: number }>(client, '/things');
    expect(ids(rows)).toEqual(range(120));
    expect(asked).toHaveLength(5);
  });

  it('a first page shorter than asked is the whole list, whatever pages and results it claims', async () => {
    // Every later page answers as the first (a server clamping the page number): before, each was taken for more rows, 200 pages a read.
    const { client, asked } = await listServer(3, 100, () => CLAIMED, { results: CLAIMED * 100, page: () => ({ n: 1 }) });
    expect(ids(await fetchAllPages<{ id: number }>(client, '/things'))).toEqual(range(3));
    expect(asked).toEqual([1]);
  });

  it('a page answering for another page number is past the end', async () => {
    const { client, asked } = await listServer(200, 100, () => CLAIMED, { results: CLAIMED * 100, page: (n) => ({ n: Math.min(n, 2) }) });
    expect(ids(await fetchAllPages<{ id: number }>(client, '/things'))).toEqual(range(200));
    expect(asked.length).toBeLessThanOrEqual(1 + 4 + 1);
  });

  it('no page is asked for more than a few past the last full one in order, however fast the later ones answer', async () => {
    // Page 2 is slow, every other page full and quick: the others must not run on while it is out.
    const { client, asked } = await listServer(Number.MAX_SAFE_INTEGER, 100, () => CLAIMED, { page: (n) => ({ n, delayMs: n === 2 ? 300 : 0 }) });
    const reading = fetchAllPages(client, '/things');
    await new Promise((r) => setTimeout(r, 200));
    expect(Math.max(...asked)).toBeLessThanOrEqual(1 + 4);
    expect(await reading).toHaveLength(MAX_PAGES * 100);
  });
});
