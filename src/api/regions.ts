import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** Typed endpoint functions of one area: the pattern every src/api/<area>.ts follows. */

export interface Region {
  id: string;
  country: string;
  capabilities: string[];
  status: 'ok' | 'outage';
  resolvers: { ipv4: string; ipv6: string };
}

export interface Price {
  hourly: number;
  monthly: number;
}

export interface InstanceType {
  id: string;
  label: string;
  class: string;
  vcpus: number;
  memory: number;
  disk: number;
  transfer: number;
  network_out: number;
  gpus: number;
  price: Price;
  /** Later releases: the regions where the plan costs other than `price`. */
  region_prices?: (Price & { id: string })[];
  successor: string | null;
}

export const REGIONS_PATH = '/regions';
export const TYPES_PATH = '/vm/types';

export const listRegions = (client: ApiClient) => fetchAllPages<Region>(client, REGIONS_PATH);
export const listTypes = (client: ApiClient) => fetchAllPages<InstanceType>(client, TYPES_PATH);

/** Region choices for forms (create instance, load balancer, ...); with a capability, only the regions offering it. */
export async function regionChoices(client: ApiClient, capability?: string) {
  return (await listRegions(client))
    .filter((r) => capability === undefined || r.capabilities.includes(capability))
    .map((r) => ({ value: r.id, label: `${r.id} (${r.country})${r.status === 'ok' ? '' : ` ${r.status}`}` }));
}

export async function typeChoices(client: ApiClient) {
  return (await listTypes(client)).map((t) => ({ value: t.id, label: `${t.id}  ${t.label}  $${t.price.monthly}/mo` }));
}
