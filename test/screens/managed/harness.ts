import type { ScreenDef } from '../../../src/app/screen.js';
import events from '../../../src/screens/events/index.js';
import home from '../../../src/screens/home/index.js';
import instances from '../../../src/screens/instances/index.js';
import managed from '../../../src/screens/managed/index.js';
import type { RunningService } from '../../../src/server/service.js';
import { afterAll, afterEach } from 'vitest';
import { jumpTo, renderApp, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';

/** The areas these tests cross: managed and events, home to start from (few areas: few counts to load). */
export const SCREENS = [...home, ...managed, ...events];
/** With the instances area, for jumps to an instance. */
export const WITH_INSTANCES = [...SCREENS, ...instances];

const mounted: { unmount(): void }[] = [];

/** Unmounts every app the tests rendered (their refresh timers stop); for afterEach. */
export function unmountAll(): void {
  for (const r of mounted.splice(0)) r.unmount();
}

/** The app on the demo account, opened on an area through `:` as a user would. */
export async function openArea(
  svc: RunningService,
  name: string,
  expected: string | RegExp | ((frame: string) => boolean),
  opts: { rows?: number; cols?: number; screens?: ScreenDef[]; token?: string } = {},
) {
  const r = renderApp({ screens: opts.screens ?? SCREENS, svc, rows: opts.rows ?? 30, cols: opts.cols ?? 100, token: opts.token });
  mounted.push(r);
  await waitForContent(r.lastFrame, 'Triage');
  await jumpTo(r, name, expected);
  return r;
}

/**
 * Serves once what the views fetch first, so the first render of a test file
 * does not pay the service's cold start against the test client's short timeout.
 */
export async function warmUp(svc: RunningService): Promise<void> {
  for (const path of ['/profile', '/profile/tokens', '/managed/services', '/managed/issues', '/managed/stats', '/managed/contacts', '/account/events']) {
    await call(svc, 'GET', path);
  }
}

/** The provider's side: open or resolve issues, emit events (POST /__control/…). */
export const control = (svc: RunningService, path: string, body: unknown = {}) => call(svc, 'POST', `/__control${path}`, { body });

/** The breadcrumbs line. */
export const crumbs = (frame: string) => frame.split('\n')[1] ?? '';

/** The demo account for a test file: started and warmed up once, closed after the file; the apps a test rendered are unmounted after it. */
export async function demoAccount(): Promise<RunningService> {
  const svc = await startTestService({ seed: 'demo' });
  await warmUp(svc);
  afterAll(() => svc.close());
  afterEach(unmountAll);
  return svc;
}
