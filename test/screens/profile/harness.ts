import type { RunningService } from '../../../src/server/service.js';
import { renderApp, type AppOptions } from '../../helpers/ink.js';

export { jumpTo as jump } from '../../helpers/ink.js';

/** The whole app on the service. */
export const renderOn = (svc: RunningService, opts: Omit<AppOptions, 'svc' | 'client'> = {}) => renderApp({ ...opts, svc });

export const RIGHT = '\x1b[C';
export const CTRL_U = '\x15';
export const CTRL_E = '\x05';
export const CTRL_A = '\x01';

/** A real key made by ssh-keygen, and the fingerprint ssh-keygen -l printed for it. */
export const TEST_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEzho2bL1IU2pdIZyPw4PW4i4oNdbY0lAeiA+j78AtZs test@host';
export const TEST_KEY_FINGERPRINT = 'SHA256:gvyigYROed1H9SaglJ6WYTQOmlTUzCMAQqWjfe0IuFU';

/** The frame without styles, for sentences a style change may cut in two. */
export const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, '');
