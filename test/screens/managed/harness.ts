import events from '../../../src/screens/events/index.js';
import home from '../../../src/screens/home/index.js';
import instances from '../../../src/screens/instances/index.js';
import managed from '../../../src/screens/managed/index.js';
import type { RunningService } from '../../../src/server/service.js';
import { jumpTo, renderApp, waitForContent } from '../../helpers/ink.js';
import { call } from '../../helpers/service.js';

/** The areas these tests cross: managed and events, instances to jump to, home to start from. */
export const SCREENS = [...home, ...managed, ...events, ...instances];

const mounted: { unmount(): void }[] = [];

/** Unmounts every app the tests rendered (their refresh timers stop); for afterEach. */
export function unmountAll(): void {
  for (const r of mounted.splice(0)) r.unmount();
}

/** The app on the demo account, opened on an area through `:` as a user would. */
export async function openArea(svc: RunningService, name: string, expected: string | RegExp | ((frame: string) => boolean), size: { rows?: number; cols?: number } = {}) {
  const r = renderApp({ screens: SCREENS, svc, rows: size.rows ?? 30, cols: size.cols ?? 100 });
  mounted.push(r);
  await waitForContent(r.lastFrame, 'Triage');
  await jumpTo(r, name, expected);
  return r;
}

/** The provider's side: open or resolve issues, emit events (POST /__control/…). */
export const control = (svc: RunningService, path: string, body: unknown = {}) => call(svc, 'POST', `/__control${path}`, { body });

/** The breadcrumbs line. */
export const crumbs = (frame: string) => frame.split('\n')[1] ?? '';
