import { defineScreen } from '../../app/screen.js';
import { NODEBALANCERS_PATH, configsPath, deleteConfig, type ConfigWithNodes, type NBConfig, type NBNode } from '../../api/nodebalancers.js';
import { flawOf } from '../../model/response.js';
import type { LoadIo } from '../../store/data.js';
import { configsList, nodesList } from '../../store/lists.js';
import { configCreateForm, configEditForm, rebuildForm } from './config-forms.js';
import { nodesColor, nodesText, portLabel } from './format.js';
import { BALANCER_GRANT, CONFIGS_SCREEN, NODES_SCREEN } from './ids.js';
import { plural } from '../../model/plural.js';

/**
 * The configs, then each one's nodes, from the lists an overview and a search
 * read too (after either, a balancer's ports open from the cache). The ports
 * are drawn once the configs are in; each port's node count is there already
 * (nodes_status), the nodes themselves follow.
 */
async function configsWithNodes(nb: string, io: LoadIo): Promise<ConfigWithNodes[]> {
  const configs = (await io.read(configsList(nb))) as NBConfig[];
  io.show(configs);
  const withNodes = async (c: NBConfig): Promise<ConfigWithNodes> => {
    const nodes = (await io.read(nodesList(nb, c.id))) as NBNode[];
    // A port whose nodes come unreadable is still listed: its nodes open each marked, and the rebuild (which starts from them) is refused.
    const flaw = nodes.map(flawOf).find(Boolean);
    return flaw ? { ...c, nodes: null, nodesUnreadable: `A node of ${portLabel(c)} is not readable: ${flaw.reason}` } : { ...c, nodes };
  };
  // A config the client could not read has no id to read nodes by: it stays as it came, marked.
  return Promise.all(configs.map((c) => (flawOf(c) ? (c as ConfigWithNodes) : withNodes(c))));
}

export const configs = defineScreen<ConfigWithNodes>({
  id: CONFIGS_SCREEN,
  title: 'Configs',
  params: ['nb'],
  list: {
    path: (p) => configsPath(p.nb!),
    // Each config with its nodes: the rebuild form starts from them and the node count needs them.
    load: (_client, p, _data, io) => configsWithNodes(p.nb!, io),
    xray: (c, p) => ({ type: 'port', nb: p.nb!, config: String(c.id) }),
    writeScope: 'nodebalancers:read_write',
    grant: BALANCER_GRANT,
    label: portLabel,
    columns: [
      { key: 'port', title: 'Port', width: 5, align: 'right' },
      { key: 'protocol', title: 'Proto', width: 5 },
      { key: 'algorithm', title: 'Algorithm', width: 10 },
      { key: 'stickiness', title: 'Sticky', width: 11 },
      { key: 'check', title: 'Check', width: 10 },
      { key: 'nodes', title: 'Nodes', width: 16, format: nodesText, color: nodesColor, sortValue: (c) => c.nodes_status.down * 1000 + c.nodes_status.up },
      { key: 'ssl_commonname', title: 'Certificate', flex: 1 },
    ],
    detail: {
      sections: [
        { title: 'Config', fields: ['id', 'port', 'protocol', 'algorithm', 'stickiness', 'proxy_protocol', 'cipher_suite'] },
        { title: 'Health check', fields: ['check', 'check_interval', 'check_timeout', 'check_attempts', 'check_path', 'check_body', 'check_passive'] },
        { title: 'TLS', fields: ['ssl_commonname', 'ssl_fingerprint'] },
        { title: 'Backends', fields: ['nodes_status.up', 'nodes_status.down'] },
      ],
    },
    drill: (c, p) => ({ screen: NODES_SCREEN, params: { nb: p.nb!, config: String(c.id) } }),
    create: { ...configCreateForm, invalidates: () => [NODEBALANCERS_PATH] },
    edit: { ...configEditForm, invalidates: () => [NODEBALANCERS_PATH] },
    delete: {
      confirm: (c) => `Delete ${portLabel(c)}? This also deletes its ${c.nodes ? plural(c.nodes.length, 'node') : 'nodes'}; the backend instances are untouched.`,
      submit: (c, ctx) => deleteConfig(ctx.client, c.nodebalancer_id, c.id),
      invalidates: () => [NODEBALANCERS_PATH],
    },
    actions: [
      {
        id: 'rebuild',
        label: 'Rebuild nodes (replace the node list)',
        key: 'b',
        destructive: true,
        form: rebuildForm,
        // A rebuild starts from the current node list and deletes what it leaves out: not from one the app could not read.
        refuse: (c) => (c.nodes === null ? 'its nodes could not be read (Enter shows them, marked)' : c.nodes === undefined ? 'its nodes are still being read' : undefined),
      },
    ],
    empty: 'No configs: this balancer serves nothing yet. Press c to add a port.',
  },
});
