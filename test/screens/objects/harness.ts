import type { ScreenDef } from '../../../src/app/screen.js';
import home from '../../../src/screens/home/index.js';
import objects from '../../../src/screens/objects/index.js';
import type { RunningService } from '../../../src/server/service.js';
import { renderApp, wait, type App, type AppOptions } from '../../helpers/ink.js';

export { jumpTo as jump, press, select, wait, type App } from '../../helpers/ink.js';

/** Test steps shared by the object storage and the images/scripts/tags suites. */

/** The app on the service with these screens (the home view first), wide enough for every column. */
export const appWith = (screens: ScreenDef[], svc: RunningService, opts: AppOptions = {}): App =>
  renderApp({ svc, rows: 30, cols: 120, screens: [...home, ...screens], ...opts });

export const app = (svc: RunningService, opts: AppOptions = {}) => appWith(objects, svc, opts);

/** Waits until the frame no longer shows `text` (a dialog closed). */
export const gone = (r: App, text: string) => wait(r, (f) => !f.includes(text));

