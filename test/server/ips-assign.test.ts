import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { addInstance, deleteInstance, setGrants, tokenWithScopes } from '../helpers/networking.js';
import { allocateIpv4, allocateIpv6Range, ensureIpv6Pool, ipsOf, type IpRecord } from '../../src/server/ipam.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const ipv4s = (vmId: number, isPublic?: boolean) =>
  ipsOf(svc.store, vmId)
    .filter((ip) => ip.type === 'ipv4' && (isPublic === undefined || ip.public === isPublic))
    .map((ip) => ip.address);
const publicOf = (vmId: number) => ipv4s(vmId, true)[0]!;
const addPublic = (vmId: number, region = 'us-east') => svc.store.tx(() => allocateIpv4(svc.store, vmId, region, true).address);
const assign = (body: unknown, token?: string) => call(svc, 'POST', '/networking/ipv4/assign', { body, token });
const share = (body: unknown, token?: string) => call(svc, 'POST', '/networking/ipv4/share', { body, token });
const sharedWith = (address: string) => svc.store.get<IpRecord>('ip', address)!._shared_with ?? [];

describe('IPv4 assignment', () => {
  it('swaps public addresses between two instances', async () => {
    const a = addInstance(svc, { label: 'swap-a' });
    const b = addInstance(svc, { label: 'swap-b' });
    const [ipA, ipB] = [publicOf(a), publicOf(b)];
    const r = await assign({ region: 'us-east', assignments: [{ address: ipA, vm_id: b }, { address: ipB, vm_id: a }] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(ipv4s(a)).toEqual([ipB]);
    expect(ipv4s(b)).toEqual([ipA]);
    expect((await call(svc, 'GET', `/networking/ips/${ipA}`)).body.vm_id).toBe(b);
  });

  it('moves a spare public address and a private one', async () => {
    const a = addInstance(svc, { label: 'move-a', privateIp: true });
    const b = addInstance(svc, { label: 'move-b' });
    const spare = addPublic(a);
    const priv = ipv4s(a, false)[0]!;
    const r = await assign({ region: 'us-east', assignments: [{ address: spare, vm_id: b }, { address: priv, vm_id: b }] });
    expect(r.status).toBe(200);
    expect(ipv4s(a)).toEqual([publicOf(a)]);
    expect(ipv4s(b).sort()).toEqual([publicOf(b), spare, priv].sort());
  });

  it('refuses to leave an instance without a public address, and changes nothing', async () => {
    const a = addInstance(svc, { label: 'strip-a' });
    const b = addInstance(svc, { label: 'strip-b' });
    const ipA = publicOf(a);
    const r = await assign({ region: 'us-east', assignments: [{ address: ipA, vm_id: b }] });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'assignments', reason: expect.stringMatching(/strip-a .* without a public IPv4/) }]);
    expect(ipv4s(a)).toEqual([ipA]);
    expect(ipv4s(b)).toEqual([publicOf(b)]);
  });

  it('refuses to give an instance two private addresses', async () => {
    const a = addInstance(svc, { label: 'priv-a', privateIp: true });
    const b = addInstance(svc, { label: 'priv-b', privateIp: true });
    const r = await assign({ region: 'us-east', assignments: [{ address: ipv4s(a, false)[0], vm_id: b }] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].reason).toMatch(/priv-b .* more than one private/);
    expect(ipv4s(a, false)).toHaveLength(1);
  });

  it('requires every address and instance in the region, and a known region', async () => {
    const east = addInstance(svc, { label: 'east-1' });
    const spare = addPublic(east);
    const west = addInstance(svc, { label: 'west-1', region: 'us-west' });
    const westSpare = addPublic(west, 'us-west');
    const r = await assign({
      region: 'us-east',
      assignments: [
        { address: spare, vm_id: west },
        { address: westSpare, vm_id: east },
        { address: '198.51.100.99', vm_id: 777777 },
        { address: spare, vm_id: east },
      ],
    });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual([
      'assignments.0.vm_id',
      'assignments.1.address',
      'assignments.2.address',
      'assignments.2.vm_id',
      'assignments.3.address',
    ]);
    expect(r.body.errors[4].reason).toMatch(/more than once/);
    const region = await assign({ region: 'mars-1', assignments: [{ address: spare, vm_id: east }] });
    expect(errorFields(region)).toContain('region');
  });

  it('validates the body shape', async () => {
    expect(errorFields(await assign({})).sort()).toEqual(['assignments', 'region']);
    expect(errorFields(await assign({ region: 'us-east', assignments: [] }))).toEqual(['assignments']);
    const bad = await assign({ region: 'us-east', assignments: [{ address: '2600:3c00::1' }, { vm_id: 'x', address: '10.0.0.1', extra: 1 }] });
    expect(errorFields(bad).sort()).toEqual(['assignments.0.address', 'assignments.0.vm_id', 'assignments.1.vm_id']);
    expect(bad.headers['x-ignored-fields']).toBe('assignments.1.extra');
  });

  it('needs both scopes and write access to every address and instance', async () => {
    const a = addInstance(svc, { label: 'grant-a' });
    const b = addInstance(svc, { label: 'grant-b' });
    const spare = addPublic(a);
    const body = { region: 'us-east', assignments: [{ address: spare, vm_id: b }] };
    expect((await assign(body, tokenWithScopes(svc, 'ips:read_write'))).status).toBe(403);
    setGrants(svc, { vm: [{ id: a, permissions: 'read_write' }, { id: b, permissions: 'read_only' }] });
    expect((await assign(body, RESTRICTED_TOKEN)).status).toBe(403);
    setGrants(svc, { vm: [{ id: a, permissions: 'read_only' }, { id: b, permissions: 'read_write' }] });
    expect((await assign(body, RESTRICTED_TOKEN)).status).toBe(403);
    setGrants(svc, { vm: [{ id: b, permissions: 'read_write' }] });
    expect(errorFields(await assign(body, RESTRICTED_TOKEN))).toEqual(['assignments.0.address']);
    expect(ipv4s(a)).toContain(spare);
    setGrants(svc, { vm: [{ id: a, permissions: 'read_write' }, { id: b, permissions: 'read_write' }] });
    expect((await assign(body, RESTRICTED_TOKEN)).status).toBe(200);
    expect(ipv4s(b)).toContain(spare);
  });
});

describe('IPv4 sharing', () => {
  it('shares addresses with an instance, replacing what was shared before', async () => {
    const a = addInstance(svc, { label: 'share-a' });
    const b = addInstance(svc, { label: 'share-b' });
    const c = addInstance(svc, { label: 'share-c' });
    const r = await share({ vm_id: c, ips: [publicOf(a), publicOf(b)] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(sharedWith(publicOf(a))).toEqual([c]);
    expect(sharedWith(publicOf(b))).toEqual([c]);
    await share({ vm_id: c, ips: [publicOf(b)] });
    expect(sharedWith(publicOf(a))).toEqual([]);
    expect(sharedWith(publicOf(b))).toEqual([c]);
    await share({ vm_id: a, ips: [publicOf(b)] });
    expect(sharedWith(publicOf(b))).toEqual([c, a]);
    await share({ vm_id: c, ips: [] });
    expect(sharedWith(publicOf(b))).toEqual([a]);
  });

  it('requires the same region, another instance, known addresses, each once', async () => {
    const a = addInstance(svc, { label: 'share-east' });
    const w = addInstance(svc, { label: 'share-west', region: 'us-west' });
    const b = addInstance(svc, { label: 'share-east-2' });
    const r = await share({ vm_id: a, ips: [publicOf(w), publicOf(a), '203.0.113.77', publicOf(b), publicOf(b)] });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['ips.0', 'ips.1', 'ips.2', 'ips.4']);
    expect(r.body.errors[0].reason).toMatch(/same region|must be in us-east/);
    expect(sharedWith(publicOf(b))).toEqual([]);
    expect(errorFields(await share({ vm_id: 888888, ips: [] }))).toEqual(['vm_id']);
    expect(errorFields(await share({})).sort()).toEqual(['ips', 'vm_id']);
    expect(errorFields(await share({ vm_id: a, ips: ['nope'] }))).toEqual(['ips.0']);
  });

  it('needs both scopes and write access to the target', async () => {
    const a = addInstance(svc, { label: 'share-grant-a' });
    const b = addInstance(svc, { label: 'share-grant-b' });
    expect((await share({ vm_id: b, ips: [publicOf(a)] }, tokenWithScopes(svc, 'vms:read_write'))).status).toBe(403);
    setGrants(svc, { vm: [{ id: a, permissions: 'read_only' }, { id: b, permissions: 'read_only' }] });
    expect((await share({ vm_id: b, ips: [publicOf(a)] }, RESTRICTED_TOKEN)).status).toBe(403);
    setGrants(svc, { vm: [{ id: b, permissions: 'read_write' }] });
    expect(errorFields(await share({ vm_id: b, ips: [publicOf(a)] }, RESTRICTED_TOKEN))).toEqual(['ips.0']);
    setGrants(svc, { vm: [{ id: a, permissions: 'read_only' }, { id: b, permissions: 'read_write' }] });
    expect((await share({ vm_id: b, ips: [publicOf(a)] }, RESTRICTED_TOKEN)).status).toBe(200);
  });

  it('stops sharing with a deleted instance and drops the share when the address moves to it', async () => {
    const a = addInstance(svc, { label: 'share-del-a' });
    const b = addInstance(svc, { label: 'share-del-b' });
    const c = addInstance(svc, { label: 'share-del-c' });
    const spare = addPublic(a);
    await share({ vm_id: b, ips: [spare] });
    await share({ vm_id: c, ips: [spare, publicOf(a)] });
    expect(sharedWith(spare)).toEqual([b, c]);
    deleteInstance(svc, c);
    expect(sharedWith(spare)).toEqual([b]);
    expect(sharedWith(publicOf(a))).toEqual([]);
    await assign({ region: 'us-east', assignments: [{ address: spare, vm_id: b }] });
    expect(sharedWith(spare)).toEqual([]);
  });
});

describe('IPv6 pools and ranges', () => {
  it('lists pools as pages, filterable on region', async () => {
    svc.store.tx(() => {
      ensureIpv6Pool(svc.store, 'us-east');
      ensureIpv6Pool(svc.store, 'eu-central');
      ensureIpv6Pool(svc.store, 'us-east');
    });
    const r = await call(svc, 'GET', '/networking/ipv6/pools');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, pages: 1, results: 2 });
    expect(r.body.data[0]).toEqual({ range: '2600:3c00::2:5000:0', prefix: 124, region: 'us-east', route_target: '2600:3c00::2:5000:f' });
    const eu = await call(svc, 'GET', '/networking/ipv6/pools', { filter: { region: 'eu-central' } });
    expect(eu.body.data.map((p: { region: string }) => p.region)).toEqual(['eu-central']);
    expect((await call(svc, 'GET', '/networking/ipv6/pools', { filter: { prefix: 124 } })).status).toBe(400);
  });

  it('lists /64 ranges, hides those of invisible instances, and drops a deleted instance’s range', async () => {
    const a = addInstance(svc, { label: 'range-a' });
    const b = addInstance(svc, { label: 'range-b', region: 'eu-central' });
    const [ra, rb] = svc.store.tx(() => [allocateIpv6Range(svc.store, a, 'us-east'), allocateIpv6Range(svc.store, b, 'eu-central')]);
    expect(ra).toMatchObject({ prefix: 64, route_target: expect.stringMatching(/:ffff:ffff:ffff:ffff$/) });
    const all = await call(svc, 'GET', '/networking/ipv6/ranges');
    expect(all.body.data).toEqual([
      { range: ra!.range, prefix: 64, region: 'us-east', route_target: ra!.route_target },
      { range: rb!.range, prefix: 64, region: 'eu-central', route_target: rb!.route_target },
    ]);

    setGrants(svc, { vm: [{ id: b, permissions: 'read_only' }] });
    const ranges = await call(svc, 'GET', '/networking/ipv6/ranges', { token: RESTRICTED_TOKEN });
    expect(ranges.body.data.map((r: { range: string }) => r.range)).toEqual([rb!.range]);
    const pools = await call(svc, 'GET', '/networking/ipv6/pools', { token: RESTRICTED_TOKEN });
    expect(pools.body.data.map((p: { region: string }) => p.region)).toEqual(['eu-central']);

    deleteInstance(svc, a);
    const after = await call(svc, 'GET', '/networking/ipv6/ranges');
    expect(after.body.data.map((r: { range: string }) => r.range)).toEqual([rb!.range]);
  });

  it('needs ips:read_only', async () => {
    const token = tokenWithScopes(svc, 'vms:read_only');
    expect((await call(svc, 'GET', '/networking/ipv6/pools', { token })).status).toBe(403);
    expect((await call(svc, 'GET', '/networking/ipv6/ranges', { token })).status).toBe(403);
    expect((await call(svc, 'GET', '/networking/ips', { token })).status).toBe(403);
    expect((await call(svc, 'GET', '/networking/ipv6/ranges', { token: tokenWithScopes(svc, 'ips:read_only') })).status).toBe(200);
  });
});
