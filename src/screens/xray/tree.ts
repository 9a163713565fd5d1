import type { ApiClient } from '../../api/client.js';
import { getInstance, type Instance } from '../../api/instances.js';
import type { Firewall, FirewallDevice } from '../../api/firewalls.js';
import type { NBConfig, NBNode, NodeBalancer } from '../../api/nodebalancers.js';
import { listQuery, type DrillTarget, type ScreenRegistry } from '../../app/screen.js';
import { flawOf } from '../../model/response.js';
import type { DataStore, ReadList } from '../../store/data.js';
import { FIREWALLS_LIST, INSTANCES_LIST, NODEBALANCERS_LIST, cachedRow, configsList, devicesList, indexed, nodesList, readableRows, rowsById } from '../../store/lists.js';
import type { Params } from '../../store/nav.js';
import { addresses, balancerNodes, firewalls, hostOf, section, type Relation } from '../instances/relations.js';
import { SUB_LISTS, OVERVIEW_SCREEN } from '../instances/sub-lists.js';
import { FIREWALL_SCREEN } from '../networking/ids.js';
import { CONFIGS_SCREEN, NODES_SCREEN } from '../nodebalancers/ids.js';
import { nodeStatusColor, portLabel } from '../nodebalancers/format.js';
import { instanceStatusColor } from '../instances/format.js';

/**
 * The xray of an item: what it touches, both ways, as a tree whose branches
 * are read when opened. Every list comes through the data store's read rule
 * (cached: no request), so an xray after the views that read those lists
 * costs nothing, and the reads of one branch go out together. A relation that
 * cannot be read, or has nothing, is a line saying so.
 */
export interface XNode {
  /** Unique among its siblings. */
  key: string;
  kind: string;
  label: string;
  state: string;
  color?: string;
  /** Where Enter goes, as by hand. */
  to?: DrillTarget & { crumb: string };
  /** A line saying there is none, or why it could not be read: not an item. */
  note?: boolean;
  children?: () => Promise<XNode[]>;
}

export interface XrayEnv {
  read: ReadList;
  data: DataStore;
  client: ApiClient;
  screens: ScreenRegistry;
}

/** The kinds of item the xray knows the relations of; any other is shown alone, with a line saying so. */
export type XrayParams = { type: 'vm' | 'nodebalancer' | 'firewall'; id: string } | { type: 'port'; nb: string; config: string } | { type: 'node'; nb: string; config: string; id: string };

/** A relation's none/error line, or an item line, as a tree node. */
const fromRelation = (r: Relation, children?: () => Promise<XNode[]>): XNode => {
  const note = /:(none|error)$/.test(r.part);
  return { key: r.part, kind: r.name, label: r.summary, state: r.state, color: r.color, to: r.to, note, children: note ? undefined : children };
};

const rowLabel = (row: Record<string, unknown>) => (typeof row.label === 'string' && row.label ? row.label : String(row.id));

/** An instance's own lists (disks, configs, backups) as their screens read them: the same cache entries. */
function subLists(env: XrayEnv, vm: Instance): Promise<Relation[]>[] {
  return SUB_LISTS.map((sub) => {
    const spec = env.screens.get(sub.screen).list!;
    return section(sub.title, `no ${sub.title.toLowerCase()}`, async () =>
      (await env.read(listQuery(spec, { id: String(vm.id) }, env.data)))
        .filter((row) => !flawOf(row))
        .map((row) => {
          const r = row as Record<string, unknown>;
          const key = spec.rowKey?.(r) ?? String(r.id);
          return {
            part: `${sub.part}:${key}`,
            name: sub.title.replace(/s$/, ''),
            state: typeof r.status === 'string' ? r.status : '',
            summary: spec.label?.(r) ?? rowLabel(r),
            record: r,
            to: { screen: sub.screen, params: { id: String(vm.id) }, select: key, crumb: '' },
          };
        }),
    );
  });
}

export function vmNode(env: XrayEnv, vm: Instance): XNode {
  return {
    key: `vm:${vm.id}`,
    kind: 'Instance',
    label: vm.label,
    state: vm.status,
    color: instanceStatusColor(vm.status),
    to: { screen: OVERVIEW_SCREEN, params: { id: String(vm.id) }, crumb: vm.label },
    children: async () => {
      const instance = Promise.resolve(vm);
      const parts = await Promise.all([
        ...subLists(env, vm),
        section('Addresses', 'no addresses', () => addresses(env.read, instance)),
        section('Firewalls', 'no firewall protects it', () => firewalls(env.read, instance)),
        section('LB nodes', 'no load balancer node sends to its private address', () => balancerNodes(env.read, instance)),
      ]);
      return parts.flat().map((r) => {
        if (r.part.startsWith('firewall:')) return fromRelation(r, () => firewallChildren(env, r.record as Firewall));
        // A node sending to it: its port above, and the balancer above that.
        if (r.part.startsWith('node:')) return fromRelation(r, async () => [await portNode(env, String(r.to!.params!.nb), String(r.to!.params!.config), 'up')]);
        return fromRelation(r);
      });
    },
  };
}

export function balancerNode(env: XrayEnv, nb: NodeBalancer): XNode {
  return {
    key: `nodebalancer:${nb.id}`,
    kind: 'Balancer',
    label: nb.label,
    state: nb.region,
    to: { screen: CONFIGS_SCREEN, params: { nb: String(nb.id) }, crumb: nb.label },
    children: async () =>
      (
        await section('Ports', 'no ports', async () =>
          (await readableRows<NBConfig>(env.read, configsList(nb.id))).map((cfg) => ({ part: `port:${cfg.id}`, name: 'Port', state: '', summary: portLabel(cfg), record: cfg })),
        )
      ).map((r) => (r.record ? portNodeOf(env, String(nb.id), r.record as NBConfig, 'down', nb) : fromRelation(r))),
  };
}

/** A port: its nodes, and (reached from a node or on its own) the balancer above it. */
function portNodeOf(env: XrayEnv, nb: string, cfg: NBConfig, from: 'up' | 'down' | 'root', balancer?: NodeBalancer): XNode {
  return {
    key: `port:${cfg.id}`,
    kind: 'Port',
    label: portLabel(cfg),
    state: balancer?.label ?? '',
    to: { via: [{ screen: CONFIGS_SCREEN, params: { nb }, label: balancer?.label }], screen: NODES_SCREEN, params: { nb, config: String(cfg.id) }, crumb: portLabel(cfg) },
    children: async () => {
      const above = from === 'down' ? [] : [section('Balancer', 'its balancer is not in the list', async () => {
        const found = (await readableRows<NodeBalancer>(env.read, NODEBALANCERS_LIST)).find((b) => String(b.id) === nb);
        return found ? [{ part: `nodebalancer:${found.id}`, name: 'Balancer', state: found.region, summary: found.label, record: found }] : [];
      })];
      const below = from === 'up' ? [] : [section('Nodes', 'no nodes', async () =>
        (await readableRows<NBNode>(env.read, nodesList(nb, cfg.id))).map((n) => ({ part: `node:${n.id}`, name: 'LB node', state: n.status, color: nodeStatusColor(n.status), summary: `${n.label} → ${n.address}, ${n.mode}`, record: n })),
      )];
      return (await Promise.all([...above, ...below])).flat().map((r) => {
        if (r.part.startsWith('nodebalancer:')) return balancerNode(env, r.record as NodeBalancer);
        if (r.part.startsWith('node:')) return lbNode(env, nb, String(cfg.id), r.record as NBNode, 'down');
        return fromRelation(r);
      });
    },
  };
}

async function portNode(env: XrayEnv, nb: string, config: string, from: 'up' | 'root'): Promise<XNode> {
  const cfg = (await readableRows<NBConfig>(env.read, configsList(nb))).find((c) => String(c.id) === config);
  if (!cfg) return { key: `port:${config}`, kind: 'Port', label: `port ${config} is not in its balancer's list`, state: '', note: true };
  const balancer = (await readableRows<NodeBalancer>(env.read, NODEBALANCERS_LIST).catch(() => [])).find((b) => String(b.id) === nb);
  return portNodeOf(env, nb, cfg, from, balancer);
}

/** The instances by each of their IPv4 addresses, once per list. */
const byAddress = (vms: readonly Instance[]) =>
  indexed(vms, 'ipv4', () => {
    const at = new Map<string, Instance[]>();
    for (const vm of vms)
      for (const ip of new Set(vm.ipv4)) {
        const sharing = at.get(ip);
        if (sharing) sharing.push(vm);
        else at.set(ip, [vm]);
      }
    return at;
  });

/** A balancer node: the instance behind its address below, its port above (reached from the port: the instance only). */
function lbNode(env: XrayEnv, nb: string, config: string, n: NBNode, from: 'down' | 'root'): XNode {
  return {
    key: `node:${n.id}`,
    kind: 'LB node',
    label: `${n.label} → ${n.address}, ${n.mode}`,
    state: n.status,
    color: nodeStatusColor(n.status),
    to: { via: [{ screen: CONFIGS_SCREEN, params: { nb } }], screen: NODES_SCREEN, params: { nb, config }, select: String(n.id), crumb: '' },
    children: async () => {
      const host = hostOf(n.address);
      const [behind, port] = await Promise.all([
        section('Instance', `no instance of the account has ${host}`, async () =>
          (byAddress(await readableRows<Instance>(env.read, INSTANCES_LIST)).get(host) ?? []).map((vm) => ({ part: `vm:${vm.id}`, name: 'Instance', state: vm.status, summary: vm.label, record: vm })),
        ),
        from === 'root' ? portNode(env, nb, config, 'up') : undefined,
      ]);
      return [...(port ? [port] : []), ...behind.map((r) => (r.part.startsWith('vm:') ? vmNode(env, r.record as Instance) : fromRelation(r)))];
    },
  };
}

export function firewallNode(env: XrayEnv, fw: Firewall): XNode {
  return {
    key: `firewall:${fw.id}`,
    kind: 'Firewall',
    label: fw.label,
    state: fw.status,
    color: fw.status === 'enabled' ? 'green' : 'yellow',
    to: { screen: FIREWALL_SCREEN, params: { fw: String(fw.id) }, crumb: fw.label },
    children: () => firewallChildren(env, fw),
  };
}

/** What a firewall protects: its devices, each the instance or balancer it names. */
async function firewallChildren(env: XrayEnv, fw: Firewall): Promise<XNode[]> {
  const lines = await section('Devices', 'it protects nothing', async () => {
    const [devices, vms, nbs] = await Promise.all([
      readableRows<FirewallDevice>(env.read, devicesList(fw.id)),
      readableRows<Instance>(env.read, INSTANCES_LIST).catch(() => [] as Instance[]),
      readableRows<NodeBalancer>(env.read, NODEBALANCERS_LIST).catch(() => [] as NodeBalancer[]),
    ]);
    return devices.map((d) => {
      const record = d.entity.type === 'vm' ? rowsById(vms).get(d.entity.id) : rowsById(nbs).get(d.entity.id);
      return { part: `${d.entity.type}:${d.entity.id}`, name: d.entity.type === 'vm' ? 'Instance' : 'Balancer', state: record ? '' : 'not in its list', summary: d.entity.label, record: record ?? null };
    });
  });
  return lines.map((r) => {
    if (r.record && r.part.startsWith('vm:')) return vmNode(env, r.record as Instance);
    if (r.record && r.part.startsWith('nodebalancer:')) return balancerNode(env, r.record as NodeBalancer);
    return fromRelation(r);
  });
}

/** The tree's root for an item; what cannot be found is said in its place. */
export async function xrayRoot(env: XrayEnv, p: Params): Promise<XNode> {
  const missing = (what: string, err?: unknown): XNode => ({ key: 'missing', kind: 'Item', label: `${what}${err ? `: ${(err as Error).message}` : ''}`, state: '', note: true });
  try {
    switch (p.type) {
      case 'vm': {
        const vm = cachedRow<Instance>(env.data, INSTANCES_LIST, Number(p.id)) ?? (await getInstance(env.client, p.id!));
        return vmNode(env, vm);
      }
      case 'nodebalancer': {
        const nb = (await readableRows<NodeBalancer>(env.read, NODEBALANCERS_LIST)).find((b) => String(b.id) === p.id);
        return nb ? balancerNode(env, nb) : missing(`load balancer ${p.id} is not in the list`);
      }
      case 'firewall': {
        const fw = (await readableRows<Firewall>(env.read, FIREWALLS_LIST)).find((f) => String(f.id) === p.id);
        return fw ? firewallNode(env, fw) : missing(`firewall ${p.id} is not in the list`);
      }
      case 'port':
        return await portNode(env, p.nb!, p.config!, 'root');
      case 'node': {
        const n = (await readableRows<NBNode>(env.read, nodesList(p.nb!, p.config!))).find((x) => String(x.id) === p.id);
        return n ? lbNode(env, p.nb!, p.config!, n, 'root') : missing(`node ${p.id} is not in its port's list`);
      }
      default:
        return { key: 'other', kind: p.kind ?? 'Item', label: p.label ?? '', state: '', children: async () => [{ key: 'none', kind: 'Relations', label: 'the xray knows the relations of instances, load balancers, their ports and nodes, and firewalls', state: '', note: true }] };
    }
  } catch (err) {
    return missing('cannot be read', err);
  }
}
