import { defineScreen } from '../../app/screen.js';
import {
  NODEBALANCERS_PATH,
  balancerRegionChoices,
  createBalancer,
  deleteBalancer,
  updateBalancer,
  type NodeBalancer as Balancer,
} from '../../api/nodebalancers.js';
import { NodeBalancer } from '../../model/nodebalancers.js';
import { addTagAction } from '../images/tag-action.js';
import { megabytes } from './format.js';
import { BALANCERS_SCREEN, CONFIGS_SCREEN, STATS_SCREEN } from './ids.js';

const WRITE = 'nodebalancers:read_write';

export const balancers = defineScreen<Balancer>({
  id: BALANCERS_SCREEN,
  title: 'Load balancers',
  aliases: ['lb', 'nb', 'balancers', 'nodebalancer'],
  description: 'NodeBalancers: ports (configs), backend nodes, traffic',
  list: {
    path: NODEBALANCERS_PATH,
    xray: (b) => ({ type: 'nodebalancer', id: String(b.id) }),
    writeScope: WRITE,
    grant: { kind: 'nodebalancer', add: 'add_nodebalancers' },
    columns: [
      { key: 'label', title: 'Label', flex: 2, identifier: true },
      { key: 'region', title: 'Region', width: 10 },
      { key: 'ipv4', title: 'IPv4', width: 15, identifier: true },
      { key: 'client_conn_throttle', title: 'Throttle', width: 8, align: 'right', format: (b) => (b.client_conn_throttle ? `${b.client_conn_throttle}/s` : 'off') },
      {
        key: 'transfer.total',
        title: 'Transfer',
        width: 9,
        align: 'right',
        format: (b) => megabytes(b.transfer.total),
        sortValue: (b) => b.transfer.total ?? -1,
      },
      { key: 'tags', title: 'Tags', flex: 2 },
    ],
    detail: {
      sections: [
        { title: 'Load balancer', fields: ['id', 'label', 'region', 'client_conn_throttle', 'tags'] },
        { title: 'Addresses', fields: ['hostname', 'ipv4', 'ipv6'] },
        { title: 'Transfer this month (MB)', fields: ['transfer.total', 'transfer.in', 'transfer.out'] },
        { title: 'Dates', fields: ['created', 'updated'] },
      ],
    },
    drill: (b) => ({ screen: CONFIGS_SCREEN, params: { nb: String(b.id) } }),
    create: {
      title: 'New load balancer',
      schema: NodeBalancer,
      fields: ['label', 'region', 'client_conn_throttle', 'configs'],
      overrides: {
        region: { choices: balancerRegionChoices },
        client_conn_throttle: { title: 'Throttle (conn/s)' },
        configs: {
          title: 'Ports (JSON)',
          lines: 6,
          help: 'Optional, e.g. [{"port": 80, "protocol": "http", "nodes": [{"label": "web-1", "address": "192.168.128.2:80"}]}]; ports can also be added later',
        },
      },
      submit: (body, ctx) => createBalancer(ctx.client, body),
      done: (b) => `Created ${(b as Balancer).label} (${(b as Balancer).ipv4}); Enter on it shows its ports, c adds one`,
      scope: WRITE,
    },
    edit: {
      schema: NodeBalancer,
      fields: ['label', 'client_conn_throttle', 'tags'],
      overrides: { client_conn_throttle: { title: 'Throttle (conn/s)' } },
      submit: (body, ctx, b) => updateBalancer(ctx.client, b!.id, body),
      scope: WRITE,
    },
    delete: {
      confirm: (b) =>
        `Delete load balancer ${b.label}? This also deletes all its configs and their nodes, and releases ${b.ipv4}. The backend instances are untouched.`,
      submit: (b, ctx) => deleteBalancer(ctx.client, b.id),
      scope: WRITE,
    },
    actions: [
      {
        id: 'stats',
        label: 'Statistics (connections, traffic)',
        key: 't',
        scope: 'nodebalancers:read_only',
        changes: false,
        run: async (b, ctx) => {
          ctx.push(STATS_SCREEN, { nb: String(b.id) }, b.label);
          return `Statistics of ${b.label}: ↑↓ pick another balancer, Esc returns`;
        },
      },
      addTagAction((ctx, b, tags) => updateBalancer(ctx.client, b.id, { tags }), WRITE),
    ],
    empty: 'No load balancers yet. Press c to create one.',
  },
});
