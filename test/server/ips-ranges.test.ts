import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { addInstance, deleteInstance, setGrants } from '../helpers/networking.js';
import { allocateIpv6Range, type IpRecord, type Ipv6BlockRecord } from '../../src/server/ipam.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const listed = async (token?: string) => (await call(svc, 'GET', '/networking/ips', { token })).body.data as IpRecord[];
/** The ranges among the addresses, by address (a range recorded again after a move is listed last). */
const rangesIn = (ips: IpRecord[]) => ips.filter((ip) => ip.type === 'ipv6/range').sort((x, y) => x.address.localeCompare(y.address));

describe('a /64 range as an address of its instance', () => {
  it('is listed and retrievable as an IPAddress of type ipv6/range with the instance’s vm_id', async () => {
    const vm = addInstance(svc, { label: 'range-owner' });
    const block = svc.store.tx(() => allocateIpv6Range(svc.store, vm, 'us-east'));
    const expected = {
      address: block.range,
      gateway: null,
      subnet_mask: 'ffff:ffff:ffff:ffff::',
      prefix: 64,
      type: 'ipv6/range',
      public: true,
      rdns: null,
      vm_id: vm,
      region: 'us-east',
    };
    expect(rangesIn(await listed())).toEqual([expected]);
    const one = await call(svc, 'GET', `/networking/ips/${encodeURIComponent(block.range)}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(expected);
    // The range list itself keeps the 4.83.1 IPv6Range shape: no instance there.
    const ranges = await call(svc, 'GET', '/networking/ipv6/ranges');
    expect(ranges.body.data).toEqual([{ range: block.range, prefix: 64, region: 'us-east', route_target: block.route_target }]);
    deleteInstance(svc, vm);
  });

  it('follows a range moved to another instance, and goes when the range or its instance does', async () => {
    const a = addInstance(svc, { label: 'range-a' });
    const b = addInstance(svc, { label: 'range-b' });
    const c = addInstance(svc, { label: 'range-c' });
    const [ra, rc] = svc.store.tx(() => [allocateIpv6Range(svc.store, a, 'us-east'), allocateIpv6Range(svc.store, c, 'us-east')]);
    expect(rangesIn(await listed()).map((ip) => [ip.address, ip.vm_id])).toEqual([
      [ra.range, a],
      [rc.range, c],
    ]);

    svc.store.tx(() => svc.store.put('ipv6_range', ra.range, { ...ra, _vm_id: b } satisfies Ipv6BlockRecord));
    expect(rangesIn(await listed()).map((ip) => [ip.address, ip.vm_id])).toEqual([
      [ra.range, b],
      [rc.range, c],
    ]);

    svc.store.tx(() => svc.store.delete('ipv6_range', ra.range));
    expect(rangesIn(await listed()).map((ip) => ip.address)).toEqual([rc.range]);
    expect((await call(svc, 'GET', `/networking/ips/${encodeURIComponent(ra.range)}`)).status).toBe(404);

    deleteInstance(svc, c);
    expect(rangesIn(await listed())).toEqual([]);
    for (const vm of [a, b]) deleteInstance(svc, vm);
  });

  it('is shown only to a user who sees its instance', async () => {
    const mine = addInstance(svc, { label: 'range-seen' });
    const theirs = addInstance(svc, { label: 'range-hidden' });
    const [seen] = svc.store.tx(() => [allocateIpv6Range(svc.store, mine, 'us-east'), allocateIpv6Range(svc.store, theirs, 'us-east')]);
    setGrants(svc, { vm: [{ id: mine, permissions: 'read_only' }] });
    expect(rangesIn(await listed(RESTRICTED_TOKEN)).map((ip) => ip.address)).toEqual([seen.range]);
    for (const vm of [mine, theirs]) deleteInstance(svc, vm);
  });

  it('refuses reverse DNS on a range with a 400 naming rdns', async () => {
    const vm = addInstance(svc, { label: 'range-rdns' });
    const block = svc.store.tx(() => allocateIpv6Range(svc.store, vm, 'us-east'));
    const r = await call(svc, 'PUT', `/networking/ips/${encodeURIComponent(block.range)}`, { body: { rdns: 'v6.shop.example.com' } });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['rdns']);
    deleteInstance(svc, vm);
  });
});
