import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';
import { addDevice, insertFirewall, saveFirewall } from '../areas/firewalls.js';
import type { VmRecord } from '../areas/vm-refs.js';
import { allocateIpv6Range, ensureIpv6Pool, ipsOf, syncIpv6Records, type IpRecord } from '../ipam.js';

const OWNER = 'demo-owner';
const ANYWHERE = { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] };
const OFFICE = { ipv4: ['198.51.100.0/24', '203.0.113.45'], ipv6: ['2001:db8:4f00::/48'] };
const PRIVATE_NET = { ipv4: ['192.168.128.0/17'] };

const FIREWALLS = {
  web: {
    label: 'web-public',
    tags: ['production', 'web'],
    rules: {
      inbound: [
        { protocol: 'TCP', ports: '80, 443', addresses: ANYWHERE },
        { protocol: 'ICMP', addresses: ANYWHERE },
      ],
      outbound: [],
    },
  },
  ssh: {
    label: 'office-ssh',
    tags: ['ops'],
    rules: { inbound: [{ protocol: 'TCP', ports: '22', addresses: OFFICE }], outbound: [] },
  },
  db: {
    label: 'db-private',
    tags: ['production', 'database'],
    rules: {
      inbound: [{ protocol: 'TCP', ports: '5432, 6379', addresses: PRIVATE_NET }],
      outbound: [
        { protocol: 'TCP', ports: '443', addresses: ANYWHERE },
        { protocol: 'UDP', ports: '53, 123', addresses: ANYWHERE },
        { protocol: 'TCP', ports: '5432, 6379', addresses: PRIVATE_NET },
      ],
    },
  },
  legacy: {
    label: 'legacy-ftp',
    tags: ['legacy'],
    rules: { inbound: [{ protocol: 'TCP', ports: '20-21, 990, 40000-40100', addresses: OFFICE }], outbound: [] },
  },
};

const publicIpv4 = (store: Store, vm: VmRecord) => ipsOf(store, vm.id).find((ip) => ip.type === 'ipv4' && ip.public);

function setRdns(store: Store, ip: IpRecord | undefined, rdns: string): void {
  if (ip) store.put('ip', ip.address, { ...ip, rdns });
}

/**
 * Firewalls on the compute demo's instances (a public web set, office SSH, a
 * private database set with outbound rules, a disabled legacy one), IPv6 pools
 * and ranges, custom reverse DNS and one shared address.
 */
export function seedNetworkingDemo(store: Store, _sim: Simulation): void {
  const vms = store.all<VmRecord>('vm');
  syncIpv6Records(store);

  const web = insertFirewall(store, FIREWALLS.web, OWNER);
  const ssh = insertFirewall(store, FIREWALLS.ssh, OWNER);
  const db = insertFirewall(store, FIREWALLS.db, OWNER);
  const created = insertFirewall(store, FIREWALLS.legacy, OWNER);
  const legacy = saveFirewall(store, created, { ...created, status: 'disabled' }, OWNER);

  const half = Math.ceil(vms.length / 2);
  for (const vm of vms.slice(0, half)) addDevice(store, web, vm, OWNER);
  for (const vm of vms.slice(0, 5)) addDevice(store, ssh, vm, OWNER);
  for (const vm of vms.slice(half)) addDevice(store, db, vm, OWNER);
  if (vms[0]) addDevice(store, legacy, vms[0], OWNER);

  for (const region of new Set(vms.map((vm) => vm.region))) ensureIpv6Pool(store, region);
  for (const vm of vms.slice(0, 2)) allocateIpv6Range(store, vm.id, vm.region);

  const [first, second] = vms;
  if (first) setRdns(store, publicIpv4(store, first), 'www.shop.example.com');
  if (second) setRdns(store, publicIpv4(store, second), 'api.shop.example.com');
  const slaac = first && ipsOf(store, first.id).find((ip) => ip.type === 'ipv6');
  if (slaac) setRdns(store, slaac, 'www.shop.example.com');

  // A failover pair: the first instance's public address may also be brought up on a neighbour in its region.
  const neighbour = first && vms.find((vm) => vm.id !== first.id && vm.region === first.region);
  const shared = first && publicIpv4(store, first);
  if (neighbour && shared) store.put('ip', shared.address, { ...shared, _shared_with: [neighbour.id] });
}
