import type { ManagedContact, ManagedCredential, ManagedIssue, ManagedService, ManagedVMSettings } from '../../api/managed.js';
import { addressHost } from '../../model/managed.js';

/** Everything needed to act on an issue, joined from the area's lists: pure, so the views and tests share it. */

export interface InstanceRef {
  id: number;
  label: string;
  status?: string;
  ipv4?: string[];
  ipv6?: string | null;
}

export interface InstanceAccess {
  settings: ManagedVMSettings;
  instance?: InstanceRef;
}

export interface ServiceContext {
  id: number;
  /** Missing when the service was deleted after the issue opened. */
  service?: ManagedService;
  host: string;
  contacts: ManagedContact[];
  credentials: { id: number; credential?: ManagedCredential }[];
  /** Instances whose addresses match the service's host. */
  access: InstanceAccess[];
}

export interface Lists {
  services: readonly ManagedService[];
  contacts: readonly ManagedContact[];
  credentials: readonly ManagedCredential[];
  vmSettings: readonly ManagedVMSettings[];
  instances: readonly InstanceRef[];
}

const IP = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]+)$/i;

/** Whether the host is an address (instances are matched by address; a name would need DNS). */
export const isIp = (host: string) => IP.test(host);

/** An instance's addresses: its IPv4 list and its IPv6 without the prefix length. */
const addressesOf = (vm: InstanceRef) => [...(vm.ipv4 ?? []), ...(vm.ipv6 ? [vm.ipv6.replace(/\/\d+$/, '')] : [])];

/** Instances reachable at this host: by their addresses, or by the SSH address support was given. */
export function instancesAt(host: string, lists: Pick<Lists, 'vmSettings' | 'instances'>): InstanceAccess[] {
  if (!isIp(host)) return [];
  const wanted = host.toLowerCase();
  const byId = new Map(lists.instances.map((vm) => [vm.id, vm]));
  return lists.vmSettings
    .filter((s) => s.ssh.ip.toLowerCase() === wanted || addressesOf(byId.get(s.id) ?? { id: s.id, label: s.label }).some((a) => a.toLowerCase() === wanted))
    .map((settings) => ({ settings, instance: byId.get(settings.id) }));
}

export const contactsOf = (group: string | undefined, contacts: readonly ManagedContact[]) =>
  group ? contacts.filter((c) => (c.group ?? '').toLowerCase() === group.toLowerCase()) : [];

export function serviceContext(id: number, lists: Lists): ServiceContext {
  const service = lists.services.find((s) => s.id === id);
  const host = service ? addressHost(service.address) : '';
  const credentialsById = new Map(lists.credentials.map((c) => [c.id, c]));
  return {
    id,
    service,
    host,
    contacts: contactsOf(service?.consultation_group, lists.contacts),
    credentials: (service?.credentials ?? []).map((cid) => ({ id: cid, credential: credentialsById.get(cid) })),
    access: service ? instancesAt(host, lists) : [],
  };
}

/**
 * What an issue is called wherever it shows (triage, its heading and crumb, an
 * instance's overview, its JSON): its id in the API, the one
 * /managed/issues/{id} takes, one number everywhere. Its ticket's number is
 * another record's, said as the ticket on the issue's own screen.
 */
export const issueNumber = (issue: Pick<ManagedIssue, 'id'>) => `#${issue.id}`;

export const issueContext = (issue: ManagedIssue, lists: Lists) => issue.services.map((id) => serviceContext(id, lists));
