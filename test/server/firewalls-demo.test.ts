import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import { addInstance } from '../helpers/networking.js';
import { seedNetworkingDemo } from '../../src/server/seed/demo-networking.js';
import type { IpRecord } from '../../src/server/ipam.js';
import type { RunningService } from '../../src/server/service.js';

const FW = '/v4beta/networking/firewalls';

describe('networking demo data', () => {
  let svc: RunningService;
  let vms: number[];
  beforeAll(async () => {
    svc = await startTestService();
    vms = [
      addInstance(svc, { label: 'web-1' }),
      addInstance(svc, { label: 'web-2' }),
      addInstance(svc, { label: 'db-1', region: 'eu-central', privateIp: true }),
      addInstance(svc, { label: 'db-2', region: 'eu-central', privateIp: true }),
    ];
    svc.store.tx(() => seedNetworkingDemo(svc.store, svc.sim));
  });
  afterAll(() => svc.close());

  it('has four firewalls with valid rules, one of them disabled', async () => {
    const list = (await call(svc, 'GET', FW)).body.data;
    expect(list.map((f: { label: string; status: string }) => [f.label, f.status])).toEqual([
      ['web-public', 'enabled'],
      ['office-ssh', 'enabled'],
      ['db-private', 'enabled'],
      ['legacy-ftp', 'disabled'],
    ]);
    // Each demo ruleset passes the same validation a client's would.
    for (const fw of list) expect((await call(svc, 'PUT', `${FW}/${fw.id}/rules`, { body: fw.rules })).status, fw.label).toBe(200);
  });

  it('protects the instances without breaking the three-active limit', async () => {
    const list = (await call(svc, 'GET', FW)).body.data;
    const perVm = new Map<number, number>();
    for (const fw of list) {
      const devices = (await call(svc, 'GET', `${FW}/${fw.id}/devices`)).body.data;
      if (fw.status === 'enabled') for (const d of devices) perVm.set(d.entity.id, (perVm.get(d.entity.id) ?? 0) + 1);
      if (fw.label === 'web-public') expect(devices.map((d: { entity: { id: number } }) => d.entity.id)).toEqual(vms.slice(0, 2));
      if (fw.label === 'legacy-ftp') expect(devices).toHaveLength(1);
    }
    expect([...perVm.keys()].sort()).toEqual([...vms].sort());
    expect(Math.max(...perVm.values())).toBeLessThanOrEqual(3);
  });

  it('has a pool per region with instances, two ranges, custom rdns and one shared address', async () => {
    const pools = (await call(svc, 'GET', '/networking/ipv6/pools')).body.data;
    expect(pools.map((p: { region: string }) => p.region)).toEqual(['us-east', 'eu-central']);
    expect((await call(svc, 'GET', '/networking/ipv6/ranges')).body.results).toBe(2);
    const ips = (await call(svc, 'GET', '/networking/ips')).body.data as IpRecord[];
    expect(ips.filter((ip) => ip.rdns?.endsWith('shop.example.com')).map((ip) => ip.type).sort()).toEqual(['ipv4', 'ipv4', 'ipv6']);
    const shared = svc.store.all<IpRecord>('ip').filter((ip) => ip._shared_with?.length);
    expect(shared.map((ip) => [ip.vm_id, ip._shared_with])).toEqual([[vms[0], [vms[1]]]]);
  });

  it('records the demo firewall events as the owner', () => {
    const actions = svc.store.all<{ action: string; username: string }>('event').filter((e) => e.action.startsWith('firewall_'));
    expect(actions.filter((e) => e.action === 'firewall_create')).toHaveLength(4);
    expect(actions.filter((e) => e.action === 'firewall_disable')).toHaveLength(1);
    expect(actions.every((e) => e.username === 'demo-owner')).toBe(true);
  });
});

describe('full demo seed', () => {
  it('starts with the networking demo in place', async () => {
    const started = Date.now();
    const svc = await startTestService({ seed: 'demo' });
    try {
      expect(Date.now() - started).toBeLessThan(5000);
      const list = await call(svc, 'GET', FW);
      expect(list.body.results).toBe(4);
      expect((await call(svc, 'GET', '/networking/ips')).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
