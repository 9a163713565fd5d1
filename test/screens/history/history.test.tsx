import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { ENTER, ESC, jumpTo, press, renderApp, wait } from '../../helpers/ink.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('an item\'s history', { timeout: 60_000 }, () => {
  it('shows a change another client made between two refreshes, with its events; two points picked show the diff', async () => {
    const made = await call(svc, 'POST', '/vm/instances', { body: { label: 'hist-1', region: 'us-east', type: 'g6-nanode-1' } });
    expect(made.status).toBe(200);
    const r = renderApp({ svc, rows: 30, cols: 130 });
    await jumpTo(r, 'vm hist-', /^› hist-1/m);
    // Another client renames and tags it; the app sees it at its next refresh.
    expect((await call(svc, 'PUT', `/vm/instances/${made.body.id}`, { body: { label: 'hist-2', tags: ['web'] } })).status).toBe(200);
    await press(r, 'r', /^› hist-2/m);
    const timeline = await press(r, 'h', /changed .*label: hist-1 → hist-2 · tags: \+ web/);
    expect(timeline).toMatch(/first seen .*as the app first read it/);
    expect(timeline).toMatch(/1 changes seen since/);
    // The account's events about it: its creation and the update, with who did it.
    expect(await wait(r, /vm_create/)).toMatch(/vm_update/);

    // The two sightings picked: the record's diff.
    await press(r, ' ', /● \d{4}-/);
    // Events and sightings of the same second may come in either order: down to the first sighting.
    for (let i = 0; i < 4 && !/^› .*first seen/m.test(r.lastFrame()); i++) {
      const before = r.lastFrame();
      await press(r, 'j', (f) => f !== before);
    }
    await wait(r, /^› .*first seen/m);
    await press(r, ' ', /(● \d{4}-[^\n]*\n[^]*){2}/);
    const diff = await press(r, ENTER, /^From .* to .*\(Esc closes\)/m);
    expect(diff).toMatch(/^label: hist-1 → hist-2$/m);
    expect(diff).toMatch(/^tags: \+ web$/m);
    expect(diff).not.toMatch(/^updated:/m);
    await press(r, ESC, /hist-2 · 1 changes seen/);
  });

  it("an instance's overview has a History part, and h on any of its lines opens the instance's timeline", async () => {
    expect((await call(svc, 'POST', '/vm/instances', { body: { label: 'histo-1', region: 'us-east', type: 'g6-nanode-1' } })).status).toBe(200);
    const r = renderApp({ svc, rows: 30, cols: 130 });
    await jumpTo(r, 'vm histo-', /^› histo-1/m);
    await press(r, ENTER, /^› Instance/m);
    expect(await wait(r, /History +its events and the changes of its fields/)).toBeTruthy();
    const timeline = await press(r, 'h', /histo-1 · .* · Space picks two points/);
    expect(timeline).toMatch(/^home › instances › histo-1 › overview › history$/m);
    // The instance as the instances list showed it: the timeline is the instance's, not the overview line's.
    expect(timeline).toMatch(/first seen +as the app first read it/);
    expect(await wait(r, /finished +demo-owner +vm_create/)).toBeTruthy();
    await press(r, '\x1b', /^› Instance/m);
    await press(r, 'jjjj', /^› History/m);
    await press(r, ENTER, /History of histo-1|histo-1 · .* Space picks/);
  });
});
