import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, UP } from '../../helpers/ink.js';
import { addInstance } from '../../helpers/networking.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, wait, type App } from '../nodebalancers/helpers.js';

const RIGHT = '\x1b[C';
const FW = '/v4beta/networking/firewalls';
const OPEN = { inbound: [{ protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'] } }] };

let svc: RunningService;
let web: number;
let db: number;
beforeAll(async () => {
  svc = await startTestService();
  web = addInstance(svc, { label: 'web-1' });
  db = addInstance(svc, { label: 'db-1' });
});
afterAll(() => svc.close());

async function firewall(label: string, vms: number[]) {
  const r = await call(svc, 'POST', FW, { body: { label, rules: OPEN, devices: { vms } } });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.id as number;
}

const deviceIds = async (fw: number) => (await call(svc, 'GET', `${FW}/${fw}/devices`)).body.data.map((d: { entity: { id: number } }) => d.entity.id);

async function openDevices(label: string): Promise<App> {
  const r = app(svc);
  await jump(r, 'fw', label);
  await press(r, '/', /^\//m);
  await press(r, label, /1 of \d+/);
  await press(r, ENTER, new RegExp(`^/${label}`, 'm'));
  await press(r, ENTER, /Devices\s+\d+ instance/);
  r.stdin.write(DOWN);
  await wait(r, /› Devices/);
  await press(r, ENTER, new RegExp(`^home › firewalls › ${label} › firewall › devices$`, 'm'));
  return r;
}

describe('firewall devices', { timeout: 60_000 }, () => {
  it('adds a device from the instances it does not protect yet; removes one after a confirm', async () => {
    const fw = await firewall('devices-fw', [web]);
    const r = await openDevices('devices-fw');
    await wait(r, /› web-1\s+\d+\s+vm\s+\d{4}-/);
    await press(r, 'c', /Instance \*\s+— choose/);
    const picker = await press(r, ENTER, 'Instance: choose');
    expect(picker).toMatch(/db-1 +\(\d+, us-east, running\)/);
    expect(picker).not.toContain('web-1');
    await press(r, ENTER, /Instance \*\s+◂ db-1/);
    r.stdin.write(CTRL_S);
    await wait(r, "Added db-1: the firewall's rules apply to it now");
    // The device just added is selected.
    await wait(r, /› db-1\s+\d+\s+vm/);
    expect((await deviceIds(fw)).sort()).toEqual([web, db].sort());
    await press(r, UP, /› web-1\s+\d+\s+vm/);

    const dialog = dialogText(await press(r, CTRL_D, '[ Cancel ]'));
    expect(dialog).toContain('Remove web-1 from this firewall? Its rules stop protecting web-1 at once; rules of its other firewalls stay.');
    await press(r, ESC, (f) => !f.includes('[ Cancel ]'));
    expect(await deviceIds(fw)).toContain(web);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Remove web-1: done');
    await wait(r, (f) => !/web-1\s+\d+\s+vm/.test(f));
    expect(await deviceIds(fw)).toEqual([db]);
  });

  it("shows the service's refusal beside the instance: three active firewalls already", async () => {
    const host = addInstance(svc, { label: 'busy-host' });
    for (const label of ['busy-a', 'busy-b', 'busy-c']) await firewall(label, [host]);
    const fw = await firewall('busy-d', []);
    const r = await openDevices('busy-d');
    await wait(r, 'This firewall protects nothing yet');
    await press(r, 'c', /Instance \*\s+— choose/);
    await press(r, ENTER, 'Instance: choose');
    r.stdin.write('G');
    await press(r, ENTER, /Instance \*\s+◂ busy-host/);
    r.stdin.write(CTRL_S);
    const frame = await wait(r, /already has 3 active firewalls/);
    expect(fieldLine(frame, 'Instance')).toMatch(/busy-host.*✗ instance busy-host \(\d+\) already has 3/);
    expect(await deviceIds(fw)).toEqual([]);
  });
});
