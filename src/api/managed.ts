import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';
import type { ServiceStatus } from '../model/managed.js';

/** Managed monitoring: typed endpoint functions for contacts, credentials, services, issues, instance settings and stats. */

export interface ManagedContact {
  id: number;
  name: string | null;
  email: string | null;
  phone: { primary: string | null; secondary: string | null };
  group: string | null;
  updated: string;
}

export interface ManagedCredential {
  id: number;
  label: string;
  last_decrypted: string | null;
}

export interface ManagedService {
  id: number;
  label: string;
  service_type: 'url' | 'tcp';
  address: string;
  timeout: number;
  body: string | null;
  consultation_group: string;
  credentials: number[];
  notes: string | null;
  region: string | null;
  status: ServiceStatus;
  created: string;
  updated: string;
}

export interface ManagedIssue {
  id: number;
  created: string;
  entity: { id: number; label: string; type: 'ticket'; url: string };
  services: number[];
}

export interface ManagedVMSettings {
  id: number;
  label: string;
  group: string;
  ssh: { access: boolean; user: string; ip: string; port: number };
}

export const STATS_SERIES = ['cpu', 'disk', 'net_in', 'net_out', 'swap'] as const;
export type StatsSeries = (typeof STATS_SERIES)[number];

/** GET /managed/stats: the graphs, or messages while they are not available yet. */
export type ManagedStats = { graphs: Record<StatsSeries, { x: number; y: number }[]> } | { messages: string[] };

export const CONTACTS_PATH = '/managed/contacts';
export const CREDENTIALS_PATH = '/managed/credentials';
export const SSH_KEY_PATH = '/managed/credentials/sshkey';
export const SERVICES_PATH = '/managed/services';
export const ISSUES_PATH = '/managed/issues';
export const VM_SETTINGS_PATH = '/managed/vm-settings';
export const STATS_PATH = '/managed/stats';

/** Every mutation of the managed area changes what these show. */
export const MANAGED_PATHS = [CONTACTS_PATH, CREDENTIALS_PATH, SERVICES_PATH, ISSUES_PATH, VM_SETTINGS_PATH];

const at = (base: string, id: number) => `${base}/${id}`;

export const listContacts = (client: ApiClient) => fetchAllPages<ManagedContact>(client, CONTACTS_PATH);
export const getContact = (client: ApiClient, id: number) => client.get<ManagedContact>(at(CONTACTS_PATH, id));
export const createContact = (client: ApiClient, body: Record<string, unknown>) => client.post<ManagedContact>(CONTACTS_PATH, body);
export const updateContact = (client: ApiClient, id: number, body: Record<string, unknown>) => client.put<ManagedContact>(at(CONTACTS_PATH, id), body);
export const deleteContact = (client: ApiClient, id: number) => client.delete<unknown>(at(CONTACTS_PATH, id));

export const listCredentials = (client: ApiClient) => fetchAllPages<ManagedCredential>(client, CREDENTIALS_PATH);
export const getCredential = (client: ApiClient, id: number) => client.get<ManagedCredential>(at(CREDENTIALS_PATH, id));
export const createCredential = (client: ApiClient, body: Record<string, unknown>) => client.post<ManagedCredential>(CREDENTIALS_PATH, body);
export const updateCredential = (client: ApiClient, id: number, body: Record<string, unknown>) => client.put<ManagedCredential>(at(CREDENTIALS_PATH, id), body);
export const deleteCredential = (client: ApiClient, id: number) => client.delete<unknown>(at(CREDENTIALS_PATH, id));
/** Replaces the stored password (and username, when given): POST …/update. */
export const updateCredentialSecret = (client: ApiClient, id: number, body: Record<string, unknown>) => client.post<unknown>(`${at(CREDENTIALS_PATH, id)}/update`, body);
export const getSshKey = async (client: ApiClient) => (await client.get<{ ssh_key: string }>(SSH_KEY_PATH)).ssh_key;

export const listServices = (client: ApiClient) => fetchAllPages<ManagedService>(client, SERVICES_PATH);
export const getService = (client: ApiClient, id: number) => client.get<ManagedService>(at(SERVICES_PATH, id));
export const createService = (client: ApiClient, body: Record<string, unknown>) => client.post<ManagedService>(SERVICES_PATH, body);
export const updateService = (client: ApiClient, id: number, body: Record<string, unknown>) => client.put<ManagedService>(at(SERVICES_PATH, id), body);
export const deleteService = (client: ApiClient, id: number) => client.delete<unknown>(at(SERVICES_PATH, id));
export const disableService = (client: ApiClient, id: number) => client.post<ManagedService>(`${at(SERVICES_PATH, id)}/disable`);
export const enableService = (client: ApiClient, id: number) => client.post<ManagedService>(`${at(SERVICES_PATH, id)}/enable`);

export const listIssues = (client: ApiClient) => fetchAllPages<ManagedIssue>(client, ISSUES_PATH);
export const getIssue = (client: ApiClient, id: number) => client.get<ManagedIssue>(at(ISSUES_PATH, id));

export const listVmSettings = (client: ApiClient) => fetchAllPages<ManagedVMSettings>(client, VM_SETTINGS_PATH);
export const getVmSettings = (client: ApiClient, vmId: number) => client.get<ManagedVMSettings>(at(VM_SETTINGS_PATH, vmId));
export const updateVmSettings = (client: ApiClient, vmId: number, body: Record<string, unknown>) => client.put<ManagedVMSettings>(at(VM_SETTINGS_PATH, vmId), body);

export async function getStats(client: ApiClient): Promise<ManagedStats> {
  const { data } = await client.get<{ data: unknown }>(STATS_PATH);
  if (Array.isArray(data)) return { messages: data.map(String) };
  const graphs = data as Partial<Record<StatsSeries, unknown>>;
  // A chart draws numbers: a point of anything else is left out, not drawn as NaN.
  const points = (series: unknown) =>
    Array.isArray(series) ? series.filter((p): p is { x: number; y: number } => Number.isFinite(p?.x) && Number.isFinite(p?.y)) : [];
  return { graphs: Object.fromEntries(STATS_SERIES.map((s) => [s, points(graphs[s])])) as Record<StatsSeries, { x: number; y: number }[]> };
}

/** Services in trouble, the number the header shows. */
export const problemCount = (services: readonly ManagedService[]) => services.filter((s) => s.status === 'problem').length;
