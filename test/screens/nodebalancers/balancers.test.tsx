import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, seedBalancer, wait } from './helpers.js';

const RIGHT = '\x1b[C';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
  // One region without the capability, to see it left out of the choices.
  svc.store.tx(() => {
    const region = svc.store.get<{ capabilities: string[] }>('region', 'ap-northeast')!;
    svc.store.put('region', 'ap-northeast', { ...region, capabilities: ['VMs'] });
  });
});
afterAll(() => svc.close());
beforeEach(async () => {
  for (const b of (await call(svc, 'GET', '/nodebalancers')).body.data) await call(svc, 'DELETE', `/nodebalancers/${b.id}`);
  await seedBalancer(svc);
});

/** The create form, labelled and in us-east. */
async function newBalancerForm(label: string) {
  const r = app(svc);
  await jump(r, 'lb', 'shop-lb');
  await press(r, 'c', 'New load balancer');
  r.stdin.write(label);
  await press(r, TAB, /Region \*\s+— choose/);
  await press(r, RIGHT, /Region \*\s+◂ us-east/);
  return r;
}

const labels = async () => (await call(svc, 'GET', '/nodebalancers')).body.data.map((b: { label: string }) => b.label);

describe('load balancers', { timeout: 60_000 }, () => {
  it('creates a balancer in a region that offers them; the label rule speaks as you type', async () => {
    const r = app(svc);
    await jump(r, 'lb', 'shop-lb');
    await press(r, 'c', 'New load balancer');
    const bad = await press(r, 'new lb', /Label\s+new lb/);
    expect(fieldLine(bad, 'Label')).toMatch(/✗ may contain only letters, digits/);
    expect(bad).toMatch(/^Label may contain only letters, digits, dashes and underscores$/m);
    r.stdin.write('\x7f\x7f\x7f');
    await press(r, '-lb', (f) => /Label\s+new-lb/.test(f) && !f.includes('may contain only'));
    await press(r, TAB, /Region \*\s+— choose/);
    const picker = await press(r, ENTER, 'Region: choose');
    expect(picker).toContain('us-east (us)');
    expect(picker).toContain('ap-south (sg)');
    expect(picker).not.toContain('ap-northeast');
    await press(r, ENTER, /Region \*\s+◂ us-east \(us\) ▸/);
    r.stdin.write(TAB);
    await press(r, '7', /Throttle \(conn\/s\)\s+07|Throttle \(conn\/s\)\s+7/);
    r.stdin.write(CTRL_S);
    await wait(r, /Created new-lb \(139\.162\.\d+\.\d+\); Enter on it shows its ports/);
    await wait(r, /new-lb\s+us-east\s+139\.162\.\d+\.\d+\s+7\/s\s+0\.0 MB/);
    expect((await labels()).sort()).toEqual(['new-lb', 'shop-lb']);
  });

  it('creates a balancer with its first port and node in one go; the port rules speak as you type', async () => {
    const r = await newBalancerForm('edge-lb');
    r.stdin.write(TAB);
    await press(r, TAB, /› Ports \(JSON\)/);
    const bad = await press(r, '[{"port": 80, "protocol": "http", "nodes": [{"label": "x", "address": "192.168.128.9:80"}]}]', /configs\.0\.nodes\.0\.label must be 3\.\.32 characters/);
    expect(bad).toMatch(/^ +✗ configs\.0\.nodes\.0/m);
    r.stdin.write(CTRL_S);
    // Refused before anything is sent.
    await wait(r, /configs\.0\.nodes\.0\.label/);
    expect(await labels()).toEqual(['shop-lb']);

    r.stdin.write('\x15');
    await press(r, '[{"port": 80, "protocol": "http", "nodes": [{"label": "web-9", "address": "192.168.128.9:80"}]}]', (f) => !/✗/.test(f));
    r.stdin.write(CTRL_S);
    await wait(r, /Created edge-lb/);
    const created = (await call(svc, 'GET', '/nodebalancers')).body.data.find((b: { label: string }) => b.label === 'edge-lb');
    const configs = (await call(svc, 'GET', `/nodebalancers/${created.id}/configs`)).body.data;
    expect(configs).toMatchObject([{ port: 80, protocol: 'http' }]);
    const nodes = (await call(svc, 'GET', `/nodebalancers/${created.id}/configs/${configs[0].id}/nodes`)).body.data;
    expect(nodes).toMatchObject([{ label: 'web-9', address: '192.168.128.9:80' }]);
  });

  it("shows the service's error beside the label: already used", async () => {
    const r = await newBalancerForm('shop-lb');
    r.stdin.write(CTRL_S);
    const frame = await wait(r, /^Label shop-lb is already used by another load balancer$/m);
    expect(fieldLine(frame, 'Label')).toMatch(/shop-lb\s+✗ Label shop-lb is already used/);
    expect(await labels()).toEqual(['shop-lb']);
  });

  it('edits a balancer: the tags change, label and throttle stay', async () => {
    const r = app(svc);
    await jump(r, 'lb', /› shop-lb/);
    await press(r, 'e', 'Edit shop-lb');
    r.stdin.write(TAB + TAB);
    await press(r, 'edge, prod', /Tags\s+edge, prod/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Saved shop-lb');
    await wait(r, /shop-lb\s+us-east\s+\S+\s+5\/s\s+0\.0 MB\s+edge, prod/);
    expect((await call(svc, 'GET', '/nodebalancers')).body.data[0].tags).toEqual(['edge', 'prod']);
  });

  it('deletes after the confirm dialog, which says what goes with it', async () => {
    const r = app(svc);
    await jump(r, 'lb', /› shop-lb/);
    const dialog = dialogText(await press(r, CTRL_D, '[ Cancel ]'));
    expect(dialog).toMatch(/Delete load balancer shop-lb\? This also deletes all its configs and their nodes, and releases 139\.162\.\d+\.\d+\. The backend instances are untouched\./);
    await press(r, ESC, (f) => !f.includes('[ Cancel ]'));
    expect(await labels()).toEqual(['shop-lb']);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'No load balancers yet. Press c to create one.');
    expect(await labels()).toEqual([]);
  });
});
