import { ApiClient } from '../../../src/api/client.js';
import type { RunningService } from '../../../src/server/service.js';
import { jumpTo, renderApp, waitForContent, type AppOptions } from '../../helpers/ink.js';
import { OWNER_TOKEN } from '../../helpers/service.js';

type Frame = () => string;

/** First loads wait for the service in the same busy process: allow them time. */
export const LOAD_MS = 15_000;

/**
 * The whole app on the service, with a client that waits as long as the
 * shared test machine may need (the default fails a request after 2 s).
 */
export function renderOn(svc: RunningService, opts: Omit<AppOptions, 'svc' | 'client'> = {}) {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: opts.token ?? OWNER_TOKEN, retryDelaysMs: [], timeoutMs: LOAD_MS });
  return renderApp({ ...opts, svc, client });
}

/** jumpTo, then the first load given the time it may need; resolves with the frame showing `expected`. */
export async function jump(r: { stdin: { write(s: string): void }; lastFrame: Frame }, name: string, expected: string | RegExp | ((f: string) => boolean)) {
  await jumpTo(r, name, (f) => !/^:/m.test(f));
  return waitForContent(r.lastFrame, expected, LOAD_MS);
}

export const RIGHT = '\x1b[C';
export const CTRL_U = '\x15';
export const CTRL_E = '\x05';
export const CTRL_A = '\x01';

/** A real key made by ssh-keygen, and the fingerprint ssh-keygen -l printed for it. */
export const TEST_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEzho2bL1IU2pdIZyPw4PW4i4oNdbY0lAeiA+j78AtZs test@host';
export const TEST_KEY_FINGERPRINT = 'SHA256:gvyigYROed1H9SaglJ6WYTQOmlTUzCMAQqWjfe0IuFU';

/** The frame without styles, for sentences a style change may cut in two. */
export const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, '');
