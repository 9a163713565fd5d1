import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { createDataStore, queryKey, whole, type ListQuery } from '../../src/store/data.js';

/** A client whose pages wait to be answered by hand, counting every request. */
function handClient() {
  const waiting: { path: string; page: number; pageSize: number; resolve: (v: unknown) => void }[] = [];
  const sent: string[] = [];
  const client = {
    page: (path: string, opts: { page: number; pageSize: number }) =>
      new Promise((resolve) => {
        sent.push(path);
        waiting.push({ path, page: opts.page, pageSize: opts.pageSize, resolve });
      }),
  } as unknown as ApiClient;
  const answer = (path: string, data: unknown[], pages = 1) => {
    const i = waiting.findIndex((w) => w.path === path);
    if (i < 0) throw new Error(`No request for ${path} is waiting (${waiting.map((w) => w.path).join(', ')})`);
    const [w] = waiting.splice(i, 1);
    w!.resolve({ data, page: w!.page, pages, results: data.length * pages });
  };
  return { client, waiting, sent, answer };
}

const settled = () => new Promise((r) => setTimeout(r, 5));

/** A store whose refresh interval the test sets: 0 makes every cached list stale, Infinity none. */
function store() {
  const c = handClient();
  let maxAge = Infinity;
  const data = createDataStore({ client: c.client, maxAge: () => maxAge });
  return { ...c, data, setMaxAge: (ms: number) => (maxAge = ms) };
}

const THINGS: ListQuery = { path: '/things' };

async function cached(s: ReturnType<typeof store>, q: ListQuery, rows: unknown[]) {
  const first = s.data.getState().load(q);
  s.answer(q.path, rows);
  await first;
}

describe('the read rule of the data store', () => {
  it('sends no read for a list younger than the refresh interval', async () => {
    const s = store();
    s.setMaxAge(60_000);
    await cached(s, THINGS, ['a']);
    await s.data.getState().load(THINGS);
    expect(await s.data.getState().rows(THINGS)).toEqual(['a']);
    expect(s.sent).toEqual(['/things']);
  });

  it('answers an older list from the cache at once and reads it again behind, replacing the rows only when the answer is in', async () => {
    const s = store();
    await cached(s, THINGS, ['a', 'b']);
    s.setMaxAge(0);
    const unwatch = s.data.getState().watch(THINGS);
    // Resolves before any answer: the caller draws the cached rows now.
    await s.data.getState().load(THINGS);
    const key = queryKey(THINGS);
    expect(s.data.getState().lists[key]).toMatchObject({ status: 'ready', rows: ['a', 'b'], refreshing: true, revalidating: true });
    expect(s.sent).toEqual(['/things', '/things']);
    // A second reader meanwhile joins the read under way.
    expect(await s.data.getState().rows(THINGS)).toEqual(['a', 'b']);
    expect(s.sent).toHaveLength(2);
    s.answer('/things', ['c']);
    await settled();
    expect(s.data.getState().lists[key]).toMatchObject({ rows: ['c'], refreshing: false, revalidating: false });
    unwatch();
  });

  it('a list not on screen read again behind does not say the screen is being refreshed', async () => {
    const s = store();
    await cached(s, THINGS, ['a']);
    s.setMaxAge(0);
    await s.data.getState().load(THINGS);
    expect(s.data.getState().lists[queryKey(THINGS)]).toMatchObject({ refreshing: true, revalidating: false });
  });

  it('starts a dependent read the moment what it depends on is cached, not a round trip later', async () => {
    const s = store();
    await cached(s, THINGS, [{ id: 1 }, { id: 2 }]);
    const parts = (async () => {
      const things = (await s.data.getState().rows(THINGS)) as { id: number }[];
      return Promise.all(things.map((t) => s.data.getState().rows({ path: `/things/${t.id}/parts` })));
    })();
    await settled();
    // Both parts lists are asked for without any answer having come in.
    expect(s.waiting.map((w) => w.path)).toEqual(['/things/1/parts', '/things/2/parts']);
    s.answer('/things/2/parts', ['y']);
    s.answer('/things/1/parts', ['x']);
    expect(await parts).toEqual([['x'], ['y']]);
  });

  it("a loader shows what it has while the first read runs, and a refresh shows nothing until it is whole", async () => {
    const s = store();
    let release: (rows: unknown[]) => void = () => {};
    const q: ListQuery = {
      path: '/joined',
      load: (_c, io) => {
        io.show(['own']);
        return new Promise((r) => (release = r));
      },
    };
    const key = queryKey(q);
    const first = s.data.getState().load(q);
    expect(s.data.getState().lists[key]).toMatchObject({ status: 'ready', rows: ['own'], partial: true });
    expect(whole(s.data.getState().lists[key])).toBe(false);
    // A reader of the list (a search, a count, a loader joining it) gets it whole, not the part on screen.
    let read: unknown[] | undefined;
    void s.data.getState().rows(q).then((rows) => (read = rows));
    await settled();
    expect(read).toBeUndefined();
    release(['own', 'related']);
    await first;
    expect(s.data.getState().lists[key]!.rows).toEqual(['own', 'related']);
    expect(whole(s.data.getState().lists[key])).toBe(true);
    await settled();
    expect(read).toEqual(['own', 'related']);
    const again = s.data.getState().load(q, true);
    // The refresh's partial rows would be fewer than those on screen: not shown.
    expect(s.data.getState().lists[key]!.rows).toEqual(['own', 'related']);
    release(['own', 'related', 'more']);
    await again;
    expect(s.data.getState().lists[key]!.rows).toEqual(['own', 'related', 'more']);
  });

  it("a count reads the list's first page and caches a list it holds whole; a load meanwhile waits for it instead of asking again", async () => {
    const s = store();
    const count = s.data.getState().countList(THINGS);
    const load = s.data.getState().load(THINGS);
    expect(s.waiting).toHaveLength(1);
    expect(s.waiting[0]).toMatchObject({ page: 1, pageSize: 100 });
    s.answer('/things', ['a', 'b']);
    expect(await count).toBe(2);
    await load;
    expect(s.data.getState().lists[queryKey(THINGS)]).toMatchObject({ status: 'ready', rows: ['a', 'b'] });
    expect(s.sent).toEqual(['/things']);
    // Counted again from the cache while it is fresh.
    expect(await s.data.getState().countList(THINGS)).toBe(2);
    expect(s.sent).toHaveLength(1);
  });

  it('a count whose first page was asked for before a change does not land as the list: the next read asks again', async () => {
    const s = store();
    s.setMaxAge(60_000);
    const count = s.data.getState().countList(THINGS);
    // A create while the page is on its way: what the page holds is from before it.
    s.data.getState().invalidate('/things');
    s.answer('/things', ['before']);
    expect(await count).toBe(1);
    await settled();
    expect(s.data.getState().lists[queryKey(THINGS)]).toBeUndefined();
    const load = s.data.getState().load(THINGS);
    s.answer('/things', ['before', 'created']);
    await load;
    expect(s.data.getState().lists[queryKey(THINGS)]!.rows).toEqual(['before', 'created']);
    expect(s.sent).toEqual(['/things', '/things']);
  });

  it('a count of a list longer than a page caches nothing: the list reads all its pages', async () => {
    const s = store();
    const count = s.data.getState().countList(THINGS);
    s.answer('/things', ['a'], 3);
    expect(await count).toBe(3);
    await settled();
    expect(s.data.getState().lists[queryKey(THINGS)]).toBeUndefined();
  });

  it('a loader reads the lists it joins from the cache the first time and again on a refresh; an input read behind it updates it', async () => {
    const s = store();
    s.setMaxAge(60_000);
    await cached(s, THINGS, ['a']);
    const joined: ListQuery = { path: '/joined', load: async (_c, io) => (await io!.read(THINGS)).map((t) => `${t}!`) };
    const key = queryKey(joined);
    const unwatch = s.data.getState().watch(joined);
    await s.data.getState().load(joined);
    expect(s.data.getState().lists[key]!.rows).toEqual(['a!']);
    expect(s.sent).toEqual(['/things']);
    // r: the joined list is read again.
    const again = s.data.getState().refresh(joined);
    await settled();
    expect(s.sent).toEqual(['/things', '/things']);
    s.answer('/things', ['b']);
    await again;
    expect(s.data.getState().lists[key]!.rows).toEqual(['b!']);
    // Its input found stale by another reader and read again behind: the joined list follows without a request of its own.
    s.setMaxAge(0);
    await s.data.getState().load(THINGS);
    s.setMaxAge(60_000);
    s.answer('/things', ['c']);
    await settled();
    expect(s.data.getState().lists[key]!.rows).toEqual(['c!']);
    expect(s.sent).toHaveLength(3);
    unwatch();
  });
});
