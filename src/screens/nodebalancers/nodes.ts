import { defineScreen } from '../../app/screen.js';
import { configsPath, createNode, deleteNode, nodesPath, updateNode, type NBNode as Node } from '../../api/nodebalancers.js';
import { NBNode } from '../../model/nodebalancers.js';
import { nodeStatusColor } from './format.js';
import { BALANCER_GRANT, NODES_SCREEN } from './ids.js';

const WRITE = 'nodebalancers:read_write';
const FIELDS = ['label', 'address', 'weight', 'mode'];
/** Node changes show in the config's up/down counts and node lists. */
const touchesConfigs = (_n: Node | undefined, p: Record<string, string>) => [configsPath(p.nb!)];

export const nodes = defineScreen<Node>({
  id: NODES_SCREEN,
  title: 'Nodes',
  params: ['nb', 'config'],
  list: {
    path: (p) => nodesPath(p.nb!, p.config!),
    writeScope: WRITE,
    grant: BALANCER_GRANT,
    columns: [
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'address', title: 'Address', width: 21 },
      { key: 'status', title: 'Status', width: 7, color: (n) => nodeStatusColor(n.status) },
      { key: 'mode', title: 'Mode', width: 7 },
      { key: 'weight', title: 'Weight', width: 6, align: 'right' },
    ],
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
