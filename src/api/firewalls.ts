import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** Cloud firewalls: declared only on the beta root. */

export type Direction = 'inbound' | 'outbound';

export type FirewallAction = 'ACCEPT' | 'DROP';

export interface FirewallRule {
  protocol: 'TCP' | 'UDP' | 'ICMP';
  ports?: string;
  addresses?: { ipv4?: string[]; ipv6?: string[] };
  /** Later releases: what the rule does with the traffic it matches, and its name and note. */
  action?: FirewallAction;
  label?: string;
  description?: string;
}

export interface FirewallRules {
  inbound: FirewallRule[];
  outbound: FirewallRule[];
  /** Later releases: what happens to traffic no rule matches. */
  inbound_policy?: FirewallAction;
  outbound_policy?: FirewallAction;
}

export interface Firewall {
  id: number;
  label: string;
  created: string;
  updated: string;
  status: 'enabled' | 'disabled' | 'deleted';
  rules: FirewallRules;
  tags: string[];
}

export interface FirewallDevice {
  id: number;
  created: string;
  updated: string;
  entity: { id: number; type: string; label: string; url: string };
}

export const FIREWALLS_PATH = '/networking/firewalls';
const BETA = { root: 'beta' } as const;

const id = (v: number | string) => encodeURIComponent(String(v));
export const firewallPath = (fw: number | string) => `${FIREWALLS_PATH}/${id(fw)}`;
export const rulesPath = (fw: number | string) => `${firewallPath(fw)}/rules`;
export const devicesPath = (fw: number | string) => `${firewallPath(fw)}/devices`;
export const devicePath = (fw: number | string, device: number | string) => `${devicesPath(fw)}/${id(device)}`;

type Body = Record<string, unknown>;

export const getFirewall = (client: ApiClient, fw: number | string) => client.get<Firewall>(firewallPath(fw), BETA);
export const createFirewall = (client: ApiClient, body: Body) => client.post<Firewall>(FIREWALLS_PATH, body, BETA);
export const updateFirewall = (client: ApiClient, fw: number | string, body: Body) => client.put<Firewall>(firewallPath(fw), body, BETA);
export const deleteFirewall = (client: ApiClient, fw: number | string) => client.delete<unknown>(firewallPath(fw), BETA);

export const getRules = (client: ApiClient, fw: number | string) => client.get<FirewallRules>(rulesPath(fw), BETA);
/** Replaces the whole ruleset. */
export const putRules = (client: ApiClient, fw: number | string, rules: FirewallRules) => client.put<FirewallRules>(rulesPath(fw), rules, BETA);

export const listDevices = (client: ApiClient, fw: number | string) => fetchAllPages<FirewallDevice>(client, devicesPath(fw), BETA);
export const getDevice = (client: ApiClient, fw: number | string, device: number | string) => client.get<FirewallDevice>(devicePath(fw, device), BETA);
export const addDevice = (client: ApiClient, fw: number | string, body: Body) => client.post<FirewallDevice>(devicesPath(fw), body, BETA);
export const removeDevice = (client: ApiClient, fw: number | string, device: number | string) => client.delete<unknown>(devicePath(fw, device), BETA);

