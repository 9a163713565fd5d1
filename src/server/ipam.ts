import type { Store } from './store.js';
import { REGION_IDS } from './seed/reference.js';

/** Address records (kind `ip`, id = the address, parent = the instance id). */
export interface IpRecord extends Record<string, unknown> {
  address: string;
  gateway: string | null;
  subnet_mask: string;
  prefix: number;
  type: 'ipv4' | 'ipv6' | 'ipv6/pool' | 'ipv6/range';
  public: boolean;
  rdns: string | null;
  vm_id: number;
  region: string;
}

const regionIndex = (region: string) => Math.max(0, REGION_IDS.indexOf(region));

export function defaultRdns(address: string): string {
  return `${address.replace(/\./g, '-')}.ip.vmcloud.example`;
}

/** Allocates the next free IPv4 in the region's public or private pool and records it for the instance. */
export function allocateIpv4(store: Store, vmId: number, region: string, isPublic: boolean): IpRecord {
  const ri = regionIndex(region);
  const n = store.nextId(`ipv4:${isPublic ? 'public' : 'private'}:${region}`, 2);
  const address = isPublic ? `45.${79 + ri}.${(n >> 8) & 255}.${n & 255}` : `192.168.${128 + ((n >> 8) & 127)}.${n & 255}`;
  const record: IpRecord = {
    address,
    gateway: isPublic ? address.replace(/\.\d+$/, '.1') : null,
    subnet_mask: isPublic ? '255.255.255.0' : '255.255.128.0',
    prefix: isPublic ? 24 : 17,
    type: 'ipv4',
    public: isPublic,
    rdns: isPublic ? defaultRdns(address) : null,
    vm_id: vmId,
    region,
  };
  store.insert('ip', address, record, { parent: String(vmId) });
  return record;
}

/** The SLAAC address an instance gets at creation. */
export function slaacAddress(store: Store, region: string): string {
  const ri = regionIndex(region);
  const n = store.nextId(`ipv6:slaac:${region}`, 1);
  return `2600:3c0${ri}::f03c:93ff:fe${(n >> 16).toString(16).padStart(2, '0')}:${(n & 0xffff).toString(16)}`;
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
