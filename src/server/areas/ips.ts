import {
  IPAddress,
  IPv6Pool,
  IPv6Range,
  IpAllocation,
  IpAssignment,
  IpShare,
  MAX_PRIVATE_IPV4,
  MAX_PUBLIC_IPV4,
} from '../../model/ips.js';
import { filterableFields, present, type FieldError } from '../../model/schema.js';
import { grantFilter, requireEntity, visibleTo } from '../auth.js';
import { assertValid, badRequest, notFound } from '../errors.js';
import { filterFields, type SqlFilter } from '../filter.js';
import { onInstanceDeleted } from '../hooks.js';
import {
  allocateIpv4,
  canonicalAddress,
  defaultRdns,
  ipsOf,
  moveIp,
  syncIpv6Records,
  type IpRecord,
  type Ipv6BlockRecord,
} from '../ipam.js';
import { andFilters, bodyFor, defineArea, listPage, type Ctx } from '../route.js';
import type { Store } from '../store.js';
import { instanceRef, type VmRecord } from './vm-refs.js';

const REGION_FILTER = filterFields(filterableFields(IPAddress));
const POOL_FILTER = filterFields(filterableFields(IPv6Pool));
const PUBLIC_ONLY: SqlFilter = { where: "json_extract(data, '$.public') = 1", params: [] };

const presentIp = (row: IpRecord) => present(IPAddress, row);

/**
 * The seed says forward DNS must already exist before rdns is set. Offline
 * there is no DNS to ask, so names under the reserved example and test domains
 * (.example, .example.com, .test) count as resolving to any address, and any
 * other name is refused as not resolving.
 */
const RESOLVABLE = /\.(example|example\.com|test)\.?$/i;

/** An address record the caller may see, by the address in the path (any spelling of an IPv6 address). */
function addressOf(ctx: Ctx, level: 'read_only' | 'read_write'): IpRecord {
  syncIpv6Records(ctx.store);
  const address = canonicalAddress(ctx.params.address!);
  const record = address ? ctx.store.get<IpRecord>('ip', address) : undefined;
  if (!record) throw notFound('Address not found');
  requireEntity(ctx.auth, 'vm', record.vm_id, level, 'Address not found');
  return record;
}

const ipv4Of = (store: Store, vmId: number) => ipsOf(store, vmId).filter((ip) => ip.type === 'ipv4');

/**
 * "The instance must be set up for extra addresses": here an instance may hold
 * at most two public IPv4 addresses and one private one; asking for more is a
 * 400 that says which limit was reached.
 */
function allocate(ctx: Ctx) {
  const body = bodyFor(ctx, IpAllocation, 'create');
  const vm = instanceRef(ctx, body.vm_id as number, 'read_write');
  if (!vm) throw badRequest(`instance ${String(body.vm_id)} not found`, 'vm_id');
  const isPublic = body.public as boolean;
  const held = ipv4Of(ctx.store, vm.id).filter((ip) => ip.public === isPublic).length;
  const limit = isPublic ? MAX_PUBLIC_IPV4 : MAX_PRIVATE_IPV4;
  if (held >= limit) {
    throw badRequest(
      `instance ${vm.label} (${vm.id}) is not set up for another ${isPublic ? 'public' : 'private'} IPv4 address: it already has ${held}, the most an instance may hold`,
      'public',
    );
  }
  const record = allocateIpv4(ctx.store, vm.id, vm.region, isPublic);
  return presentIp(record);
}

function updateRdns(ctx: Ctx) {
  const record = addressOf(ctx, 'read_write');
  const body = bodyFor(ctx, IPAddress, 'update', record);
  if (!record.public) throw badRequest('rdns cannot be set on a private address', 'rdns');
  if (record.type === 'ipv6/range') throw badRequest(`${record.address}/64 is a range: reverse DNS is set on single addresses, not on a range`, 'rdns');
  const wanted = body.rdns as string | null;
  if (wanted !== null && !RESOLVABLE.test(wanted)) {
    throw badRequest(`forward DNS for ${wanted} does not resolve to ${record.address}; create the DNS record first`, 'rdns');
  }
  const rdns = wanted ?? (record.type === 'ipv4' ? defaultRdns(record.address) : null);
  const updated: IpRecord = { ...record, rdns };
  ctx.store.put('ip', record.address, updated);
  return presentIp(updated);
}

/** An IPv4 record named in a body, when it exists and its instance is visible to the caller. */
function ipv4Ref(ctx: Ctx, value: string): IpRecord | null {
  const record = ctx.store.get<IpRecord>('ip', value);
  return record && record.type === 'ipv4' && visibleTo(ctx.auth, 'vm', record.vm_id) ? record : null;
}

/**
 * Every address and instance must be in the region, the caller needs write
 * access to all of them, and afterwards each instance involved must hold at
 * least one public and at most one private IPv4; otherwise nothing changes.
 */
function assign(ctx: Ctx) {
  const body = bodyFor(ctx, IpAssignment, 'create');
  const region = body.region as string;
  const assignments = body.assignments as { address: string; vm_id: number }[];
  const errors: FieldError[] = [];
  if (!ctx.store.get('region', region)) errors.push({ field: 'region', reason: `${region} is not a region` });
  const moves: { record: IpRecord; vm: VmRecord }[] = [];
  const seen = new Set<string>();
  assignments.forEach(({ address, vm_id }, i) => {
    const record = ipv4Ref(ctx, address);
    if (!record) errors.push({ field: `assignments.${i}.address`, reason: `IPv4 address ${address} not found` });
    else {
      requireEntity(ctx.auth, 'vm', record.vm_id, 'read_write');
      if (record.region !== region) errors.push({ field: `assignments.${i}.address`, reason: `${address} is in ${record.region}, not ${region}` });
      if (seen.has(address)) errors.push({ field: `assignments.${i}.address`, reason: `${address} is assigned more than once` });
      seen.add(address);
    }
    const vm = instanceRef(ctx, vm_id, 'read_write');
    if (!vm) errors.push({ field: `assignments.${i}.vm_id`, reason: `instance ${vm_id} not found` });
    else if (vm.region !== region) errors.push({ field: `assignments.${i}.vm_id`, reason: `instance ${vm.label} (${vm.id}) is in ${vm.region}, not ${region}` });
    if (record && vm) moves.push({ record, vm });
  });
  assertValid(errors);

  const target = new Map(moves.map((m) => [m.record.address, m.vm.id]));
  const involved = new Map<number, string>();
  for (const { record, vm } of moves) {
    involved.set(vm.id, vm.label);
    if (!involved.has(record.vm_id)) involved.set(record.vm_id, ctx.store.get<VmRecord>('vm', record.vm_id)?.label ?? String(record.vm_id));
  }
  for (const [vmId, label] of involved) {
    const after = [
      ...ipv4Of(ctx.store, vmId).filter((ip) => (target.get(ip.address) ?? vmId) === vmId),
      ...moves.filter((m) => m.vm.id === vmId && m.record.vm_id !== vmId).map((m) => m.record),
    ];
    if (!after.some((ip) => ip.public)) errors.push({ field: 'assignments', reason: `instance ${label} (${vmId}) would be left without a public IPv4 address` });
    if (after.filter((ip) => !ip.public).length > MAX_PRIVATE_IPV4) {
      errors.push({ field: 'assignments', reason: `instance ${label} (${vmId}) would have more than one private IPv4 address` });
    }
  }
  assertValid(errors);

  for (const { record, vm } of moves) if (record.vm_id !== vm.id) moveIp(ctx.store, record, vm.id);
}

/**
 * Sets the addresses shared with an instance: the list replaces what was shared
 * before (an empty list stops sharing). Each address must be visible to the
 * caller, belong to another instance and be in the target's region.
 */
function share(ctx: Ctx) {
  const body = bodyFor(ctx, IpShare, 'create');
  const vm = instanceRef(ctx, body.vm_id as number, 'read_write');
  if (!vm) throw badRequest(`instance ${String(body.vm_id)} not found`, 'vm_id');
  const ips = body.ips as string[];
  const errors: FieldError[] = [];
  const records = ips.flatMap((address, i) => {
    const record = ipv4Ref(ctx, address);
    const field = `ips.${i}`;
    if (!record) errors.push({ field, reason: `IPv4 address ${address} not found` });
    else if (record.vm_id === vm.id) errors.push({ field, reason: `${address} already belongs to instance ${vm.label}` });
    else if (record.region !== vm.region) errors.push({ field, reason: `${address} is in ${record.region}; shared addresses must be in ${vm.region} like the instance` });
    else if (ips.indexOf(address) < i) errors.push({ field, reason: `${address} is listed twice` });
    return record ? [record] : [];
  });
  assertValid(errors);

  const wanted = new Set(records.map((r) => r.address));
  for (const ip of ctx.store.all<IpRecord>('ip')) {
    const others = (ip._shared_with ?? []).filter((id) => id !== vm.id);
    const next = wanted.has(ip.address) ? [...others, vm.id] : others;
    if (next.length !== (ip._shared_with ?? []).length) ctx.store.put('ip', ip.address, { ...ip, _shared_with: next });
  }
}

/** Pools are routed to every instance in a region: a restricted user sees those of regions where they see an instance. */
function poolRestriction(ctx: Ctx): SqlFilter | undefined {
  if (!ctx.auth?.user.restricted) return undefined;
  const regions = [...new Set(ctx.store.all<VmRecord>('vm').filter((vm) => visibleTo(ctx.auth, 'vm', vm.id)).map((vm) => vm.region))];
  if (regions.length === 0) return { where: '0', params: [] };
  return { where: `json_extract(data, '$.region') IN (${regions.map(() => '?').join(',')})`, params: regions };
}

/** A deleted instance (whose addresses compute releases) stops sharing addresses and loses its /64 ranges. */
onInstanceDeleted((store, vmId) => {
  for (const ip of store.all<IpRecord>('ip')) {
    if (ip._shared_with?.includes(vmId)) store.put('ip', ip.address, { ...ip, _shared_with: ip._shared_with.filter((id) => id !== vmId) });
  }
  for (const range of store.all<Ipv6BlockRecord>('ipv6_range')) if (range._vm_id === vmId) store.delete('ipv6_range', range.range);
});

/** IP addresses: public listing, allocation, reverse DNS, assignment and sharing, IPv6 pools and ranges. */
export default defineArea('ips', (r) => {
  r.get('/networking/ips', 'ips:read_only', (ctx) => {
    syncIpv6Records(ctx.store);
    return listPage<IpRecord>(ctx, 'ip', {
      filterable: REGION_FILTER,
      restrict: andFilters(PUBLIC_ONLY, grantFilter(ctx.auth, 'vm', '$.vm_id')),
      present: presentIp,
    });
  });
  r.post('/networking/ips', ['ips:read_write', 'vms:read_write'], allocate);
  r.get('/networking/ips/{address}', 'ips:read_only', (ctx) => presentIp(addressOf(ctx, 'read_only')));
  r.put('/networking/ips/{address}', 'ips:read_write', updateRdns);
  r.post('/networking/ipv4/assign', ['ips:read_write', 'vms:read_write'], assign);
  r.post('/networking/ipv4/share', ['ips:read_write', 'vms:read_write'], share);
  r.get('/networking/ipv6/pools', 'ips:read_only', (ctx) =>
    listPage<Ipv6BlockRecord>(ctx, 'ipv6_pool', { filterable: POOL_FILTER, restrict: poolRestriction(ctx), present: (row) => present(IPv6Pool, row) }),
  );
  r.get('/networking/ipv6/ranges', 'ips:read_only', (ctx) =>
    listPage<Ipv6BlockRecord>(ctx, 'ipv6_range', { restrict: grantFilter(ctx.auth, 'vm', '$._vm_id'), present: (row) => present(IPv6Range, row) }),
  );
});
