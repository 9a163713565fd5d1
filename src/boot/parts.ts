import { fileURLToPath } from 'node:url';
import { runBundle } from './code-cache.js';

/** Defined (true) by the build: this code runs from dist/, not from the sources. */
declare const VMTUI_BUNDLE: true | undefined;

/** A bundle beside this one in dist/ (the build writes every bundle there). */
const bundle = <T>(name: string) => Promise.resolve(runBundle(fileURLToPath(new URL(`./${name}.js`, import.meta.url))) as T);

// Each check stands in its function so that the build drops the branch it does not take, and with it the sources' modules.

/** The terminal UI (React, Ink and the screens). */
export const loadApp = (): Promise<typeof import('../app/start.js')> => (typeof VMTUI_BUNDLE === 'undefined' ? import('../app/start.js') : bundle('app'));

/** The service: `vmtui serve` and the embedded demo. */
export const loadService = (): Promise<typeof import('../server/index.js')> => (typeof VMTUI_BUNDLE === 'undefined' ? import('../server/index.js') : bundle('service'));

/** True in the build, where the embedded service runs in a thread of its own (tsx cannot load TypeScript in a worker on Node 20). */
export const servicesInThreads = (): boolean => typeof VMTUI_BUNDLE !== 'undefined';
