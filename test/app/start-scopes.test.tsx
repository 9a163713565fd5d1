import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { RunningService } from '../../src/server/service.js';
import { startTestService } from '../helpers/service.js';
import { tokenWithScopes } from '../helpers/networking.js';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { TIMEOUT_MS, renderApp, waitForContent } from '../helpers/ink.js';
import { coreScreens } from './fixtures.js';

const SCOPES = 'vms:read_only account:read_only';

let svc: RunningService;
let token: string;
/** Passes answers on without X-OAuth-Scopes, as a server that never sends it. */
let quiet: RecordingProxy;
beforeAll(async () => {
  svc = await startTestService();
  token = tokenWithScopes(svc, SCOPES);
  quiet = await startRecordingProxy(svc.origin);
});
afterAll(async () => {
  await quiet.close();
  await svc.close();
});

type Started = ReturnType<typeof renderApp>;

/** Until the start's search for the scopes is over; the token list, when it was read, has answered by then. */
async function scopesSettled(r: Started) {
  await waitForContent(r.lastFrame, () => r.ctx.session.getState().scopesSettled);
  return r.ctx.session.getState().scopes;
}

const tokenReads = (r: Started) => r.ctx.client.requests.entries().filter((e) => e.path === '/profile/tokens');

describe("the token's scopes at start", () => {
  it('from a server that sends X-OAuth-Scopes: its first answer says them, and the token list is not read', async () => {
    const r = renderApp({ screens: coreScreens, svc, token });
    expect(await scopesSettled(r)).toBe(SCOPES);
    await waitForContent(r.lastFrame, 'demo-owner');
    expect(tokenReads(r)).toEqual([]);
    r.unmount();
  });

  it('from a server that does not: the token list says them', async () => {
    const client = new ApiClient({ baseUrl: quiet.base, betaUrl: quiet.beta, token, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
    const r = renderApp({ screens: coreScreens, svc, client });
    expect(await scopesSettled(r)).toBe(SCOPES);
    expect(tokenReads(r)).toHaveLength(1);
    expect(quiet.seen.filter((s) => s.url.startsWith('/v4/profile/tokens'))).toHaveLength(1);
    r.unmount();
  });
});
