import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreScreens } from './fixtures.js';
import type { RunningService } from '../../src/server/service.js';
import { call, startTestService } from '../helpers/service.js';
import { ESC, jumpTo, renderApp, waitForContent } from '../helpers/ink.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('the header while cached rows are read again', () => {
  it('a list older than the refresh interval is drawn from the cache at once, the header saying it is being refreshed until the answer is in', async () => {
    const r = renderApp({ screens: coreScreens, svc, rows: 24, session: { refreshSeconds: 2 } });
    await jumpTo(r, 'regions', /7 items/);
    r.stdin.write(ESC);
    await waitForContent(r.lastFrame, /^home$/m);
    const held = await call(svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4/regions', action: 'latency', latency_ms: 1500 } });
    try {
      // Older than the 2 s interval: read again when shown.
      await new Promise((done) => setTimeout(done, 2100));
      await jumpTo(r, 'regions', /refreshing data \ds old/);
      expect(r.lastFrame()).toMatch(/7 items/);
      await waitForContent(r.lastFrame, (f: string) => !f.includes('refreshing data'));
      expect(r.lastFrame()).toMatch(/7 items/);
    } finally {
      await call(svc, 'DELETE', `/__control/faults/${held.body.id}`);
    }
  });
});
