import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { RunningService } from '../../../src/server/service.js';
import { EVENTS_PATH } from '../../../src/api/events.js';
import { INSTANCES_PATH } from '../../../src/api/instances.js';
import { REGIONS_PATH } from '../../../src/api/regions.js';
import { SETTLE_MS, watchAuditCount } from '../../../src/screens/audit/header-count.js';
import { PROFILE_QUERY } from '../../../src/screens/profile/use-object.js';
import { createDataStore } from '../../../src/store/data.js';
import { createSessionStore } from '../../../src/store/session.js';
import { OWNER_TOKEN, call, startTestService } from '../../helpers/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const latest = async () => (await call(svc, 'GET', '/__control/requests?limit=1')).body.latest as number;
const until = async (ok: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

const stores = () => {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [] });
  return { data: createDataStore({ client }), session: createSessionStore({ endpoint: svc.baseUrl, embedded: false, readOnly: false, refreshSeconds: 5 }) };
};

describe("the header's count of high findings", () => {
  it('is worked out from what views cached, before :audit is opened, and sends nothing of its own', async () => {
    const { data, session } = stores();
    const stop = watchAuditCount(data, session);
    try {
      // A view reads the profile: two-factor authentication is off, a high finding.
      await data.getState().load(PROFILE_QUERY);
      const since = await latest();
      await until(() => session.getState().auditHigh !== undefined);
      expect(session.getState().auditHigh).toBe(1);
      const sent = (await call(svc, 'GET', `/__control/requests?since=${since}&limit=100`)).body.data as { path: string }[];
      expect(sent.filter((e) => !e.path.startsWith('/__control'))).toEqual([]);
    } finally {
      stop();
    }
  });

  it('is worked out again when a list the rules read changes, not when another one does', async () => {
    // Only the settling wait is faked: the lists are read over HTTP as ever.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { data, session } = stores();
    let passes = 0;
    // Each pass sets the count, and nothing else here touches the session.
    const unsubscribe = session.subscribe(() => void passes++);
    const stop = watchAuditCount(data, session);
    try {
      await data.getState().load(PROFILE_QUERY);
      await vi.advanceTimersByTimeAsync(SETTLE_MS);
      expect(passes).toBe(1);
      // Regions and events: no rule reads them.
      await data.getState().load({ path: REGIONS_PATH });
      await data.getState().load({ path: EVENTS_PATH });
      await vi.advanceTimersByTimeAsync(SETTLE_MS);
      expect(passes).toBe(1);
      // The instances, as the audit reads them.
      await data.getState().load({ path: INSTANCES_PATH, flawed: 'mark' });
      await vi.advanceTimersByTimeAsync(SETTLE_MS);
      expect(passes).toBe(2);
    } finally {
      stop();
      unsubscribe();
      vi.useRealTimers();
    }
  });
});
