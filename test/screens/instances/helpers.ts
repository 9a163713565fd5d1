import type { RunningService } from '../../../src/server/service.js';
import { ENTER, renderApp, sendInputAndWait, waitForContent, type AppOptions } from '../../helpers/ink.js';

export type App = ReturnType<typeof renderApp>;

/** The whole app on the service, 120 columns so every column of the lists shows. */
export function app(svc: RunningService, opts: AppOptions = {}): App {
  return renderApp({ svc, rows: 30, cols: 120, ...opts });
}

/** `:name` Enter, then waits for `expected`. */
export async function jump(r: App, name: string, expected: string | RegExp) {
  r.stdin.write(':');
  await waitForContent(r.lastFrame, /^:/m);
  r.stdin.write(name);
  await waitForContent(r.lastFrame, `:${name}`);
  return sendInputAndWait(r.stdin, ENTER, r.lastFrame, expected);
}

/** Selects the one row matching `text` by filtering the list to it (`/text` Enter). */
export async function select(r: App, text: string) {
  await sendInputAndWait(r.stdin, '/', r.lastFrame, /^\//m);
  r.stdin.write(text);
  await waitForContent(r.lastFrame, /\b1 of \d+/);
  return sendInputAndWait(r.stdin, ENTER, r.lastFrame, new RegExp(`^/${escape(text)} .*\\n(.*\\n)?› .*${escape(text)}`, 'm'));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
