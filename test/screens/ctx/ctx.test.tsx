import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { ENTER, ESC, jumpTo, press, renderApp, wait, type App } from '../../helpers/ink.js';
import { addInstance } from '../../helpers/networking.js';
import { OWNER_TOKEN, startTestService } from '../../helpers/service.js';

let one: RunningService;
let two: RunningService;
/** A port nothing listens on: an account whose service is down. */
let closedPort: number;
beforeAll(async () => {
  [one, two] = await Promise.all([startTestService(), startTestService()]);
  addInstance(one, { label: 'alpha-web' });
  addInstance(two, { label: 'beta-db' });
  addInstance(two, { label: 'beta-web' });
  closedPort = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
});
afterAll(async () => {
  apps.forEach((r) => r.unmount());
  await Promise.all([one.close(), two.close()]);
});

const apps: App[] = [];
const profile = (svc: RunningService) => ({ apiUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN });
const open = () => {
  const profiles = {
    one: profile(one),
    two: profile(two),
    down: { apiUrl: `http://127.0.0.1:${closedPort}/v4`, token: OWNER_TOKEN },
  };
  const r = renderApp({ svc: one, rows: 24, cols: 120, session: { profileName: 'one' }, accounts: { profiles, current: 'one' } });
  apps.push(r);
  return r;
};
const header = (frame: string) => frame.split('\n')[0] ?? '';

describe(':ctx', { timeout: 60_000 }, () => {
  it('lists the saved profiles; Enter switches to another account without restarting, and its data is shown', async () => {
    const r = open();
    await jumpTo(r, 'instances', /alpha-web/);
    await jumpTo(r, 'ctx', /^› ● one\s.*current/m);
    expect(r.lastFrame()).toMatch(/two\s+http:\/\/127\.0\.0\.1:\d+\/v4\s+saved profile/);
    await press(r, '/', /Enter keep/);
    await press(r, 'two', (f) => !/one\s+http/.test(f));
    await press(r, ENTER, /Enter open/);
    await press(r, ENTER, (f) => /profile two/.test(header(f)) && /Now on two/.test(f));
    // The previous account's cache went with it: the list comes from the other service.
    await jumpTo(r, 'instances', /beta-web/);
    expect(r.lastFrame()).not.toMatch(/alpha-web/);
    expect(r.ctx.client).not.toBe(r.accounts!.getState().ctx.client);
  });

  it('a failed connection is a message, and the app stays on the account it was on', async () => {
    const r = open();
    await jumpTo(r, 'ctx', /● one/);
    await press(r, '/', /Enter keep/);
    await press(r, 'down', (f) => !/one\s+http/.test(f));
    await press(r, ENTER, /Enter open/);
    await press(r, ENTER, /Cannot switch to down: .*still on one/);
    expect(header(r.lastFrame())).toMatch(/profile one/);
    await press(r, ESC, /^home/m);
    await jumpTo(r, 'instances', /alpha-web/);
  });
});

describe(':all', { timeout: 60_000 }, () => {
  it('lists every account\'s instances with an Account column; a failing account has its own row; Enter opens the item in its account', async () => {
    const r = open();
    await jumpTo(r, 'all instances', (f) => /^\s*one\s+alpha-web/m.test(f) && /^\s*two\s+beta-db/m.test(f) && /two\s+beta-web/.test(f) && /down\s+could not load: /.test(f));
    expect(r.lastFrame()).toMatch(/3 items · 3 accounts · 1 failed/);
    await press(r, '/', /Enter keep/);
    await press(r, ' beta-web', (f) => !/beta-db/.test(f));
    await press(r, ENTER, /Enter open/);
    await press(r, 'G', /› two\s+beta-web/);
    await press(r, ENTER, (f) => /profile two/.test(header(f)) && /home › instances › beta-web/.test(f));
  });
});
