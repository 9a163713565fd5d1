import type { IPAddressResponse as IPAddress } from '../model/ips.js';
import type { ApiClient } from './client.js';
import { listInstances, type Instance } from './instances.js';

/** IP addresses, reverse DNS, allocation, assignment and sharing; IPv6 pools and ranges. */

export type { IPAddressResponse as IPAddress } from '../model/ips.js';

export interface IPv6Block {
  range: string;
  prefix: number;
  region: string;
  route_target: string | null;
}

export interface Assignment {
  address: string;
  vm_id: number;
}

export const IPS_PATH = '/networking/ips';
export const IPV6_PATH = '/networking/ipv6';
export const IPV6_POOLS_PATH = `${IPV6_PATH}/pools`;
export const IPV6_RANGES_PATH = `${IPV6_PATH}/ranges`;
export const ipPath = (address: string) => `${IPS_PATH}/${encodeURIComponent(address)}`;

export const getIp = (client: ApiClient, address: string) => client.get<IPAddress>(ipPath(address));
/** A host name whose forward DNS points here, or null to reset a public IPv4 to its default. */
export const setRdns = (client: ApiClient, address: string, rdns: string | null) => client.put<IPAddress>(ipPath(address), { rdns });
export const allocateIp = (client: ApiClient, body: { vm_id: number; public: boolean; type: 'ipv4' }) => client.post<IPAddress>(IPS_PATH, body);
export const assignIps = (client: ApiClient, body: { region: string; assignments: Assignment[] }) => client.post<unknown>('/networking/ipv4/assign', body);
/** Replaces the addresses shared with the instance; an empty list stops sharing. */
export const shareIps = (client: ApiClient, body: { vm_id: number; ips: string[] }) => client.post<unknown>('/networking/ipv4/share', body);

/** Instances to pick from in forms, by ID (the value the API takes), labelled by name and region; `where` narrows them. */
export async function instanceChoices(client: ApiClient, where: (vm: Instance) => boolean = () => true) {
  return (await listInstances(client)).filter(where).map((vm) => ({ value: String(vm.id), label: `${vm.label}  (${vm.id}, ${vm.region}, ${vm.status})` }));
}
