import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, ENTER, ESC, jumpTo, press, renderApp, wait, type App } from '../../helpers/ink.js';

const SPACE = ' ';
const RIGHT = '\x1b[C';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

/** Instances named `<prefix>-1`…: offline and empty, or deployed from an image (running at once at instant speed). */
async function instances(prefix: string, n: number, deployed = false): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  const image = deployed ? { image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' } : {};
  for (let i = 1; i <= n; i++) {
    const res = await call(svc, 'POST', '/vm/instances', { body: { label: `${prefix}-${i}`, region: 'us-east', type: 'g6-nanode-1', ...image } });
    expect(res.status).toBe(200);
    ids[`${prefix}-${i}`] = res.body.id;
  }
  return ids;
}

/** The requests the service answered since `since` (an entry id of its journal). */
async function journal(since: number): Promise<{ id: number; method: string; path: string; status: number | null }[]> {
  return (await call(svc, 'GET', `/__control/requests?since=${since}&limit=1000`)).body.data;
}
const latest = async () => (await call(svc, 'GET', '/__control/requests?limit=1')).body.latest as number;

/** The instances list filtered to one prefix, every row of it marked. */
async function markAll(prefix: string, n: number): Promise<App> {
  const r = renderApp({ svc, rows: 30, cols: 110 });
  await jumpTo(r, `vm ${prefix}-`, new RegExp(`^› ${prefix}-1`, 'm'));
  for (let i = 1; i <= n; i++) await press(r, SPACE, `${i} marked`);
  return r;
}

describe('bulk actions on marked rows', { timeout: 60_000 }, () => {
  it('Ctrl-D with marks: one confirm lists them, the count is typed, each is deleted once; a second Enter starts nothing', async () => {
    const ids = await instances('del', 4);
    const r = await markAll('del', 3);
    const confirm = await press(r, CTRL_D, 'Type 3 to confirm');
    expect(confirm).toMatch(/Delete: 3 items/);
    for (const label of ['del-1', 'del-2', 'del-3']) expect(confirm).toContain(`• ${label}`);
    expect(confirm).not.toContain('del-4');
    // Enter on the default button cancels; nothing is sent.
    const since = await latest();
    await press(r, ENTER, (f) => !f.includes('Type 3 to confirm') && f.includes('3 marked'));
    await press(r, CTRL_D, 'Type 3 to confirm');
    await press(r, '2\r', 'Type 3 exactly to confirm');
    await press(r, '\x7f', (f) => !f.includes('exactly'));
    await press(r, `3${ENTER}${ENTER}`, 'Delete: 3 of 3 succeeded');
    const frame = await wait(r, (f) => !f.includes('del-1') && f.includes('del-4'));
    expect(frame).not.toContain('marked');
    const deletes = (await journal(since)).filter((e) => e.method === 'DELETE');
    expect(deletes.map((e) => e.path).sort()).toEqual(['del-1', 'del-2', 'del-3'].map((l) => `/v4/vm/instances/${ids[l]}`).sort());
    expect((await call(svc, 'GET', `/vm/instances/${ids['del-4']}`)).status).toBe(200);
  });

  it('a failure keeps its row marked with the reason beside it; the others go; nothing is retried', async () => {
    const ids = await instances('flaky', 3);
    const rule = await call(svc, 'POST', '/__control/faults', { body: { method: 'DELETE', path: `/v4/vm/instances/${ids['flaky-2']}`, action: 'error', status: 503, reason: 'host under maintenance' } });
    expect(rule.status).toBe(200);
    try {
      const r = await markAll('flaky', 3);
      const since = await latest();
      await press(r, CTRL_D, 'Type 3 to confirm');
      await press(r, `3${ENTER}`, /Delete: 2 of 3 succeeded, 1 failed/);
      const frame = await wait(r, (f) => !f.includes('flaky-1') && f.includes('1 marked'));
      expect(frame).toMatch(/Not done/);
      expect(frame).toMatch(/● flaky-2 .*HTTP 503: host under maintenance/);
      const deletes = (await journal(since)).filter((e) => e.method === 'DELETE');
      expect(deletes).toHaveLength(3);
      // Ctrl-\ clears the marks and the reasons.
      const cleared = await press(r, '\x1c', (f) => !f.includes('Not done'));
      expect(cleared).not.toContain('marked');
    } finally {
      await call(svc, 'DELETE', `/__control/faults/${rule.body.id}`);
    }
  });

  it('an action skips the rows it does not apply to, names them in the confirm and sends nothing for them', async () => {
    const ids = await instances('mixed', 2, true);
    await call(svc, 'POST', `/__control/vm/instances/${ids['mixed-1']}/status`, { body: { status: 'offline' } });
    const r = await markAll('mixed', 2);
    const menu = await press(r, 'a', 'Actions: 2 marked items');
    expect(menu).toContain('Boot (1 of 2)');
    expect(menu).toContain('Shut down (1 of 2)');
    expect(menu).toMatch(/Delete\b/);
    const since = await latest();
    const confirm = await press(r, 'b', 'Skipped, not sent (1):');
    expect(confirm).toContain('• mixed-1');
    expect(confirm).toMatch(/mixed-2: boot does not apply to it now/);
    // Boot can be undone: no count to type.
    expect(confirm).not.toContain('Type 1');
    await press(r, RIGHT, /\[ Boot \]/);
    await press(r, ENTER, 'Boot: 1 of 1 succeeded');
    const sent = (await journal(since)).filter((e) => e.method === 'POST');
    expect(sent.map((e) => e.path)).toEqual([`/v4/vm/instances/${ids['mixed-1']}/boot`]);
    // The skipped row stays marked, saying why.
    expect(await wait(r, /● mixed-2 .*skipped: boot does not apply to it now/)).toContain('1 marked');
  });

  it('Esc stops a run: what was sent is awaited and counted, the rest is never sent and stays marked', async () => {
    const ids = await instances('slow', 8);
    const rule = await call(svc, 'POST', '/__control/faults', { body: { method: 'DELETE', path: '/v4/vm/instances/*', action: 'latency', latency_ms: 1500 } });
    try {
      const r = await markAll('slow', 8);
      const since = await latest();
      await press(r, CTRL_D, 'Type 8 to confirm');
      await press(r, `8${ENTER}`, 'Deleting 0/8…');
      // Ctrl-C stops the run rather than quitting the app.
      await press(r, '\x03', 'Stopping');
      const done = await wait(r, /Delete stopped: 4 of 8 succeeded, 4 not started/);
      expect(r.quits()).toBe(0);
      expect(done).toMatch(/4 marked/);
      const deletes = (await journal(since)).filter((e) => e.method === 'DELETE');
      expect(deletes.map((e) => e.path).sort()).toEqual(['slow-1', 'slow-2', 'slow-3', 'slow-4'].map((l) => `/v4/vm/instances/${ids[l]}`).sort());
      expect(await wait(r, /● slow-8 .*not started/)).toBeTruthy();
    } finally {
      await call(svc, 'DELETE', `/__control/faults/${rule.body.id}`);
    }
  });

  it('a bulk form is filled once and sent for each marked item (add a tag)', async () => {
    const ids = await instances('tagme', 2);
    const r = await markAll('tagme', 2);
    await press(r, 'a', 'Actions: 2 marked items');
    await press(r, 'T', 'Add a tag: 2 marked items');
    await press(r, 'blue-team', 'blue-team');
    const confirm = await press(r, CTRL_S, 'Add a tag: 2 items');
    expect(confirm).toContain('• tagme-1');
    await press(r, RIGHT, /\[ Add a tag \]/);
    await press(r, ENTER, 'Add a tag: 2 of 2 succeeded');
    for (const id of Object.values(ids)) expect((await call(svc, 'GET', `/vm/instances/${id}`)).body.tags).toEqual(['blue-team']);
    await wait(r, /tagme-1 .*blue-team/);
  });

  it('Esc in the bulk menu goes back to the list with the marks kept', async () => {
    await instances('keep', 2);
    const r = await markAll('keep', 2);
    await press(r, 'a', 'Actions: 2 marked items');
    const frame = await press(r, ESC, (f) => !f.includes('Actions:'));
    expect(frame).toContain('2 marked');
  });
});
