import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, RESTRICTED_TOKEN, startTestService } from '../../helpers/service.js';
import { jump, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe(':grants', () => {
  it('says plainly that no grants apply to an unrestricted user (the service answers 204)', async () => {
    expect((await call(svc, 'GET', '/profile/grants')).status).toBe(204);
    const r = renderOn(svc);
    const frame = await jump(r, 'grants', 'Unrestricted user: no grants apply.');
    expect(frame).not.toContain('Account access');
    r.unmount();
  });

  it('lists a restricted user’s account-wide and per-entity grants', async () => {
    const { body: grants } = await call(svc, 'GET', '/profile/grants', { token: RESTRICTED_TOKEN });
    expect(grants.vm.length).toBeGreaterThan(0);
    const r = renderOn(svc, { token: RESTRICTED_TOKEN, rows: 40, cols: 100 });
    const frame = await jump(r, 'grants', /Entities \(\d+\)/);
    expect(frame).toContain('Restricted user: limited to the grants below.');
    expect(frame).toMatch(/Account access\s+read_only/);
    expect(frame).toMatch(/May create\s+nothing/);
    const entities = ['vm', 'nodebalancer', 'image', 'stackscript'].flatMap((k) => grants[k] as { id: number; label: string; permissions: string }[]);
    expect(frame).toContain(`Entities (${entities.length})`);
    for (const vm of grants.vm as { id: number; label: string; permissions: string }[]) {
      expect(frame).toMatch(new RegExp(`Instance\\s+${vm.id}\\s+${vm.label}\\s+${vm.permissions}`));
    }
    const [lb] = grants.nodebalancer as { id: number; label: string }[];
    expect(frame).toMatch(new RegExp(`Load balancer\\s+${lb!.id}\\s+${lb!.label}\\s+read_only`));
    expect(frame).toContain('None on domains, Longview clients, volumes.');
    r.unmount();
  });
});
