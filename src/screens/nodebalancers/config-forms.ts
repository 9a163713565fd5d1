import { REDACTED, type FieldSpec } from '../../model/schema.js';
import { NBConfig, NBConfigRebuild } from '../../model/nodebalancers.js';
import { createConfig, rebuildConfig, updateConfig, type ConfigWithNodes, type NBNode } from '../../api/nodebalancers.js';
import type { FieldOverride, FormSpec } from '../../components/form/types.js';
import { onFormFields, prefixFields, shapedSchema } from '../networking/form-shape.js';
import { portLabel } from './format.js';

const WRITE = 'nodebalancers:read_write';

/** Every field a config request may set, in the order a person thinks about them: the port, then checks, then TLS. */
const CONFIG_FIELDS = [
  'port',
  'protocol',
  'algorithm',
  'stickiness',
  'check',
  'check_interval',
  'check_timeout',
  'check_attempts',
  'check_path',
  'check_body',
  'check_passive',
  'proxy_protocol',
  'cipher_suite',
  'ssl_cert',
  'ssl_key',
];

const PEM_LINES = 4;

const configOverrides = (editing: boolean): Record<string, FieldOverride> => ({
  ssl_cert: {
    lines: PEM_LINES,
    help: editing ? 'https only. Empty keeps the stored certificate; paste a PEM to replace it' : 'https only: the PEM certificate (and chain); paste it here',
  },
  ssl_key: {
    lines: PEM_LINES,
    help: editing ? 'https only. Empty keeps the stored key; a new key must match the certificate' : 'https only: the PEM private key of the certificate',
  },
});

export const configCreateForm: FormSpec<ConfigWithNodes> = {
  title: 'New config (port)',
  schema: NBConfig,
  fields: CONFIG_FIELDS,
  overrides: configOverrides(false),
  submit: (body, ctx) => createConfig(ctx.client, ctx.params.nb!, body),
  done: (c) => `Created ${portLabel(c as ConfigWithNodes)}: Enter on it adds backend nodes`,
  scope: WRITE,
};

export const configEditForm: FormSpec<ConfigWithNodes> = {
  schema: NBConfig,
  fields: CONFIG_FIELDS,
  overrides: configOverrides(true),
  // The service never returns a certificate or key; an empty field keeps what is stored.
  initial: (c) => ({ ...c, ssl_cert: c?.ssl_cert === REDACTED ? '' : c?.ssl_cert, ssl_key: c?.ssl_key === REDACTED ? '' : c?.ssl_key }),
  submit: (body, ctx, c) => updateConfig(ctx.client, c!.nodebalancer_id, c!.id, body),
  done: (_r, c) => `Saved ${portLabel(c!)}`,
  scope: WRITE,
};

/** What a rebuild may say of a node: the writable fields, and the id of one to keep. */
const nodeInput = (n: NBNode) => ({ id: n.id, label: n.label, address: n.address, weight: n.weight, mode: n.mode });

type NodeInput = { id?: number; label?: string };

const configsItem = NBConfigRebuild.fields.configs!.items!;
const nodesSpec: FieldSpec = { ...configsItem.fields!.nodes!, title: 'Nodes (JSON)' };

/** The rebuild body holds the one config being rebuilt; its errors (configs.0.nodes.2.label) belong to the nodes field. */
const rebuildFieldOf = prefixFields([['configs.0.nodes', 'nodes']]);

const RebuildNodes = shapedSchema({
  name: 'nb_config_rebuild_nodes',
  fields: { nodes: nodesSpec },
  target: NBConfigRebuild,
  toBody: (values) => ({ configs: [{ nodes: values.nodes }] }),
  fieldOf: rebuildFieldOf,
});

/** "1 created, 2 updated, 1 deleted (web-3)": what a rebuild will do to the stored nodes. */
export function rebuildSummary(nodes: NodeInput[], current: NBNode[]): string {
  const kept = new Set(nodes.map((n) => n.id).filter((id) => id !== undefined));
  const created = nodes.filter((n) => n.id === undefined).length;
  const gone = current.filter((n) => !kept.has(n.id));
  const deleted = gone.length ? `${gone.length} deleted (${gone.map((n) => n.label).join(', ')})` : '0 deleted';
  return `${created} created, ${kept.size} updated, ${deleted}`;
}

export const rebuildForm: FormSpec<ConfigWithNodes> = {
  schema: RebuildNodes,
  fields: ['nodes'],
  overrides: {
    nodes: { lines: 12, help: 'JSON array of nodes: with "id" updated, without created (label and address needed), left out deleted' },
  },
  initial: (c) => ({ ...c, nodes: (c?.nodes ?? []).map(nodeInput) }),
  confirm: (body, c) =>
    `Rebuild the nodes of ${portLabel(c!)}: ${rebuildSummary(body.nodes as NodeInput[], c!.nodes ?? [])}. Nodes left out of the list are removed from the balancer.`,
  submit: async (body, ctx, c) => {
    try {
      return await rebuildConfig(ctx.client, c!.nodebalancer_id, c!.id, { configs: [{ nodes: body.nodes }] });
    } catch (err) {
      throw onFormFields(err, rebuildFieldOf);
    }
  },
  done: (_r, c) => `Rebuilt the nodes of ${portLabel(c!)}`,
  scope: WRITE,
};
