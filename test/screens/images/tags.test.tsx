import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('tags', () => {
  it('lists what carries a tag, and Enter opens the instance or load balancer', async () => {
    const r = app(svc);
    await jump(r, 'tags', '14 items');
    await select(r, 'web');
    await press(r, ENTER, /home › tags › web › tagged/);
    const tagged = await wait(r, '5 items');
    expect(tagged).toMatch(/instance\s+41001\s+web-1\s+running\s+us-east\s+web, production/);
    expect(tagged).toMatch(/load balancer\s+31001\s+web-lb\s+us-east/);
    await select(r, 'web-lb');
    await press(r, ENTER, /home › tags › web › tagged › web-lb › /);
    await press(r, ESC, /^home › tags › web › tagged$/m);
    await press(r, ESC, '5 items');
    await select(r, 'staging-web');
    await press(r, ENTER, /home › tags › web › tagged › staging-web › /);
  });

  it('creates a tag on picked instances, then deletes it after the confirm (Cancel first keeps it)', async () => {
    const r = app(svc);
    await jump(r, 'tags', '14 items');
    await press(r, 'c', 'New tag');
    await press(r, 'bl', /✗ must be 3\.\.50 characters/);
    await press(r, 'ue-team', /› Label \*\s+blue-team\s*$/m);
    await wait(r, /Instances\s+— none \(Enter chooses\) —/);
    await press(r, TAB, /› Instances/);
    await press(r, ENTER, 'Instances: Enter toggles, Esc done');
    await press(r, ENTER, /\[x\] web-1 \(41001\)/);
    await press(r, DOWN, /› \[ \] web-2/);
    await press(r, ENTER, /\[x\] web-2 \(41002\)/);
    await press(r, ESC, /› Instances\s+41001, 41002/);
    await press(r, TAB, /Instances\s+web-1 \(41001\)/);
    await press(r, CTRL_S, /Created tag blue-team/);
    await wait(r, '15 items');
    // The new tag is selected: Enter would open it.
    await wait(r, /^› blue-team/m);
    const vm = (await call(svc, 'GET', '/vm/instances/41002')).body;
    expect(vm.tags).toContain('blue-team');

    await select(r, 'blue-team');
    await press(r, ENTER, '2 items');
    expect(r.lastFrame()).toMatch(/instance\s+41002\s+web-2/);
    await press(r, ESC, /1 of 15/);
    await press(r, CTRL_D, /Delete the tag blue-team\? It is removed from every instance and load/);
    r.stdin.write(ENTER);
    await gone(r, 'Delete the tag blue-team');
    expect((await call(svc, 'GET', '/tags/blue-team')).status).toBe(200);
    await press(r, CTRL_D, /Delete the tag blue-team/);
    await press(r, TAB, /Delete/);
    await press(r, ENTER, /Delete blue-team: done/);
    await wait(r, /0 of 14|Nothing matches/);
    expect((await call(svc, 'GET', '/vm/instances/41002')).body.tags).not.toContain('blue-team');
  });

  it('shows the service refusing a label that exists beside the field', async () => {
    const r = app(svc);
    await jump(r, 'tags', /1\d items/);
    await press(r, 'c', 'New tag');
    await press(r, 'production', /production/);
    await press(r, CTRL_S, /Label \*\s+production\s+✗ A tag labeled production already exists/);
  });
});
