import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { allocateIpv6Range, ensureIpv6Pool, type IpRecord } from '../../../src/server/ipam.js';
import { CTRL_S, ENTER, TAB } from '../../helpers/ink.js';
import { addInstance } from '../../helpers/networking.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, selectedRow, wait, type App } from '../nodebalancers/helpers.js';

const RIGHT = '\x1b[C';
const CTRL_U = '\x15';

let svc: RunningService;
let web: number;
let api: number;
beforeAll(async () => {
  svc = await startTestService();
  web = addInstance(svc, { label: 'web-1' });
  api = addInstance(svc, { label: 'api-1' });
  svc.store.tx(() => {
    ensureIpv6Pool(svc.store, 'us-east');
    allocateIpv6Range(svc.store, web, 'us-east');
  });
});
afterAll(() => svc.close());

const publicIpv4 = (vm: number) => svc.store.all<IpRecord>('ip', String(vm)).filter((ip) => ip.type === 'ipv4' && ip.public);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The IP list filtered down to one address and that row selected. */
async function openIp(address: string): Promise<App> {
  const r = app(svc, { cols: 120 });
  await jump(r, 'ips', /items/);
  await press(r, '/', /^\//m);
  await press(r, address, /1 of \d+/);
  await press(r, ENTER, new RegExp(`^› ${escape(address)}\\s`, 'm'));
  return r;
}

describe('IP addresses', { timeout: 60_000 }, () => {
  it('lists public addresses with the instance holding each', async () => {
    const [ip] = publicIpv4(web);
    const r = app(svc, { cols: 120 });
    const list = await jump(r, 'ips', new RegExp(escape(ip!.address)));
    expect(list).toMatch(/Address\s+Type\s+Public\s+Region\s+Instance\s+Reverse DNS/);
    expect(list).toMatch(new RegExp(`${escape(ip!.address)}\\s+ipv4\\s+yes\\s+us-east\\s+web-1\\s+${escape(ip!.rdns!)}`));
    // The SLAAC addresses are public too.
    expect(list).toMatch(/2600:\S+\s+ipv6\s+yes\s+us-east\s+(web-1|api-1)/);
  });

  it('sets reverse DNS: the name is checked as you type, the service error shows beside the field; reset goes back to the default', async () => {
    const [ip] = publicIpv4(web);
    const initial = ip!.rdns!;
    const r = await openIp(ip!.address);
    await press(r, 'e', new RegExp(`^Edit ${escape(ip!.address)}[^]*Reverse DNS \\*\\s+${escape(initial)}`, 'm'));
    r.stdin.write(CTRL_U);
    const short = await press(r, 'nodots', /Reverse DNS \*\s+nodots/);
    expect(short).toMatch(/^Reverse DNS must be a fully qualified host name, e\.g\. www\.example\.com$/m);
    r.stdin.write(CTRL_U);
    await press(r, 'www.google.com', /Reverse DNS \*\s+www\.google\.com/);
    r.stdin.write(CTRL_S);
    const refused = await wait(r, new RegExp(`^forward DNS for www\\.google\\.com does not resolve to ${escape(ip!.address)}; create the DNS record first$`, 'm'));
    expect(fieldLine(refused, 'Reverse DNS')).toMatch(/✗ forward DNS for www\.google\.com/);
    r.stdin.write(CTRL_U);
    await press(r, 'shop.example.com', /Reverse DNS \*\s+shop\.example\.com/);
    r.stdin.write(CTRL_S);
    await wait(r, `Reverse DNS of ${ip!.address}: shop.example.com`);
    await wait(r, /web-1\s+shop\.example\.com/);

    await press(r, 'a', 'Reset reverse DNS to the default');
    const confirm = dialogText(await press(r, 'r', '[ Cancel ]'));
    expect(confirm).toContain(`Reset the reverse DNS of ${ip!.address} (now shop.example.com) to the default?`);
    r.stdin.write(RIGHT);
    await press(r, ENTER, `Reverse DNS of ${ip!.address} reset to ${initial}`);
    expect(selectedRow(await wait(r, new RegExp(`web-1\\s+${escape(initial)}`)))).toContain(ip!.address);
    expect((await call(svc, 'GET', `/networking/ips/${ip!.address}`)).body.rdns).toBe(initial);
  });

  it('allocates a public IPv4 to a chosen instance; a third one is refused beside the field', async () => {
    const r = app(svc, { cols: 120 });
    await jump(r, 'ips', /items/);
    await press(r, 'c', /Instance \*\s+— choose/);
    const picker = await press(r, ENTER, 'Instance: choose');
    expect(picker).toMatch(/web-1 +\(\d+, us-east, running\)/);
    await press(r, ENTER, /Instance \*\s+◂ web-1/);
    expect(r.lastFrame()).toMatch(/Public \*\s+\[x\] yes/);
    r.stdin.write(CTRL_S);
    const done = await wait(r, /Allocated (\S+) \(public\) to web-1$/m);
    const address = new RegExp(`Allocated (\\S+) \\(public\\)`).exec(done)![1]!;
    await wait(r, new RegExp(`${escape(address)}\\s+ipv4\\s+yes\\s+us-east\\s+web-1`));
    expect(publicIpv4(web).map((ip) => ip.address)).toContain(address);

    await press(r, 'c', /Instance \*\s+— choose/);
    await press(r, RIGHT, /Instance \*\s+◂ web-1/);
    r.stdin.write(CTRL_S);
    const refused = await wait(r, /is not set up for another public IPv4 address/);
    expect(fieldLine(refused, 'Public')).toMatch(/\[x\] yes\s+✗ instance web-1/);
    expect(publicIpv4(web)).toHaveLength(2);
  });

  it('assigns an address to another instance after a confirm', async () => {
    if (publicIpv4(web).length < 2) await call(svc, 'POST', '/networking/ips', { body: { vm_id: web, public: true, type: 'ipv4' } });
    const moving = publicIpv4(web)[1]!.address;
    const r = await openIp(moving);
    await press(r, 'a', 'Assign (move or swap) addresses');
    const form = await press(r, 'm', /To instance 1 \*\s+— choose/);
    expect(form).toMatch(/Region \*\s+◂ us-east/);
    expect(form).toMatch(new RegExp(`Address 1 \\*\\s+◂ ${escape(moving)} +\\(web-1\\)`));
    r.stdin.write(TAB + TAB);
    const picker = await press(r, ENTER, 'To instance 1: choose');
    expect(picker).toMatch(/api-1/);
    r.stdin.write('G');
    await wait(r, /› api-1/);
    await press(r, ENTER, /To instance 1 \*\s+◂ api-1/);
    const confirm = dialogText(await press(r, CTRL_S, 'Proceed'));
    expect(confirm).toContain(`Move ${moving} to instance ${api}? Every instance involved must keep a public IPv4`);
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Addresses assigned');
    await wait(r, new RegExp(`${escape(moving)}\\s+ipv4\\s+yes\\s+us-east\\s+api-1`));
    expect(publicIpv4(api).map((ip) => ip.address)).toContain(moving);
  });

  it('shares an address with another instance after a confirm', async () => {
    const [shared] = publicIpv4(web);
    const r = await openIp(shared!.address);
    await press(r, 'a', 'Share with another instance');
    await press(r, 's', /Instance \*\s+— choose/);
    const picker = await press(r, ENTER, 'Instance: choose');
    expect(picker).toMatch(/api-1/);
    r.stdin.write('G');
    await wait(r, /› api-1/);
    await press(r, ENTER, /Instance \*\s+◂ api-1/);
    r.stdin.write(TAB);
    await wait(r, new RegExp(`› Addresses\\s+${escape(shared!.address)}`));
    const confirm = dialogText(await press(r, CTRL_S, 'Proceed'));
    expect(confirm).toContain(`Share ${shared!.address} with instance ${api}? This replaces every address shared with it so far.`);
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Sharing updated');
    expect(svc.store.get<IpRecord>('ip', shared!.address)!._shared_with).toEqual([api]);
  });

});
