import { ApiClient } from '../../../src/api/client.js';
import type { RunningService } from '../../../src/server/service.js';
import { ENTER, renderApp, sendInputAndWait, waitForContent, type AppOptions } from '../../helpers/ink.js';
import { OWNER_TOKEN } from '../../helpers/service.js';

export type App = ReturnType<typeof renderApp>;
type Expected = Parameters<typeof waitForContent>[1];

/** Generous: the suites share two cores with other work; a passing wait returns as soon as the frame matches. */
const TIMEOUT_MS = 10_000;

/** A whole ink test walks many frames; on a loaded machine that outlasts the default 20 s. */
export const SLOW_TEST_MS = 60_000;

/**
 * The whole app on the service, 120 columns so every column shows. The
 * client's timeout is generous for the same reason as the waits.
 */
export function app(svc: RunningService, opts: AppOptions = {}): App {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
  return renderApp({ svc, client, rows: 30, cols: 120, ...opts });
}

export const wait = (r: App, expected: Expected) => waitForContent(r.lastFrame, expected, TIMEOUT_MS);

/** Writes keys (send Esc on its own), then waits for the frame to show `expected`. */
export const press = (r: App, keys: string, expected: Expected) => sendInputAndWait(r.stdin, keys, r.lastFrame, expected, TIMEOUT_MS);

/** `:name` Enter, then waits for `expected`. */
export async function jump(r: App, name: string, expected: Expected) {
  await press(r, ':', /^:/m);
  await press(r, name, `:${name}`);
  return press(r, ENTER, expected);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Selects the one row matching `text` by filtering the list to it (`/text` Enter); Esc clears the filter later. */
export async function select(r: App, text: string) {
  await press(r, '/', /^\//m);
  await press(r, text, /\b1 of \d+/);
  await press(r, ENTER, /Esc back\s+Enter open/);
  return wait(r, new RegExp(`^› .*${escape(text)}`, 'm'));
}

/** From the instances list to one of the instance's lists, through its actions menu (D, C or K). */
export async function openPart(r: App, label: string, part: 'disks' | 'configs' | 'backups') {
  await jump(r, 'instances', label);
  await select(r, label);
  await press(r, 'a', `Actions: ${label}`);
  return press(r, { disks: 'D', configs: 'C', backups: 'K' }[part], new RegExp(`${escape(label)} › ${part}\\n[\\s\\S]*\\d+ items?`));
}
