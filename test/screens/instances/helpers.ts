import type { RunningService } from '../../../src/server/service.js';
import { jumpTo as jump, press, renderApp, select, type App, type AppOptions } from '../../helpers/ink.js';

export { jumpTo as jump, press, select, wait, type App } from '../../helpers/ink.js';

/** A whole ink test walks many frames; on a loaded machine that outlasts the default 20 s. */
export const SLOW_TEST_MS = 60_000;

/** The whole app on the service, 120 columns so every column shows. */
export const app = (svc: RunningService, opts: AppOptions = {}): App => renderApp({ svc, rows: 30, cols: 120, ...opts });

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** From the instances list to one of the instance's lists, through its actions menu (D, C or K). */
export async function openPart(r: App, label: string, part: 'disks' | 'configs' | 'backups') {
  await jump(r, 'instances', label);
  await select(r, label);
  await press(r, 'a', `Actions: ${label}`);
  return press(r, { disks: 'D', configs: 'C', backups: 'K' }[part], new RegExp(`${escape(label)} › ${part}\\n[\\s\\S]*\\d+ items?`));
}
