import { defineScreen } from '../../app/screen.js';
import type { Instance } from '../../api/instances.js';
import { INSTANCES_LIST, nodesList } from '../../store/lists.js';
import { configsPath, createNode, deleteNode, nodePath, nodesPath, updateNode, type NBNode as NodeRecord } from '../../api/nodebalancers.js';
import { flawOf } from '../../model/response.js';
import type { LoadIo } from '../../store/data.js';
import { hostOf } from '../instances/relations.js';
import { OVERVIEW_SCREEN } from '../instances/sub-lists.js';
import { NBNode } from '../../model/nodebalancers.js';
import { nodeStatusColor } from './format.js';
import { BALANCER_GRANT, NODES_SCREEN } from './ids.js';

const WRITE = 'nodebalancers:read_write';

/** A node with the instance behind its address, when the instances list (cached) has one. */
type Node = NodeRecord & { instance?: { id: number; label: string } };

/**
 * The nodes, each joined to the instance whose private address it sends to;
 * without the instances (no scope) the nodes alone. Both from the lists the
 * overview and the ports read too (a node the client cannot read stays in
 * the list, marked, as on every generic list).
 */
async function nodesWithInstances(nb: string, config: string, io: LoadIo): Promise<Node[]> {
  const [nodes, instances] = await Promise.all([io.read(nodesList(nb, config)) as Promise<Node[]>, (io.read(INSTANCES_LIST) as Promise<Instance[]>).catch(() => [] as Instance[])]);
  const byAddress = new Map<string, Instance>();
  // An instance the client could not read names no address.
  const readable = (vm: Instance | null) => vm !== null && typeof vm === 'object' && !flawOf(vm) && Array.isArray(vm.ipv4);
  for (const vm of instances) if (readable(vm)) for (const ip of vm.ipv4) byAddress.set(ip, vm);
  return nodes.map((n) => {
    // A row the client could not read (or whose address is not there) is left as it came.
    if (flawOf(n) || typeof n?.address !== 'string') return n;
    const vm = byAddress.get(hostOf(n.address));
    return vm ? { ...n, instance: { id: vm.id, label: vm.label } } : n;
  });
}
const FIELDS = ['label', 'address', 'weight', 'mode'];
/** Node changes show in the config's up/down counts and node lists. */
const touchesConfigs = (_n: Node | undefined, p: Record<string, string>) => [configsPath(p.nb!)];

export const nodes = defineScreen<Node>({
  id: NODES_SCREEN,
  title: 'Nodes',
  params: ['nb', 'config'],
  list: {
    path: (p) => nodesPath(p.nb!, p.config!),
    load: (_client, p, _data, io) => nodesWithInstances(p.nb!, p.config!, io),
    xray: (n, p) => ({ type: 'node', nb: p.nb!, config: p.config!, id: String(n.id) }),
    writeScope: WRITE,
    grant: BALANCER_GRANT,
    columns: [
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'address', title: 'Address', width: 21 },
      { key: 'status', title: 'Status', width: 7, color: (n) => nodeStatusColor(n.status) },
      { key: 'mode', title: 'Mode', width: 7 },
      { key: 'weight', title: 'Weight', width: 6, align: 'right' },
      { key: 'instance', title: 'Instance', flex: 1, format: (n) => n.instance?.label ?? '—' },
    ],
    // Enter: the instance behind the node's address.
    drill: (n) => n.instance && { screen: OVERVIEW_SCREEN, params: { id: String(n.instance.id) } },
    crumb: (n) => n.instance?.label ?? n.label,
    subject: ({ instance: _, ...n }) => ({ record: n, path: nodePath(n.nodebalancer_id, n.config_id, n.id) }),
    detail: { sections: [{ title: 'Node', fields: ['id', 'label', 'address', 'status', 'mode', 'weight', 'config_id', 'nodebalancer_id'] }] },
    create: {
      title: 'New backend node',
      schema: NBNode,
      fields: FIELDS,
      overrides: { address: { help: 'Private IPv4 of the backend with :port, e.g. 192.168.128.5:80 (without a port the config port is used)' } },
      submit: (body, ctx) => createNode(ctx.client, ctx.params.nb!, ctx.params.config!, body),
      done: (n) => `Added node ${(n as Node).label} (${(n as Node).address})`,
      invalidates: touchesConfigs,
      scope: WRITE,
    },
    edit: {
      schema: NBNode,
      fields: FIELDS,
      submit: (body, ctx, n) => updateNode(ctx.client, n!.nodebalancer_id, n!.config_id, n!.id, body),
      invalidates: touchesConfigs,
      scope: WRITE,
    },
    delete: {
      verb: 'Remove',
      confirm: (n) => `Remove node ${n.label} (${n.address}) from this port? The balancer stops sending it traffic; the backend itself is untouched.`,
      submit: (n, ctx) => deleteNode(ctx.client, n.nodebalancer_id, n.config_id, n.id),
      invalidates: touchesConfigs,
    },
    empty: 'No backend nodes: this port has nowhere to send traffic. Press c to add one.',
  },
});
