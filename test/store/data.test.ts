import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { createDataStore, queryKey } from '../../src/store/data.js';
import { createNavStore } from '../../src/store/nav.js';
import { createSessionStore } from '../../src/store/session.js';

/** A client whose pages are answered by hand, to see every intermediate state. */
function fakeClient() {
  const waiting: { path: string; page: number; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const client = {
    page: (path: string, opts: { page: number }) => new Promise((resolve, reject) => waiting.push({ path, page: opts.page, resolve, reject })),
  } as unknown as ApiClient;
  const answer = (page: number, pages: number, data: unknown[]) => {
    const i = waiting.findIndex((w) => w.page === page);
    const [w] = waiting.splice(i, 1);
    w!.resolve({ data, page, pages, results: pages * data.length });
  };
  const fail = (page: number, err: unknown) => {
    const i = waiting.findIndex((w) => w.page === page);
    waiting.splice(i, 1)[0]!.reject(err);
  };
  return { client, waiting, answer, fail };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
// Later pages reach the screen at most every 100 ms.
const frame = () => new Promise((r) => setTimeout(r, 120));

/** A cached list no view shows, then a change to its path. */
function outdatedList() {
  const f = fakeClient();
  const store = createDataStore({ client: f.client });
  const q = { path: '/vm/instances' };
  store.getState().put(q, ['before']);
  store.getState().invalidate('/vm/instances');
  return { f, store, q };
}

describe('data store', () => {
  it('shows the first page at once, then the rest in order with progress', async () => {
    const f = fakeClient();
    let loaded = 0;
    const store = createDataStore({ client: f.client, concurrency: 2, onLoaded: () => loaded++ });
    const q = { path: '/things' };
    const key = queryKey(q);
    const done = store.getState().load(q);
    expect(store.getState().lists[key]!.status).toBe('loading');
    f.answer(1, 3, ['a']);
    await tick();
    expect(store.getState().lists[key]).toMatchObject({ status: 'ready', rows: ['a'], progress: { loaded: 1, total: 3 } });
    expect(f.waiting.map((w) => w.page)).toEqual([2, 3]);
    f.answer(3, 3, ['c']);
    await frame();
    // Page 3 waits for page 2: rows stay in order.
    expect(store.getState().lists[key]).toMatchObject({ rows: ['a'], progress: { loaded: 2, total: 3 } });
    f.answer(2, 3, ['b']);
    await done;
    expect(store.getState().lists[key]).toMatchObject({ status: 'ready', rows: ['a', 'b', 'c'], progress: undefined });
    expect(loaded).toBe(1);
  });

  it('keeps the rows on screen while refreshing, and after a failed refresh shows the error beside them', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client });
    const q = { path: '/things' };
    const key = queryKey(q);
    const first = store.getState().load(q);
    f.answer(1, 1, ['a']);
    await first;
    const again = store.getState().refresh(q);
    expect(store.getState().lists[key]).toMatchObject({ rows: ['a'], refreshing: true });
    // A second refresh joins the running one.
    expect(store.getState().refresh(q)).toBe(again);
    f.fail(1, new ApiError('http', 'HTTP 500: broken', 500));
    await again;
    expect(store.getState().lists[key]).toMatchObject({ status: 'ready', rows: ['a'], refreshing: false, error: 'HTTP 500: broken' });
  });

  it('a failed first load is an error state; a later load tries again', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client });
    const q = { path: '/things' };
    const p = store.getState().load(q);
    f.fail(1, new ApiError('http', 'Not permitted: needs vms:read_only', 403));
    await p;
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ status: 'error', errorStatus: 403 });
    const retry = store.getState().load(q);
    f.answer(1, 1, ['x']);
    await retry;
    expect(store.getState().lists[queryKey(q)]!.rows).toEqual(['x']);
  });

  it('invalidation refetches watched lists under the prefix and outdates the others without a request', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client });
    const shown = { path: '/nodebalancers' };
    const hidden = { path: '/nodebalancers/1/configs' };
    const other = { path: '/regions' };
    store.getState().put(shown, ['lb']);
    store.getState().put(hidden, ['cfg']);
    store.getState().put(other, ['r']);
    const unwatch = store.getState().watch(shown);
    store.getState().invalidate('/nodebalancers');
    expect(f.waiting.map((w) => w.path)).toEqual(['/nodebalancers']);
    expect(store.getState().lists[queryKey(hidden)]).toMatchObject({ rows: ['cfg'], outdated: true, refreshing: false });
    // Changed again, nothing under way: left as it is (the poller's changes come every few seconds).
    const outdated = store.getState().lists[queryKey(hidden)];
    store.getState().invalidate('/nodebalancers/1');
    expect(store.getState().lists[queryKey(hidden)]).toBe(outdated);
    expect(store.getState().lists[queryKey(other)]!.rows).toEqual(['r']);
    expect(store.getState().lists[queryKey(shown)]).toMatchObject({ rows: ['lb'], refreshing: true });
    unwatch();
    // /nodebalancersX is not under /nodebalancers.
    store.getState().put({ path: '/nodebalancersX' }, ['y']);
    store.getState().invalidate('/nodebalancers');
    expect(store.getState().lists[queryKey({ path: '/nodebalancersX' })]).toBeDefined();
  });

  it('an outdated list is shown with its rows when a view comes back to it and read again behind them; a reader waits for that read', async () => {
    const { f, store, q } = outdatedList();
    // The view comes back: its rows at once, the read under way.
    const unwatch = store.getState().watch(q);
    const viewLoad = store.getState().load(q);
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ status: 'ready', rows: ['before'], refreshing: true, revalidating: true });
    let read: unknown[] | undefined;
    const reader = store.getState().rows(q).then((rows) => (read = rows));
    await tick();
    expect(read).toBeUndefined();
    expect(f.waiting).toHaveLength(1);
    f.answer(1, 1, ['after']);
    await Promise.all([viewLoad, reader]);
    expect(read).toEqual(['after']);
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ rows: ['after'], outdated: false, refreshing: false });
    unwatch();
  });

  it('an outdated list whose read fails keeps its rows for the view and fails its readers', async () => {
    const { f, store, q } = outdatedList();
    const reader = store.getState().rows(q);
    f.fail(1, new ApiError('http', 'HTTP 503: down', 503));
    await expect(reader).rejects.toThrow(/HTTP 503: down/);
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ status: 'ready', rows: ['before'], outdated: true });
  });

  it('a read under way when a change outdates its list does not land; one of a list left while it ran is outdated when it lands', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client });
    const q = { path: '/vm/instances' };
    store.getState().put(q, ['old']);
    void store.getState().load(q, true);
    store.getState().invalidate('/vm/instances');
    f.answer(1, 1, ['from before the change']);
    await tick();
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ rows: ['old'], outdated: true });
    // Watched while read, changed, then left before the answer: the answer lands, known to be from before the change.
    const unwatch = store.getState().watch(q);
    const load = store.getState().load(q);
    store.getState().invalidate('/vm/instances');
    unwatch();
    f.answer(1, 1, ['read before the second change']);
    await load;
    await tick();
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ rows: ['read before the second change'], outdated: true });
    expect(f.waiting).toHaveLength(0);
  });

  it('a list not yet read whole when a change touches it is dropped', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client, concurrency: 1 });
    const q = { path: '/vm/instances' };
    void store.getState().load(q);
    f.answer(1, 2, ['a']);
    await frame();
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ status: 'ready', progress: { loaded: 1, total: 2 } });
    store.getState().invalidate('/vm/instances');
    expect(store.getState().lists[queryKey(q)]).toBeUndefined();
  });

  it('invalidation during a fetch fetches once more after it, instead of starting over', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client, concurrency: 1 });
    const q = { path: '/vm/instances' };
    store.getState().watch(q);
    const first = store.getState().load(q);
    f.answer(1, 2, ['a']);
    await tick();
    store.getState().invalidate('/vm/instances');
    store.getState().invalidate('/vm/instances');
    expect(f.waiting.map((w) => w.page)).toEqual([2]);
    f.answer(2, 2, ['b']);
    await first;
    await tick();
    expect(store.getState().lists[queryKey(q)]).toMatchObject({ rows: ['a', 'b'], refreshing: true });
    expect(f.waiting.map((w) => w.page)).toEqual([1]);
  });

  it('ignores the answer of a fetch that was superseded', async () => {
    const f = fakeClient();
    const store = createDataStore({ client: f.client });
    const q = { path: '/things' };
    const first = store.getState().load(q);
    const second = store.getState().load(q, true);
    const [old, fresh] = f.waiting;
    fresh!.resolve({ data: ['new'], page: 1, pages: 1, results: 1 });
    await second;
    old!.resolve({ data: ['old'], page: 1, pages: 1, results: 1 });
    await first;
    expect(store.getState().lists[queryKey(q)]!.rows).toEqual(['new']);
  });

  it('swaps fetched rows in by id; a row read again unchanged keeps its object, and a list with nothing changed keeps its rows', () => {
    const store = createDataStore({ client: fakeClient().client });
    const q = { path: '/vm/instances' };
    const rows = [
      { id: 1, status: 'booting', specs: { vcpus: 1 } },
      { id: 2, status: 'running', specs: { vcpus: 2 } },
      { id: 3, status: 'running', specs: { vcpus: 4 } },
    ];
    store.getState().put(q, rows);
    const before = store.getState().lists[queryKey(q)]!;
    // Still booting, read again (a new object with the same fields), and a record of no row of the list.
    store.getState().replaceRows('/vm/instances', [{ id: 1, status: 'booting', specs: { vcpus: 1 } } as never, { id: 9 }]);
    expect(store.getState().lists[queryKey(q)]).toBe(before);
    store.getState().replaceRows('/vm/instances', [{ id: 1, status: 'running', specs: { vcpus: 1 } } as never, { id: 2, status: 'running', specs: { vcpus: 2 } } as never], [3]);
    const after = store.getState().lists[queryKey(q)]!.rows;
    expect(after).toEqual([{ id: 1, status: 'running', specs: { vcpus: 1 } }, rows[1]]);
    expect(after[1]).toBe(rows[1]);
  });

  it('counts: loading, value, error text with the status', async () => {
    const store = createDataStore({ client: fakeClient().client });
    let finish!: (n: number) => void;
    const p = store.getState().loadCount('vms', () => new Promise((r) => (finish = r)));
    expect(store.getState().counts.vms).toEqual({ status: 'loading' });
    finish(42);
    await p;
    expect(store.getState().counts.vms).toEqual({ status: 'ready', value: 42 });
    await store.getState().loadCount('lbs', () => Promise.reject(new ApiError('http', 'Not permitted: needs nodebalancers:read_only', 403)));
    expect(store.getState().counts.lbs).toEqual({ status: 'error', error: '403 Not permitted: needs nodebalancers:read_only' });
  });

  it('counts an area once at a time: a load while one is on its way, forced or not, takes its answer', async () => {
    const store = createDataStore({ client: fakeClient().client });
    const finish: ((n: number) => void)[] = [];
    const count = () => new Promise<number>((r) => finish.push(r));
    const first = store.getState().loadCount('vms', count);
    const forced = store.getState().loadCount('vms', count, true);
    expect(finish).toHaveLength(1);
    finish[0]!(7);
    await Promise.all([first, forced]);
    expect(store.getState().counts.vms).toEqual({ status: 'ready', value: 7 });
    // Once it is done, a forced load counts again.
    const again = store.getState().loadCount('vms', count, true);
    expect(finish).toHaveLength(2);
    finish[1]!(8);
    await again;
    expect(store.getState().counts.vms).toEqual({ status: 'ready', value: 8 });
  });
});

describe('session store', () => {
  it('marks only what the known scopes do not allow', () => {
    const s = createSessionStore({ endpoint: 'x', embedded: false, readOnly: false, refreshSeconds: 5 });
    expect(s.getState().missingScope('vms:read_write')).toBeNull();
    s.setState({ scopes: 'vms:read_only account:read_write' });
    expect(s.getState().missingScope('vms:read_write')).toBe('needs vms:read_write');
    expect(s.getState().missingScope('vms:read_only')).toBeNull();
    expect(s.getState().missingScope('account:read_only')).toBeNull();
    // Several scopes (IP assignment needs ips and vms write): each one missing is named.
    expect(s.getState().missingScope('ips:read_write vms:read_write')).toBe('needs ips:read_write and vms:read_write');
    expect(s.getState().missingScope('account:read_write vms:read_write')).toBe('needs vms:read_write');
    s.setState({ scopes: '*' });
    expect(s.getState().missingScope('firewall:read_write')).toBeNull();
  });

  it('notify sets the message line', () => {
    const s = createSessionStore({ endpoint: 'x', embedded: false, readOnly: false, refreshSeconds: 5 });
    s.getState().notify('Deleted', 'success');
    expect(s.getState().message).toMatchObject({ text: 'Deleted', kind: 'success' });
  });
});

describe('nav store', () => {
  it('pushes, pops and jumps with params and labels', () => {
    const nav = createNavStore('home');
    nav.getState().push('nodebalancers');
    nav.getState().push('lb-configs', { nbId: '7' }, 'lb-web');
    expect(nav.getState().stack.map((e) => [e.screen, e.params, e.label])).toEqual([
      ['home', {}, undefined],
      ['nodebalancers', {}, undefined],
      ['lb-configs', { nbId: '7' }, 'lb-web'],
    ]);
    expect(nav.getState().pop()).toBe(true);
    // A jump is a step of the history: Esc comes back to where it was made.
    nav.getState().jump('regions');
    expect(nav.getState().stack.map((e) => e.screen)).toEqual(['home', 'nodebalancers', 'regions']);
    const balancers = nav.getState().stack[1]!.key;
    // A screen already on the path is gone back to, its entry (and view state) kept.
    nav.getState().jump('nodebalancers');
    expect(nav.getState().stack.map((e) => e.key)).toEqual([0, balancers]);
    nav.getState().jump('regions');
    expect(nav.getState().pop()).toBe(true);
    expect(nav.getState().stack.map((e) => e.screen)).toEqual(['home', 'nodebalancers']);
    nav.getState().jump('home');
    expect(nav.getState().stack.map((e) => e.screen)).toEqual(['home']);
    expect(nav.getState().pop()).toBe(false);
  });
});
