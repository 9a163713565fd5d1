import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createAppContext } from '../../src/app/context.js';
import { ALERTS_KEPT, HAPPENINGS_KEPT, createAlertsStore } from '../../src/store/alerts.js';
import { LISTS_KEPT, createDataStore, queryKey, type ListQuery } from '../../src/store/data.js';

/* What a session left open for days keeps stays bounded by what it holds, not by how long it ran. */

const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'unused-token-0123456789', retryDelaysMs: [] });

describe('caches of a long session', () => {
  it('the data store keeps at most LISTS_KEPT lists: the least recently read off screen go, those on screen stay', async () => {
    const store = createDataStore({ client });
    const list = (i: number): ListQuery => ({ path: `/things/${i}`, load: async () => [{ id: i }] });
    const onScreen = list(0);
    store.getState().watch(onScreen);
    for (let i = 0; i < LISTS_KEPT + 50; i++) await store.getState().load(list(i));
    const kept = Object.keys(store.getState().lists);
    expect(kept.length).toBeLessThanOrEqual(LISTS_KEPT);
    expect(kept).toContain(queryKey(onScreen));
    expect(kept).toContain(queryKey(list(LISTS_KEPT + 49)));
    expect(kept).not.toContain(queryKey(list(1)));
    // A list dropped is read again when asked for.
    expect(await store.getState().rows(list(1))).toEqual([{ id: 1 }]);
  });

  it('the data store holds nothing per list it has dropped: six thousand lists read once leave the heap as a thousand do', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heapAfterGc = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const store = createDataStore({ client });
    // Long paths: a key kept per list read would show as megabytes, well above the heap's noise.
    const list = (i: number): ListQuery => ({ path: `/things/${i}/${'x'.repeat(1_500)}`, load: async () => [] });
    const read = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        await store.getState().load(list(i));
        await store.getState().countList(list(i));
      }
    };
    await read(0, 1_000);
    const before = heapAfterGc();
    await read(1_000, 7_000);
    // Six thousand keys of 1,500-odd characters kept would be some 9 MB.
    expect(heapAfterGc() - before).toBeLessThan(1_500_000);
    expect(Object.keys(store.getState().lists).length).toBeLessThanOrEqual(LISTS_KEPT);
  }, 60_000);

  it('alerts: the list, its unread count and the happenings remembered stay bounded; a happening still remembered never alerts twice', () => {
    const alerts = createAlertsStore();
    const subject = { type: 'linode', id: 1, label: 'web-1' };
    for (let i = 0; i < HAPPENINGS_KEPT + 1_000; i++) alerts.getState().raise(`down:1:${i}`, 'down', `web-1 went down (${i})`, subject);
    expect(alerts.getState().alerts).toHaveLength(ALERTS_KEPT);
    expect(alerts.getState().unread).toBe(ALERTS_KEPT);
    expect(alerts.getState().raise(`down:1:${HAPPENINGS_KEPT + 999}`, 'down', 'again', subject)).toBeUndefined();
    expect(alerts.getState().raise(`down:1:1500`, 'down', 'again', subject)).toBeUndefined();
    // The oldest happenings are forgotten first.
    expect(alerts.getState().raise('down:1:0', 'down', 'again', subject)).toBeDefined();
  });

  it('the view state of a screen left (popped, or jumped away from) is dropped; those on the stack stay', () => {
    const ctx = createAppContext({ client, screens: [], session: { endpoint: client.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 } });
    for (let round = 0; round < 100; round++) {
      ctx.nav.getState().jump('instances');
      ctx.nav.getState().push('overview', { id: String(round) });
      for (const e of ctx.nav.getState().stack) ctx.views.getState().update(e.key, { selectedIndex: round });
      ctx.nav.getState().pop();
    }
    const stack = ctx.nav.getState().stack.map((e) => String(e.key));
    expect(Object.keys(ctx.views.getState().views).sort()).toEqual(stack.sort());
    expect(ctx.views.getState().get(ctx.nav.getState().stack[1]!.key).selectedIndex).toBe(99);
  });
});
