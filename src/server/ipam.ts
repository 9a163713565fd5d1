import ipaddr from 'ipaddr.js';
import type { IPAddressResponse } from '../model/ips.js';
import type { Store } from './store.js';
import { REGION_IDS } from './seed/reference.js';

/** Address records (kind `ip`, id = the address, parent = the instance id). */
export interface IpRecord extends IPAddressResponse, Record<string, unknown> {
  /** Instances this address is shared with (POST /networking/ipv4/share). */
  _shared_with?: number[];
}

const regionIndex = (region: string) => Math.max(0, REGION_IDS.indexOf(region));

export function defaultRdns(address: string): string {
  return `${address.replace(/\./g, '-')}.ip.vmcloud.example`;
}

/** The next of a sequence of addresses not already held: an imported account holds addresses the sequence did not hand out. */
function unused(store: Store, kind: 'ip' | 'ipv6_range', next: () => string): string {
  let address = next();
  while (store.get(kind, address)) address = next();
  return address;
}

/** Allocates the next free IPv4 in the region's public or private pool and records it for the instance. */
export function allocateIpv4(store: Store, vmId: number, region: string, isPublic: boolean): IpRecord {
  const ri = regionIndex(region);
  // Addresses are unique across regions (they are record ids), so each region gets its own slice of 192.168.128.0/17.
  const next = () => {
    const n = store.nextId(`ipv4:${isPublic ? 'public' : 'private'}:${region}`, 2);
    return isPublic ? `45.${79 + ri}.${(n >> 8) & 255}.${n & 255}` : `192.168.${128 + ri * 16 + ((n >> 8) & 15)}.${n & 255}`;
  };
  const address = unused(store, 'ip', next);
  return recordIpv4(store, { address, vmId, region, isPublic, rdns: isPublic ? defaultRdns(address) : null });
}

/** Records an IPv4 address of an instance: in the service's pools a /24 public or a /17 private network, the gateway its .1. */
export function recordIpv4(store: Store, { address, vmId, region, isPublic, rdns }: { address: string; vmId: number; region: string; isPublic: boolean; rdns: string | null }): IpRecord {
  const record: IpRecord = {
    address,
    gateway: isPublic ? address.replace(/\.\d+$/, '.1') : null,
    subnet_mask: isPublic ? '255.255.255.0' : '255.255.128.0',
    prefix: isPublic ? 24 : 17,
    type: 'ipv4',
    public: isPublic,
    rdns,
    vm_id: vmId,
    region,
  };
  store.insert('ip', address, record, { parent: String(vmId) });
  return record;
}

/** The SLAAC address an instance gets at creation. */
export function slaacAddress(store: Store, region: string): string {
  const ri = regionIndex(region);
  const next = () => {
    const n = store.nextId(`ipv6:slaac:${region}`, 1);
    return `2600:3c0${ri}::f03c:93ff:fe${(n >> 16).toString(16).padStart(2, '0')}:${(n & 0xffff).toString(16)}`;
  };
  return unused(store, 'ip', next);
}

export function ipsOf(store: Store, vmId: number): IpRecord[] {
  return store.all<IpRecord>('ip', String(vmId));
}

/** The instance's ipv4 field: public addresses first, then private. */
export function ipv4List(store: Store, vmId: number): string[] {
  const ips = ipsOf(store, vmId).filter((ip) => ip.type === 'ipv4');
  return [...ips.filter((ip) => ip.public), ...ips.filter((ip) => !ip.public)].map((ip) => ip.address);
}

export function releaseIps(store: Store, vmId: number): void {
  store.deleteChildren('ip', String(vmId));
}

// ---- Networking area additions: address moves, sharing, SLAAC records, IPv6 pools and ranges ----

/** The form addresses are stored under: IPv6 compressed and lower-case, any /prefix dropped; null when not an address. */
export function canonicalAddress(value: string): string | null {
  const bare = value.replace(/\/\d+$/, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return bare;
  return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare).toString() : null;
}

/** Moves an address to another instance; the target stops listing it as shared. */
export function moveIp(store: Store, record: IpRecord, vmId: number): IpRecord {
  const moved: IpRecord = { ...record, vm_id: vmId, _shared_with: (record._shared_with ?? []).filter((id) => id !== vmId) };
  store.delete('ip', record.address);
  store.insert('ip', record.address, moved, { parent: String(vmId) });
  return moved;
}

/** Addresses other instances share with this one (it may bring them up too). */
export function sharedWith(store: Store, vmId: number): IpRecord[] {
  return store.all<IpRecord>('ip').filter((ip) => ip._shared_with?.includes(vmId));
}

/** The mask of an IPv6 /64 (SLAAC addresses and ranges). */
const SLASH_64_MASK = 'ffff:ffff:ffff:ffff::';

function slaacRecord(address: string, vmId: number, region: string): IpRecord {
  return { address, gateway: 'fe80::1', subnet_mask: SLASH_64_MASK, prefix: 64, type: 'ipv6', public: true, rdns: null, vm_id: vmId, region };
}

/** A /64 range as the address list presents it: the only link 4.83.1 gives from a range to its instance. */
function rangeRecord(range: string, vmId: number, region: string): IpRecord {
  return { address: range, gateway: null, subnet_mask: SLASH_64_MASK, prefix: 64, type: 'ipv6/range', public: true, rdns: null, vm_id: vmId, region };
}

/**
 * Instances keep their SLAAC address as a string and ranges keep their
 * instance as `_vm_id`; this mirrors each as an `ip` record (type ipv6, or
 * ipv6/range) so it is listed and retrievable with its vm_id, and drops records
 * of addresses and ranges no instance holds any more (a range moved to another
 * instance is recorded again under it).
 */
export function syncIpv6Records(store: Store): void {
  const held = new Map<string, IpRecord>();
  for (const vm of store.all<{ id: number; region: string; ipv6?: unknown }>('vm')) {
    const address = typeof vm.ipv6 === 'string' ? canonicalAddress(vm.ipv6) : null;
    if (address) held.set(address, slaacRecord(address, vm.id, vm.region));
  }
  for (const block of store.all<Ipv6BlockRecord>('ipv6_range')) {
    if (typeof block._vm_id === 'number') held.set(block.range, rangeRecord(block.range, block._vm_id, block.region));
  }
  for (const ip of store.all<IpRecord>('ip')) {
    if (ip.type === 'ipv4') continue;
    const wanted = held.get(ip.address);
    if (wanted?.type !== ip.type || wanted.vm_id !== ip.vm_id) store.delete('ip', ip.address);
  }
  for (const [address, record] of held) {
    if (!store.get('ip', address)) store.insert('ip', address, record, { parent: String(record.vm_id) });
  }
}

/** IPv6 pools (kind ipv6_pool) and /64 ranges (kind ipv6_range, routed to `_vm_id`), id = the range. */
export interface Ipv6BlockRecord extends Record<string, unknown> {
  range: string;
  prefix: number;
  region: string;
  route_target: string | null;
  _vm_id?: number;
}

/** The last address of a block, which the spec gives as its route_target. */
function lastAddress(range: string, prefix: number): string {
  const bytes = ipaddr.IPv6.parse(range).toByteArray();
  for (let bit = prefix; bit < 128; bit++) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return ipaddr.fromByteArray(bytes).toString();
}

const POOL_PREFIX = 124;

/** The region's pool, routed to all the account's instances there; made on first use. */
export function ensureIpv6Pool(store: Store, region: string): Ipv6BlockRecord {
  const existing = store.all<Ipv6BlockRecord>('ipv6_pool').find((p) => p.region === region);
  if (existing) return existing;
  const range = ipaddr.IPv6.parse(`2600:3c0${regionIndex(region)}::2:5000:0`).toString();
  const pool: Ipv6BlockRecord = { range, prefix: POOL_PREFIX, region, route_target: lastAddress(range, POOL_PREFIX) };
  store.insert('ipv6_pool', range, pool);
  return pool;
}

/** A /64 routed to one instance. */
export function allocateIpv6Range(store: Store, vmId: number, region: string): Ipv6BlockRecord {
  const next = () => ipaddr.IPv6.parse(`2600:3c0${regionIndex(region)}:${(0xe000 + store.nextId(`ipv6:range:${region}`, 1)).toString(16)}::`).toString();
  const range = unused(store, 'ipv6_range', next);
  const block: Ipv6BlockRecord = { range, prefix: 64, region, route_target: lastAddress(range, 64), _vm_id: vmId };
  store.insert('ipv6_range', range, block);
  return block;
}
