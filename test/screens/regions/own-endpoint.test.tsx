import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreScreens } from '../../app/fixtures.js';
import type { RunningService } from '../../../src/server/service.js';
import { startTestService } from '../../helpers/service.js';
import { ENTER, jumpTo, renderApp, sendInputAndWait, waitForContent } from '../../helpers/ink.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('the detail of a row', () => {
  it('is read from its own endpoint (GET /regions/{id}), so it shows what is current', async () => {
    const r = renderApp({ screens: coreScreens, svc, rows: 24 });
    const read: string[] = [];
    const get = r.ctx.client.get.bind(r.ctx.client);
    r.ctx.client.get = ((path: string, opts?: object) => (read.push(path), get(path, opts))) as typeof get;
    await waitForContent(r.lastFrame, 'Regions');
    await jumpTo(r, 'regions', /^› /m);
    await waitForContent(r.lastFrame, '7 items');
    // Changed behind the list's back: the detail shows the change.
    svc.store.put('region', 'us-east', { ...svc.store.get('region', 'us-east')!, country: 'zz' });
    const detail = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /country +zz/);
    expect(detail).not.toMatch(/Could not load/);
    expect(read).toContain('/regions/us-east');
  });
});
