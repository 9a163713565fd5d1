import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreScreens } from '../../app/fixtures.js';
import type { RunningService } from '../../../src/server/service.js';
import { startTestService } from '../../helpers/service.js';
import { ENTER, ESC, jumpTo, renderApp, sendInputAndWait, waitForContent } from '../../helpers/ink.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

async function openArea(name: string, rows = 24) {
  const r = renderApp({ screens: coreScreens, svc, rows });
  await waitForContent(r.lastFrame, 'Regions');
  await jumpTo(r, name, /^› /m);
  return r;
}

describe('regions', () => {
  it('lists the regions with their status and capabilities', async () => {
    const r = await openArea('regions');
    const frame = await waitForContent(r.lastFrame, '7 items');
    expect(frame).toMatch(/ID\s+Country\s+Status\s+Capabilities\s+Resolvers \(IPv4\)/);
    expect(frame).toMatch(/› us-east\s+us\s+ok\s+VMs, NodeBalancers/);
    expect(frame).toMatch(/ap-northeast\s+jp\s+outage/);
  });

  it('filters, then Enter shows the detail in sections', async () => {
    const r = await openArea('regions');
    await waitForContent(r.lastFrame, '7 items');
    r.stdin.write('/');
    await waitForContent(r.lastFrame, /^\//m);
    await sendInputAndWait(r.stdin, 'eu-', r.lastFrame, '2 of 7');
    r.stdin.write(ENTER);
    await waitForContent(r.lastFrame, /^\/eu-/m);
    const detail = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Capabilities\n');
    expect(detail).toMatch(/^eu-west/m);
    expect(detail).toMatch(/^Region\n.*id +eu-west\n.*country +uk\n.*status +ok/m);
    expect(detail).toMatch(/resolvers\.ipv4 +203\.0\.113/);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, '2 of 7');
  });
});

describe('types', () => {
  it('shows sizes and prices, and sorts numerically by memory', async () => {
    const r = await openArea('types', 30);
    const frame = await waitForContent(r.lastFrame, '9 items');
    expect(frame).toMatch(/ID\s+Label\s+Class\s+CPUs\s+Memory\s+Disk\s+\$\/month/);
    // M is messages everywhere: Memory takes the next letter of its title, E.
    r.stdin.write('E');
    const sorted = await waitForContent(r.lastFrame, 'sorted by Memory ▲');
    const memory = sorted
      .split('\n')
      .filter((l) => /^[› ] \S+-/.test(l))
      .map((l) => Number(/(\d+) GB\s+\d+ GB/.exec(l)![1]));
    expect(memory.length).toBe(9);
    expect(memory).toEqual([...memory].sort((a, b) => a - b));
  });
});
