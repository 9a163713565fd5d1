import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, jump, wait, SLOW_TEST_MS } from './helpers.js';

let svc: RunningService;
beforeAll(async () => {
  // Realistic speed: provisioning takes seconds, so the list first shows it under way.
  svc = await startTestService({ speed: 'realistic' });
});
afterAll(() => svc.close());

it('shows a provisioning instance become running through the background refresh, without a key press', { timeout: SLOW_TEST_MS }, async () => {
  const res = await call(svc, 'POST', '/vm/instances', {
    body: { label: 'fresh', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' },
  });
  expect(res.body.status).toBe('provisioning');
  const r = app(svc, { session: { refreshSeconds: 2 } });
  await jump(r, 'instances', /fresh\s+provisioning/);
  // Skip the simulated minutes: provisioning, then the boot it starts, are due now.
  svc.sim.advance(60_000);
  expect((await call(svc, 'GET', `/vm/instances/${res.body.id}`)).body.status).toBe('running');
  await wait(r, /fresh\s+running/);
});
