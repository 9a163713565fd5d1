import { ApiClient } from '../../../src/api/client.js';
import type { ScreenDef } from '../../../src/app/screen.js';
import home from '../../../src/screens/home/index.js';
import objects from '../../../src/screens/objects/index.js';
import type { RunningService } from '../../../src/server/service.js';
import { ENTER, renderApp, sendInputAndWait, waitForContent, type AppOptions } from '../../helpers/ink.js';
import { OWNER_TOKEN } from '../../helpers/service.js';

/** Test steps shared by the object storage and the images/scripts/tags suites. */

export type App = ReturnType<typeof renderApp>;
type Expected = Parameters<typeof waitForContent>[1];

/** Generous: the suites share two cores with other work; a passing wait returns as soon as the frame matches. */
const TIMEOUT_MS = 15_000;

/** The app on the service with these screens (the home view first), wide enough for every column. */
export function appWith(screens: ScreenDef[], svc: RunningService, opts: AppOptions = {}): App {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: opts.token ?? OWNER_TOKEN, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
  return renderApp({ svc, client, rows: 30, cols: 120, screens: [...home, ...screens], ...opts });
}

export const app = (svc: RunningService, opts: AppOptions = {}) => appWith(objects, svc, opts);

export const wait = (r: App, expected: Expected) => waitForContent(r.lastFrame, expected, TIMEOUT_MS);

/** Writes keys (send Esc on its own), then waits for the frame to show `expected`. */
export const press = (r: App, keys: string, expected: Expected) => sendInputAndWait(r.stdin, keys, r.lastFrame, expected, TIMEOUT_MS);

/** Waits until the frame no longer shows `text` (a dialog closed). */
export const gone = (r: App, text: string) => wait(r, (f) => !f.includes(text));

/** `:name` Enter, then waits for `expected`. */
export async function jump(r: App, name: string, expected: Expected) {
  await press(r, ':', /^:$/m);
  await press(r, name, new RegExp(`^:${name}$`, 'm'));
  return press(r, ENTER, expected);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Selects the one row matching `text` by filtering the list to it (`/text` Enter). */
export async function select(r: App, text: string) {
  await press(r, '/', /Enter keep/);
  await press(r, text, /\b1 of \d+/);
  await press(r, ENTER, /Enter open/);
  return wait(r, new RegExp(`^› .*${escape(text)}`, 'm'));
}
