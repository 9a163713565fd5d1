import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, ENTER, ESC, sendInputAndWait } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { RIGHT, jump, plain, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const count = async (path: string) => (await call(svc, 'GET', path)).body.results as number;

describe('apps, devices, logins', () => {
  it(':apps revokes an app after a confirm (Cancel first keeps it)', async () => {
    const r = renderOn(svc, { cols: 110 });
    const frame = await jump(r, 'apps', 'Grafana Monitoring');
    expect(frame).toMatch(/Terraform Cloud\s+vms:read_write.*https:\/\/terraform\.ex.*\s+\d{4}-\d\d-\d\d\s+never/);
    await sendInputAndWait(r.stdin, 'G', r.lastFrame, /› Grafana Monitoring/);
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Revoke Grafana Monitoring');
    expect(plain(r.lastFrame())).toMatch(/the tokens it\s+│\s+│ holds stop working/);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› Grafana Monitoring/);
    expect(await count('/profile/apps')).toBe(2);
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Revoke Grafana Monitoring');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('1 item') && !/^[ ›] Grafana/m.test(f));
    expect(await count('/profile/apps')).toBe(1);
    r.unmount();
  });

  it(':devices names browsers and revokes a device after a confirm that it must log in again', async () => {
    const r = renderOn(svc, { cols: 110 });
    const frame = await jump(r, 'devices', 'Chrome 126 on Linux');
    expect(frame).toMatch(/Firefox 128 on macOS\s+203\.0\.113\.24\s+\d{4}-\d\d-\d\d \d\d:\d\d/);
    await sendInputAndWait(r.stdin, 'd', r.lastFrame, 'Gecko/20100101 Firefox/128.0');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /› Firefox 128 on macOS/);
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Stop trusting Firefox 128 on macOS');
    expect(plain(r.lastFrame())).toMatch(/It must log in\s+│\s+│ again/);
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('1 item') && !/^[ ›] Firefox/m.test(f));
    expect(await count('/profile/devices')).toBe(1);
    r.unmount();
  });

  it(':logins lists the history newest first, read-only, with a detail per login', async () => {
    const { body } = await call(svc, 'GET', '/profile/logins');
    const newest = [...(body.data as { datetime: string; ip: string }[])].sort((a, b) => b.datetime.localeCompare(a.datetime))[0]!;
    const r = renderOn(svc, { cols: 100 });
    const frame = await jump(r, 'logins', '15 items');
    const when = newest.datetime.replace('T', ' ').slice(0, 16);
    expect(frame).toMatch(new RegExp(`› ${when}\\s+successful\\s+${newest.ip.replace(/\./g, '\\.')}\\s+demo-owner\\s+no`));
    expect(frame).not.toMatch(/c create|\^D delete/);
    const detail = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /datetime\s+\d{4}/);
    expect(detail).toMatch(new RegExp(`ip\\s+${newest.ip.replace(/\./g, '\\.')}`));
    r.unmount();
  });
});
