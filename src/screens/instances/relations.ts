import type { Instance } from '../../api/instances.js';
import type { Firewall, FirewallDevice } from '../../api/firewalls.js';
import type { IPAddress } from '../../api/ips.js';
import type { ManagedIssue, ManagedService } from '../../api/managed.js';
import { issueNumber } from '../managed/issue-model.js';
import { Q } from '../managed/queries.js';
import type { NBConfig, NBNode, NodeBalancer } from '../../api/nodebalancers.js';
import type { DrillTarget } from '../../app/screen.js';
import { isPrivateAddress } from '../../model/formats.js';
import { plural } from '../../model/plural.js';
import type { ReadList } from '../../store/data.js';
import { FIREWALLS_LIST, IPS_LIST, NODEBALANCERS_LIST, configsList, devicesList, nodesList, readableRows } from '../../store/lists.js';
import { FIREWALL_SCREEN, IPS_SCREEN } from '../networking/ids.js';
import { CONFIGS_SCREEN, NODES_SCREEN } from '../nodebalancers/ids.js';
import { nodeStatusColor, portLabel } from '../nodebalancers/format.js';

/** A line of the overview about something that touches the instance; Enter goes to it. */
export interface Relation {
  part: string;
  name: string;
  state: string;
  color?: string;
  summary: string;
  record: unknown;
  /** What d and y call the record, where its name and summary would not. */
  title?: string;
  to?: DrillTarget & { crumb: string };
}

/** The host of an address that may carry a port: `192.168.128.5:80` → `192.168.128.5`. */
export const hostOf = (address: string) => (/^[\d.]+:\d+$/.test(address) ? address.replace(/:\d+$/, '') : address.replace(/^\[(.*)\]:\d+$/, '$1'));

/** The host a managed service checks: a URL's host, or a TCP service's address. */
const serviceHost = (s: ManagedService) => {
  try {
    return new URL(s.address).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return hostOf(s.address);
  }
};

/**
 * One section of the overview: its lines, or one line saying there are none
 * or why it could not be read (a token without the area's scope is not an
 * error of the view).
 */
export async function section(name: string, none: string, lines: () => Promise<Relation[]>): Promise<Relation[]> {
  try {
    const found = await lines();
    return found.length ? found : [{ part: `${name}:none`, name, state: '0', color: 'gray', summary: none, record: null }];
  } catch (err) {
    const text = (err as Error).message;
    const scope = /missing scope ([\w:]+)/.exec(text)?.[1];
    return [{ part: `${name}:error`, name, state: scope ? 'no access' : 'error', color: scope ? 'gray' : 'red', summary: scope ? `the token lacks ${scope}` : text, record: null }];
  }
}

/*
 * Each read starts the moment what it depends on is known: a firewall's
 * devices when the firewalls list is in (cached: at once), a balancer's
 * configs when its list and the instance's region are, a config's nodes when
 * the configs are. The instance itself is a promise: the cached instances
 * list answers it at once, else its own read.
 */

export async function firewalls(read: ReadList, instance: Promise<Instance>): Promise<Relation[]> {
  const all = await readableRows<Firewall>(read, FIREWALLS_LIST);
  const [vm, devices] = await Promise.all([instance, Promise.all(all.map((fw) => readableRows<FirewallDevice>(read, devicesList(fw.id))))]);
  return all
    .filter((_, i) => devices[i]!.some((d) => d.entity.type === 'vm' && d.entity.id === vm.id))
    .map((fw) => ({
      part: `firewall:${fw.id}`,
      name: 'Firewall',
      state: fw.status,
      color: fw.status === 'enabled' ? 'green' : 'yellow',
      summary: `${fw.label} · ${plural(fw.rules.inbound.length, 'inbound rule')}, ${plural(fw.rules.outbound.length, 'outbound rule')}`,
      record: fw,
      to: { screen: FIREWALL_SCREEN, params: { fw: String(fw.id) }, crumb: fw.label },
    }));
}

/** Nodes of the balancers in the instance's region whose address is one of its private addresses. */
export async function balancerNodes(read: ReadList, instance: Promise<Instance>): Promise<Relation[]> {
  const [vm, all] = await Promise.all([instance, readableRows<NodeBalancer>(read, NODEBALANCERS_LIST)]);
  const privateIps = new Set(vm.ipv4.filter(isPrivateAddress));
  if (privateIps.size === 0) return [];
  const perBalancer = await Promise.all(
    all
      .filter((nb) => nb.region === vm.region)
      .map(async (nb) => {
        const configs = await readableRows<NBConfig>(read, configsList(nb.id));
        const perConfig = await Promise.all(
          configs.map(async (cfg) => (await readableRows<NBNode>(read, nodesList(nb.id, cfg.id))).filter((n) => privateIps.has(hostOf(n.address))).map((n) => ({ nb, cfg, n }))),
        );
        return perConfig.flat();
      }),
  );
  return perBalancer.flat().map(({ nb, cfg, n }) => ({
    part: `node:${n.id}`,
    name: 'LB node',
    state: n.status,
    color: nodeStatusColor(n.status),
    summary: `${nb.label} ${portLabel(cfg)} → ${n.address} · node ${n.label}, ${n.mode}`,
    record: n,
    to: {
      via: [{ screen: CONFIGS_SCREEN, params: { nb: String(nb.id) }, label: nb.label }],
      screen: NODES_SCREEN,
      params: { nb: String(nb.id), config: String(cfg.id) },
      select: String(n.id),
      crumb: portLabel(cfg),
    },
  }));
}

/** The address list's entries for the instance (with their reverse DNS and ranges), and any address of the instance it does not list. */
export async function addresses(read: ReadList, instance: Promise<Instance>): Promise<Relation[]> {
  const [vm, all] = await Promise.all([instance, readableRows<IPAddress>(read, IPS_LIST)]);
  const listed = all.filter((ip) => ip.vm_id === vm.id);
  const known = new Set(listed.map((ip) => ip.address));
  const unlisted = vm.ipv4
    .filter((a) => !known.has(a))
    .map((address) => ({ address, type: 'ipv4', public: !isPrivateAddress(address), rdns: null, vm_id: vm.id, region: vm.region }) as IPAddress);
  return [...listed, ...unlisted].map((ip) => ({
    part: `address:${ip.address}`,
    name: 'Address',
    state: ip.type === 'ipv4' ? (ip.public ? 'public' : 'private') : ip.type,
    summary: `${ip.address}${ip.rdns ? ` · ${ip.rdns}` : ''}`,
    record: ip,
    to: { screen: IPS_SCREEN, params: {}, filter: ip.address, crumb: '' },
  }));
}

/** Managed services checking one of the instance's addresses, each followed by its open issues (read alongside, not after). */
async function services(read: ReadList, instance: Promise<Instance>): Promise<Relation[]> {
  const openIssues = (read(Q.issues) as Promise<ManagedIssue[]>).catch(() => [] as ManagedIssue[]);
  const [vm, all] = await Promise.all([instance, read(Q.services) as Promise<ManagedService[]>]);
  const mine = new Set([...vm.ipv4, ...(vm.ipv6 ? [vm.ipv6.replace(/\/\d+$/, '')] : [])]);
  const watching = all.filter((s) => mine.has(serviceHost(s)));
  if (watching.length === 0) return [];
  const issues = await openIssues;
  return watching.flatMap((s) => {
    const open = issues.filter((i) => i.services.includes(s.id));
    return [
      {
        part: `service:${s.id}`,
        name: 'Service',
        state: s.status,
        color: s.status === 'ok' ? 'green' : s.status === 'problem' ? 'red' : 'yellow',
        summary: `${s.label} · ${s.service_type} ${s.address}${open.length ? ` · ${plural(open.length, 'open issue')}` : ''}`,
        record: s,
        to: { screen: 'services', params: {}, filter: s.label, crumb: '' },
      },
      ...open.map((i) => ({
        part: `issue:${i.id}`,
        name: '  Issue',
        state: 'open',
        color: 'red',
        summary: `${issueNumber(i)} ${i.entity.label}`,
        record: i,
        title: `issue ${issueNumber(i)}`,
        to: { screen: 'managed-issue', params: { issueId: String(i.id) }, crumb: issueNumber(i) },
      })),
    ];
  });
}

async function tags(instance: Promise<Instance>): Promise<Relation[]> {
  return (await instance).tags.map((t) => ({ part: `tag:${t}`, name: 'Tag', state: '', summary: t, record: { tag: t }, to: { screen: 'tagged', params: { label: t }, crumb: t } }));
}

/** One part of the overview's relations: its name while it is read, then its lines. */
export interface RelationSection {
  name: string;
  lines: Promise<Relation[]>;
}

/**
 * What touches an instance, from the cached lists of each area, in the
 * overview's order: the firewalls protecting it, the balancer nodes sending
 * to its private address, its addresses, its tags, the managed services
 * checking it and their open issues. All start at once; each section settles
 * on its own. (4.83.1 says nowhere which addresses are shared with an instance.)
 */
export function relationsOf(read: ReadList, instance: Promise<Instance>): RelationSection[] {
  const of = (name: string, none: string, lines: () => Promise<Relation[]>): RelationSection => ({ name, lines: section(name, none, lines) });
  return [
    of('Firewalls', 'no firewall protects it', () => firewalls(read, instance)),
    of('LB nodes', 'no load balancer node sends to its private address', () => balancerNodes(read, instance)),
    of('Addresses', 'no addresses', () => addresses(read, instance)),
    of('Tags', 'no tags', () => tags(instance)),
    of('Services', 'no managed service checks its addresses', () => services(read, instance)),
  ];
}
