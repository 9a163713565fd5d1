import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { ENTER, jumpTo, press, renderApp, select, wait } from '../../helpers/ink.js';
import { openPart } from '../instances/helpers.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

/** Deployed instances `<prefix>-1`…, then stopped. */
async function stopped(prefix: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const res = await call(svc, 'POST', '/vm/instances', { body: { label: `${prefix}-${i}`, region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' } });
    expect(res.status).toBe(200);
    await call(svc, 'POST', `/__control/vm/instances/${res.body.id}/status`, { body: { status: 'offline' } });
    ids.push(res.body.id);
  }
  return ids;
}

describe('jobs in the app', { timeout: 60_000 }, () => {
  it('a boot the service fails ends "failed" with its reason, and :jobs lists it; Enter opens the instance', async () => {
    const [id] = await stopped('jfail', 1);
    const rule = await call(svc, 'POST', '/__control/faults', { body: { method: 'POST', path: `/v4/vm/instances/${id}/boot`, action: 'error', status: 500, reason: 'host on fire' } });
    try {
      const r = renderApp({ svc, rows: 30, cols: 120 });
      await jumpTo(r, 'vm jfail-', /^› jfail-1/m);
      await press(r, 'a', 'Boot');
      await press(r, 'b', /Boot jfail-1 failed: HTTP 500: host on fire/);
      // Said once: the job's end is the request's failure, already on the message line.
      expect(r.ctx.session.getState().messages.filter((m) => m.text.includes('host on fire'))).toHaveLength(1);
      const list = await jumpTo(r, 'jobs', /failed .*Boot of jfail-1 failed/);
      expect(list).toMatch(/1 job this session · 0 under way/);
      await press(r, ENTER, /jfail-1/);
      await wait(r, (f) => !f.includes('Started') && f.includes('jfail-1'));
    } finally {
      await call(svc, 'DELETE', `/__control/faults/${rule.body.id}`);
    }
  });

  it('a bulk boot is one job with its count, counted in the header while under way', async () => {
    await stopped('jbulk', 2);
    const r = renderApp({ svc, rows: 30, cols: 120 });
    await jumpTo(r, 'vm jbulk-', /^› jbulk-1/m);
    await press(r, ' ', '1 marked');
    await press(r, ' ', '2 marked');
    await press(r, 'a', 'Actions: 2 marked items');
    await press(r, 'b', 'For these 2 items');
    // No live poller in this harness: the job waits for its events, and the header says so.
    await press(r, '\x1b[C', /\[ Boot \]/);
    const sent = await press(r, ENTER, 'Boot: 2 of 2 succeeded');
    expect(sent).toContain('1 under way');
    await jumpTo(r, 'jobs', /Booting 2 instances ▶ 0\/2 done/);
  });

  it('a disk clone is a job about its instance, named by the disk; refused for want of room, it ends failed', async () => {
    await stopped('jdisk', 1);
    const r = renderApp({ svc, rows: 30, cols: 120 });
    await openPart(r, 'jdisk-1', 'disks');
    await select(r, 'Debian 12 Disk');
    await press(r, 'a', /Actions: Debian 12 Disk[\s\S]*c Clone disk/);
    await press(r, 'c', /copied byte for byte/);
    await press(r, '\t', /\[ Clone disk \]/);
    // The plan's disk is full: the service refuses the copy.
    await press(r, ENTER, /Clone disk Debian 12 Disk failed: HTTP 400: Not enough storage/);
    await jumpTo(r, 'jobs', /failed +Disk clone of Debian 12 Disk failed: HTTP 400: Not enough storage/);
  });
});
