import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { addInstance, setGrants, tokenWithScopes } from '../helpers/networking.js';
import { defaultRdns, ipsOf, type IpRecord } from '../../src/server/ipam.js';
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
const privateOf = (vmId: number) => ipv4s(vmId, false)[0]!;
const slaacOf = (vmId: number) => (svc.store.get<{ ipv6: string }>('vm', vmId)!.ipv6).replace(/\/\d+$/, '');

describe('address list', () => {
  it('lists public IPv4 and SLAAC IPv6 addresses, never private ones', async () => {
    const vm = addInstance(svc, { label: 'list-host', privateIp: true });
    const r = await call(svc, 'GET', '/networking/ips');
    expect(r.status).toBe(200);
    const mine = r.body.data.filter((ip: IpRecord) => ip.vm_id === vm);
    expect(mine).toEqual([
      {
        address: publicOf(vm),
        gateway: publicOf(vm).replace(/\.\d+$/, '.1'),
        subnet_mask: '255.255.255.0',
        prefix: 24,
        type: 'ipv4',
        public: true,
        rdns: defaultRdns(publicOf(vm)),
        vm_id: vm,
        region: 'us-east',
      },
      {
        address: slaacOf(vm),
        gateway: 'fe80::1',
        subnet_mask: 'ffff:ffff:ffff:ffff::',
        prefix: 64,
        type: 'ipv6',
        public: true,
        rdns: null,
        vm_id: vm,
        region: 'us-east',
      },
    ]);
    expect(r.body.data.some((ip: IpRecord) => ip.address === privateOf(vm))).toBe(false);
    expect(r.body.data.every((ip: IpRecord) => ip.public)).toBe(true);
  });

  it('filters on region and refuses other fields', async () => {
    const vm = addInstance(svc, { label: 'frankfurt', region: 'eu-central' });
    const r = await call(svc, 'GET', '/networking/ips', { filter: { region: 'eu-central' } });
    expect(r.body.data.map((ip: IpRecord) => ip.address).sort()).toEqual([publicOf(vm), slaacOf(vm)].sort());
    expect((await call(svc, 'GET', '/networking/ips', { filter: { public: false } })).status).toBe(400);
    expect((await call(svc, 'GET', '/networking/ips?page_size=5')).status).toBe(400);
  });

  it('shows a restricted user only the addresses of instances they can see', async () => {
    const seen = addInstance(svc, { label: 'seen-ips' });
    addInstance(svc, { label: 'unseen-ips' });
    setGrants(svc, { vm: [{ id: seen, permissions: 'read_only' }] });
    const r = await call(svc, 'GET', '/networking/ips', { token: RESTRICTED_TOKEN });
    expect(new Set(r.body.data.map((ip: IpRecord) => ip.vm_id))).toEqual(new Set([seen]));
    setGrants(svc, {});
    expect((await call(svc, 'GET', '/networking/ips', { token: RESTRICTED_TOKEN })).body.results).toBe(0);
  });
});

describe('one address', () => {
  it('shows public, private and SLAAC addresses; any spelling of an IPv6 address works', async () => {
    const vm = addInstance(svc, { label: 'one-host', privateIp: true });
    expect((await call(svc, 'GET', `/networking/ips/${publicOf(vm)}`)).body).toMatchObject({ address: publicOf(vm), public: true, vm_id: vm });
    expect((await call(svc, 'GET', `/networking/ips/${privateOf(vm)}`)).body).toEqual({
      address: privateOf(vm),
      gateway: null,
      subnet_mask: '255.255.128.0',
      prefix: 17,
      type: 'ipv4',
      public: false,
      rdns: null,
      vm_id: vm,
      region: 'us-east',
    });
    const expanded = ipaddr.IPv6.parse(slaacOf(vm)).toNormalizedString().toUpperCase();
    const v6 = await call(svc, 'GET', `/networking/ips/${expanded}`);
    expect(v6.status).toBe(200);
    expect(v6.body).toMatchObject({ address: slaacOf(vm), type: 'ipv6', prefix: 64 });
  });

  it('answers 404 for unknown addresses, non-addresses and invisible ones', async () => {
    expect((await call(svc, 'GET', '/networking/ips/203.0.113.250')).status).toBe(404);
    expect((await call(svc, 'GET', '/networking/ips/not-an-ip')).status).toBe(404);
    const vm = addInstance(svc, { label: 'private-host' });
    setGrants(svc, {});
    const hidden = await call(svc, 'GET', `/networking/ips/${publicOf(vm)}`, { token: RESTRICTED_TOKEN });
    expect(hidden.status).toBe(404);
    setGrants(svc, { vm: [{ id: vm, permissions: 'read_only' }] });
    expect((await call(svc, 'GET', `/networking/ips/${publicOf(vm)}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
  });
});

describe('reverse DNS', () => {
  const put = (address: string, body: unknown, token?: string) => call(svc, 'PUT', `/networking/ips/${address}`, { body, token });

  it('sets rdns whose forward DNS resolves, and resets a public IPv4 to the default with null', async () => {
    const vm = addInstance(svc, { label: 'rdns-host' });
    const address = publicOf(vm);
    const set = await put(address, { rdns: 'www.shop.example.com' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ address, rdns: 'www.shop.example.com' });
    expect((await call(svc, 'GET', `/networking/ips/${address}`)).body.rdns).toBe('www.shop.example.com');
    expect((await put(address, { rdns: 'mail.internal.test' })).body.rdns).toBe('mail.internal.test');
    const reset = await put(address, { rdns: null });
    expect(reset.body.rdns).toBe(defaultRdns(address));
  });

  it('sets and clears rdns on a SLAAC address', async () => {
    const vm = addInstance(svc, { label: 'rdns-v6' });
    expect((await put(slaacOf(vm), { rdns: 'v6.example' })).body.rdns).toBe('v6.example');
    expect((await put(slaacOf(vm), { rdns: null })).body.rdns).toBeNull();
  });

  it('refuses names whose forward DNS does not resolve, bad host names, and private addresses', async () => {
    const vm = addInstance(svc, { label: 'rdns-bad', privateIp: true });
    const address = publicOf(vm);
    const unresolved = await put(address, { rdns: 'www.google.com' });
    expect(unresolved.status).toBe(400);
    expect(unresolved.body.errors).toEqual([{ field: 'rdns', reason: expect.stringMatching(/forward DNS for www.google.com does not resolve/) }]);
    for (const rdns of ['localhost', '-bad.example.com', 'under_score.example.com', 'a..example.com', `${'x'.repeat(64)}.example.com`]) {
      const r = await put(address, { rdns });
      expect(r.status, rdns).toBe(400);
      expect(errorFields(r), rdns).toEqual(['rdns']);
    }
    expect(errorFields(await put(address, { rdns: 42 }))).toEqual(['rdns']);
    const priv = await put(privateOf(vm), { rdns: 'db.example.com' });
    expect(priv.status).toBe(400);
    expect(priv.body.errors[0]).toMatchObject({ field: 'rdns', reason: expect.stringMatching(/private/) });
    expect((await call(svc, 'GET', `/networking/ips/${address}`)).body.rdns).toBe(defaultRdns(address));
  });

  it('requires rdns, ignores and names unknown fields, and ignores read-only ones', async () => {
    const vm = addInstance(svc, { label: 'rdns-body' });
    const address = publicOf(vm);
    expect(errorFields(await put(address, {}))).toEqual(['rdns']);
    const later = await put(address, { rdns: 'a.example', ttl: 300 });
    expect(later.status).toBe(200);
    expect(later.headers['x-ignored-fields']).toBe('ttl');
    const ignored = await put(address, { rdns: 'b.example', public: false, vm_id: 1, address: '1.2.3.4' });
    expect(ignored.status).toBe(200);
    expect(ignored.body).toMatchObject({ address, public: true, vm_id: vm, rdns: 'b.example' });
    expect((await put('198.51.100.200', { rdns: 'a.example' })).status).toBe(404);
  });

  it('needs ips:read_write and write access to the instance', async () => {
    const vm = addInstance(svc, { label: 'rdns-access' });
    const reader = tokenWithScopes(svc, 'ips:read_only');
    expect((await put(publicOf(vm), { rdns: 'a.example' }, reader)).status).toBe(403);
    setGrants(svc, { vm: [{ id: vm, permissions: 'read_only' }] });
    expect((await put(publicOf(vm), { rdns: 'a.example' }, RESTRICTED_TOKEN)).status).toBe(403);
    setGrants(svc, { vm: [{ id: vm, permissions: 'read_write' }] });
    expect((await put(publicOf(vm), { rdns: 'a.example' }, RESTRICTED_TOKEN)).status).toBe(200);
  });
});

describe('address allocation', () => {
  const allocate = (body: unknown, token?: string) => call(svc, 'POST', '/networking/ips', { body, token });

  it('adds a second public IPv4 and a private one, then refuses more', async () => {
    const vm = addInstance(svc, { label: 'alloc-host', region: 'us-west' });
    const second = await allocate({ vm_id: vm, public: true, type: 'ipv4' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ type: 'ipv4', public: true, vm_id: vm, region: 'us-west', prefix: 24 });
    expect(second.body.rdns).toBe(defaultRdns(second.body.address));
    expect(ipv4s(vm, true)).toEqual([publicOf(vm), second.body.address]);

    const third = await allocate({ vm_id: vm, public: true, type: 'ipv4' });
    expect(third.status).toBe(400);
    expect(third.body.errors[0]).toMatchObject({ field: 'public', reason: expect.stringMatching(/not set up for another public IPv4 address: it already has 2/) });

    const priv = await allocate({ vm_id: vm, public: false, type: 'ipv4' });
    expect(priv.body).toMatchObject({ public: false, rdns: null, gateway: null });
    expect((await allocate({ vm_id: vm, public: false, type: 'ipv4' })).body.errors[0].reason).toMatch(/private IPv4 address: it already has 1/);
    expect(ipv4s(vm)).toHaveLength(3);
  });

  it('validates the body and the instance', async () => {
    expect(errorFields(await allocate({})).sort()).toEqual(['public', 'type', 'vm_id']);
    const vm = addInstance(svc, { label: 'alloc-bad' });
    expect(errorFields(await allocate({ vm_id: vm, public: true, type: 'ipv6' }))).toEqual(['type']);
    expect(errorFields(await allocate({ vm_id: vm, public: 'yes', type: 'ipv4' }))).toEqual(['public']);
    expect(errorFields(await allocate({ vm_id: 555555, public: true, type: 'ipv4' }))).toEqual(['vm_id']);
  });

  it('needs ips:read_write and vms:read_write, and write access to the instance', async () => {
    const vm = addInstance(svc, { label: 'alloc-access' });
    const body = { vm_id: vm, public: true, type: 'ipv4' };
    const ipsOnly = await allocate(body, tokenWithScopes(svc, 'ips:read_write'));
    expect(ipsOnly.status).toBe(403);
    expect(ipsOnly.body.errors[0].reason).toMatch(/vms:read_write/);
    setGrants(svc, {});
    expect(errorFields(await allocate(body, RESTRICTED_TOKEN))).toEqual(['vm_id']);
    setGrants(svc, { vm: [{ id: vm, permissions: 'read_only' }] });
    expect((await allocate(body, RESTRICTED_TOKEN)).status).toBe(403);
    expect(ipv4s(vm)).toHaveLength(1);
    expect((await allocate(body, tokenWithScopes(svc, 'ips:read_write,vms:read_write'))).status).toBe(200);
  });
});

describe('rdns persistence', () => {
  it('keeps reverse DNS and allocated addresses across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-ips-'));
    const data = join(dir, 'state.db');
    try {
      let s = await startTestService({ data });
      const vm = addInstance(s, { label: 'persist-ips' });
      const extra = await call(s, 'POST', '/networking/ips', { body: { vm_id: vm, public: true, type: 'ipv4' } });
      await call(s, 'PUT', `/networking/ips/${extra.body.address}`, { body: { rdns: 'kept.example.com' } });
      await s.close();
      s = await startTestService({ data });
      expect((await call(s, 'GET', `/networking/ips/${extra.body.address}`)).body).toMatchObject({ vm_id: vm, rdns: 'kept.example.com' });
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
