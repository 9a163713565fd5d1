import { CONFIG_DEFAULTS, NBConfig, NBConfigRebuild, NBNode, withoutRedactedEcho } from '../../model/nodebalancers.js';
import type { FieldError } from '../../model/schema.js';
import { bodyFor, listPage, readingOf, type Router } from '../route.js';
import type { Store } from '../store.js';
import {
  addConfigWithNodes,
  addNode,
  balancerEvent,
  balancerFor,
  checkBody,
  configFor,
  configRecord,
  openConfig,
  configRef,
  deleteConfig,
  isObject,
  joinNodePort,
  joinNodePorts,
  nodeFor,
  nodeRecord,
  nodeRef,
  portErrors,
  presentBalancer,
  presentConfig,
  presentNode,
  touch,
  type BalancerRecord,
  type ConfigRecord,
  type NodeRecord,
} from './nodebalancers-records.js';

type Fields = Record<string, unknown>;

const READ = 'nodebalancers:read_only';
const WRITE = 'nodebalancers:read_write';

/** The rebuilt config's port stays unique, and node ids name distinct nodes of this config. */
function rebuildStoreErrors(store: Store, cfg: ConfigRecord, raw: Fields): FieldError[] {
  const config = Array.isArray(raw.configs) && isObject(raw.configs[0]) ? raw.configs[0] : undefined;
  if (!config) return [];
  const errors = portErrors(store, cfg.nodebalancer_id, config.port, cfg.id, 'configs.0.port');
  const seen = new Set<number>();
  (Array.isArray(config.nodes) ? config.nodes : []).forEach((node, i) => {
    if (!isObject(node) || typeof node.id !== 'number') return;
    const field = `configs.0.nodes.${i}.id`;
    if (store.get<NodeRecord>('nb_node', node.id)?.config_id !== cfg.id) errors.push({ field, reason: `node ${node.id} is not a node of this config` });
    else if (seen.has(node.id)) errors.push({ field, reason: `node ${node.id} is listed more than once` });
    seen.add(node.id);
  });
  return errors;
}

/**
 * Applies a validated rebuild: the config takes the request's fields, stored
 * nodes left out are deleted, nodes with an id updated, the rest created.
 */
function rebuild(store: Store, cfg: ConfigRecord, input: Fields): string {
  const next = configRecord(store, cfg.nodebalancer_id, cfg.id, input, cfg);
  store.put('nb_config', cfg.id, next);
  const nodes = input.nodes as Fields[];
  const kept = new Set(nodes.map((n) => n.id).filter((id) => id !== undefined));
  const stale = store.all<NodeRecord>('nb_node', String(cfg.id)).filter((n) => !kept.has(n.id));
  for (const node of stale) store.delete('nb_node', node.id);
  for (const node of nodes) {
    const current = node.id === undefined ? undefined : store.get<NodeRecord>('nb_node', node.id as number);
    if (current) store.put('nb_node', current.id, nodeRecord(next, current.id, node, current));
    else addNode(store, next, node);
  }
  return `rebuilt: ${nodes.length - kept.size} nodes created, ${kept.size} updated, ${stale.length} deleted`;
}

/** Configs (one per port), the rebuild action and backend nodes; each inherits the balancer's grant. */
export function configRoutes(r: Router): void {
  const configs = '/nodebalancers/{nodeBalancerId}/configs';
  const config = `${configs}/{configId}`;
  const nodes = `${config}/nodes`;
  const node = `${nodes}/{nodeId}`;

  r.get(configs, READ, (ctx) => {
    const nb = balancerFor(ctx, 'read_only');
    return listPage<ConfigRecord>(ctx, 'nb_config', { parent: String(nb.id), present: (c) => presentConfig(ctx.store, c) });
  });

  r.post(configs, WRITE, (ctx) => {
    const nb = balancerFor(ctx, 'read_write');
    const body = checkBody(NBConfig, ctx.body, readingOf(ctx, 'create'), (raw) => portErrors(ctx.store, nb.id, raw.port ?? CONFIG_DEFAULTS.port, undefined, 'port'));
    const cfg = addConfigWithNodes(ctx.store, nb.id, { ...body, nodes: joinNodePorts(ctx.reader, body.nodes, 'nodes') });
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_config_create', nb, { secondary: configRef(cfg) });
    return presentConfig(ctx.store, cfg);
  });

  r.get(config, READ, (ctx) => presentConfig(ctx.store, configFor(ctx, 'read_only').cfg));

  r.put(config, WRITE, (ctx) => {
    const { nb, cfg } = configFor(ctx, 'read_write');
    const body = checkBody(NBConfig, withoutRedactedEcho(ctx.body, cfg), readingOf(ctx, 'update', openConfig(ctx.store, cfg)), (raw) =>
      portErrors(ctx.store, nb.id, raw.port, cfg.id, 'port'),
    );
    const next = ctx.store.put('nb_config', cfg.id, configRecord(ctx.store, nb.id, cfg.id, body, cfg));
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_config_update', nb, { secondary: configRef(next) });
    return presentConfig(ctx.store, next);
  });

  r.delete(config, WRITE, (ctx) => {
    const { nb, cfg } = configFor(ctx, 'read_write');
    deleteConfig(ctx.store, cfg.id);
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_config_delete', nb, { secondary: configRef(cfg) });
  });

  r.post(`${config}/rebuild`, WRITE, (ctx) => {
    const { nb, cfg } = configFor(ctx, 'read_write');
    const raw = ctx.body;
    const body = isObject(raw) && Array.isArray(raw.configs) ? { ...raw, configs: raw.configs.map((c, i) => (i === 0 ? withoutRedactedEcho(c, cfg) : c)) } : raw;
    const value = checkBody(NBConfigRebuild, body, readingOf(ctx, 'create', openConfig(ctx.store, cfg)), (r) => rebuildStoreErrors(ctx.store, cfg, r));
    const config = (value.configs as Fields[])[0]!;
    const message = rebuild(ctx.store, cfg, { ...config, nodes: joinNodePorts(ctx.reader, config.nodes, 'configs.0.nodes') });
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_config_update', nb, { secondary: configRef(ctx.store.get<ConfigRecord>('nb_config', cfg.id)!), message });
    return presentBalancer(ctx.store.get<BalancerRecord>('nodebalancer', nb.id)!);
  });

  r.get(nodes, READ, (ctx) => {
    const { cfg } = configFor(ctx, 'read_only');
    return listPage<NodeRecord>(ctx, 'nb_node', { parent: String(cfg.id), present: (n) => presentNode(ctx.store, n) });
  });

  r.post(nodes, WRITE, (ctx) => {
    const { nb, cfg } = configFor(ctx, 'read_write');
    const created = addNode(ctx.store, cfg, joinNodePort(ctx.reader, bodyFor(ctx, NBNode, 'create'), ''));
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_node_create', nb, { secondary: nodeRef(created) });
    return presentNode(ctx.store, created);
  });

  // The seed lists nodebalancers:read_write for viewing one node.
  r.get(node, WRITE, (ctx) => presentNode(ctx.store, nodeFor(ctx, 'read_only').node));

  r.put(node, WRITE, (ctx) => {
    const { nb, cfg, node: current } = nodeFor(ctx, 'read_write');
    const body = joinNodePort(ctx.reader, bodyFor(ctx, NBNode, 'update', current), '', current.address);
    const next = ctx.store.put('nb_node', current.id, nodeRecord(cfg, current.id, body, current));
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_node_update', nb, { secondary: nodeRef(next) });
    return presentNode(ctx.store, next);
  });

  r.delete(node, WRITE, (ctx) => {
    const { nb, node: current } = nodeFor(ctx, 'read_write');
    ctx.store.delete('nb_node', current.id);
    touch(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_node_delete', nb, { secondary: nodeRef(current) });
  });
}
