import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { RunningService } from '../../../src/server/service.js';
import { watchAuditCount } from '../../../src/screens/audit/header-count.js';
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

describe("the header's count of high findings", () => {
  it('is worked out from what views cached, before :audit is opened, and sends nothing of its own', async () => {
    const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [] });
    const data = createDataStore({ client });
    const session = createSessionStore({ endpoint: svc.baseUrl, embedded: false, readOnly: false, refreshSeconds: 5 });
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
});
