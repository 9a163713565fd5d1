import {
  CONFIG_WRITABLE,
  NBConfig,
  NBNode,
  NODE_DEFAULTS,
  NODE_WRITABLE,
  NodeBalancer,
  certificateInfo,
  newConfigBase,
  type NodeBalancerResponse,
} from '../../model/nodebalancers.js';
import { present, validate, type FieldError, type Reader, type ResourceSchema, type RuleContext } from '../../model/schema.js';
import { requireEntity, type Auth, type Level, type User } from '../auth.js';
import { assertValid, notFound } from '../errors.js';
import { emitEvent, type EntityRef, type EventStatus } from '../events.js';
import type { IpRecord } from '../ipam.js';
import { mustGet, type Ctx } from '../route.js';
import { REGION_IDS } from '../seed/reference.js';
import type { Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';

/** Stored load balancer records (kinds nodebalancer, nb_config with parent balancer id, nb_node with parent config id). */

export interface BalancerRecord extends NodeBalancerResponse, Record<string, unknown> {}

export interface ConfigRecord extends Record<string, unknown> {
  id: number;
  nodebalancer_id: number;
  port: number;
  protocol: string;
  ssl_cert: string | null;
  /** Sealed (sealing.ts); openConfig gives it back in the clear. */
  ssl_key: string | null;
  ssl_commonname: string | null;
  ssl_fingerprint: string | null;
}

export interface NodeRecord extends Record<string, unknown> {
  id: number;
  config_id: number;
  nodebalancer_id: number;
  address: string;
  label: string;
  weight: number;
  mode: string;
}

type Fields = Record<string, unknown>;

export const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

const pick = (input: Fields, keys: string[]): Fields => Object.fromEntries(keys.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));

// ---- validation that needs the store ----

/** Validates a body like bodyFor, adding the problems only the store can tell, so every one is reported at once. */
export function checkBody(schema: ResourceSchema, body: unknown, rc: RuleContext, storeErrors: (raw: Fields) => FieldError[]): Fields {
  const raw = body === undefined || body === null ? {} : body;
  const { value, errors } = validate(schema, raw, rc);
  if (isObject(raw)) errors.push(...storeErrors(raw));
  assertValid(errors);
  return value;
}

export function labelErrors(store: Store, label: unknown, selfId?: number): FieldError[] {
  if (typeof label !== 'string') return [];
  const holder = store.getByKey<BalancerRecord>('nodebalancer', label.toLowerCase());
  return holder && holder.id !== selfId ? [{ field: 'label', reason: `label ${label} is already used by another load balancer` }] : [];
}

export function regionErrors(store: Store, region: unknown): FieldError[] {
  if (typeof region !== 'string') return [];
  const found = store.get<{ capabilities: string[] }>('region', region);
  if (!found) return [{ field: 'region', reason: `region ${region} does not exist` }];
  if (!found.capabilities.includes('NodeBalancers')) return [{ field: 'region', reason: `region ${region} does not offer NodeBalancers` }];
  return [];
}

/** A port may serve one config per balancer; `selfId` is the config being changed. */
export function portErrors(store: Store, nbId: number, port: unknown, selfId: number | undefined, field: string): FieldError[] {
  if (typeof port !== 'number') return [];
  const taken = store.all<ConfigRecord>('nb_config', String(nbId)).some((c) => c.port === port && c.id !== selfId);
  return taken ? [{ field, reason: `port ${port} is already configured on this load balancer` }] : [];
}

// ---- records ----

/** A balancer's public addresses come from their own pool, apart from instances'. */
function balancerAddresses(store: Store, region: string): { ipv4: string; ipv6: string; hostname: string } {
  const ri = Math.max(0, REGION_IDS.indexOf(region));
  const n = store.nextId(`nb-address:${region}`, 0);
  const ipv4 = `139.${162 + Math.floor(n / 253)}.${ri}.${2 + (n % 253)}`;
  return { ipv4, ipv6: `2600:3c0${ri}:0:1::${(n + 1).toString(16)}`, hostname: `nb-${ipv4.replace(/\./g, '-')}.${region}.nodebalancer.example` };
}

function defaultLabel(store: Store, id: number): string {
  let label = `balancer${id}`;
  for (let n = 2; store.getByKey('nodebalancer', label); n++) label = `balancer${id}-${n}`;
  return label;
}

export interface NewBalancer {
  region: string;
  label?: string;
  client_conn_throttle?: number;
  transfer?: BalancerRecord['transfer'];
  tags?: string[];
}

export function addBalancer(store: Store, input: NewBalancer, now = store.clock.now()): BalancerRecord {
  const id = store.nextId('nodebalancer', 31001);
  const label = input.label ?? defaultLabel(store, id);
  const record: BalancerRecord = {
    id,
    label,
    region: input.region,
    ...balancerAddresses(store, input.region),
    created: isoSeconds(now),
    updated: isoSeconds(now),
    client_conn_throttle: input.client_conn_throttle ?? 0,
    transfer: input.transfer ?? { total: 0, out: 0, in: 0 },
    tags: input.tags ?? [],
  };
  return store.insert('nodebalancer', id, record, { key: label.toLowerCase() });
}

export function saveBalancer(store: Store, nb: BalancerRecord): void {
  store.put('nodebalancer', nb.id, nb);
  store.setKey('nodebalancer', nb.id, nb.label.toLowerCase());
}

/** Config changes show in the balancer's updated time. */
export function touch(store: Store, nbId: number, now = store.clock.now()): void {
  const nb = store.get<BalancerRecord>('nodebalancer', nbId);
  if (nb) store.put('nodebalancer', nbId, { ...nb, updated: isoSeconds(now) });
}

/**
 * A config as it will be stored: the request's writable fields over the stored
 * config (or the defaults), certificate details derived, the private key
 * sealed, and no certificate kept once the protocol is not https.
 */
export function configRecord(store: Store, nbId: number, id: number, input: Fields, current?: ConfigRecord): ConfigRecord {
  const set = pick(input, CONFIG_WRITABLE);
  const next = { ...(current ?? newConfigBase(set.protocol)), ...set, id, nodebalancer_id: nbId } as ConfigRecord;
  if (next.protocol !== 'https') {
    next.ssl_cert = null;
    next.ssl_key = null;
  }
  const info = next.ssl_cert ? certificateInfo(next.ssl_cert) : null;
  next.ssl_commonname = info?.commonname ?? null;
  next.ssl_fingerprint = info?.fingerprint ?? null;
  next.ssl_key = store.sealer.sealed(next.ssl_key);
  return next;
}

/** A stored config with its private key in the clear, for the checks that compare a new certificate with it. */
export function openConfig(store: Store, cfg: ConfigRecord): ConfigRecord {
  return { ...cfg, ssl_key: cfg.ssl_key === null ? null : store.sealer.unseal(cfg.ssl_key) };
}

export function addConfig(store: Store, nbId: number, input: Fields): ConfigRecord {
  const id = store.nextId('nb_config', 52001);
  return store.insert('nb_config', id, configRecord(store, nbId, id, input), { parent: String(nbId) });
}

/** Node addresses always carry a port: the config's when the request gives none. */
const withPort = (address: string, port: number) => (/:\d+$/.test(address) ? address : `${address}:${port}`);

export function nodeRecord(cfg: ConfigRecord, id: number, input: Fields, current?: NodeRecord): NodeRecord {
  const next = { ...NODE_DEFAULTS, ...current, ...pick(input, NODE_WRITABLE), id, config_id: cfg.id, nodebalancer_id: cfg.nodebalancer_id } as NodeRecord;
  next.address = withPort(next.address, cfg.port);
  return next;
}

export function addNode(store: Store, cfg: ConfigRecord, input: Fields): NodeRecord {
  const id = store.nextId('nb_node', 73001);
  return store.insert('nb_node', id, nodeRecord(cfg, id, input), { parent: String(cfg.id) });
}

/**
 * Later releases send a node's port apart from its address; 4.83.1 writes it
 * into the address. It joins an address that has no port. Beside a port the
 * address has (given, or the stored one) it would change what the address
 * says, so it is ignored and reported then, unless the two agree.
 */
export function joinNodePort(reader: Reader, node: Fields, path: string, storedAddress?: string): Fields {
  if (node.port === undefined) return node;
  const { port, ...rest } = node;
  const address = typeof rest.address === 'string' ? rest.address : storedAddress;
  if (typeof rest.address === 'string' && !/:\d+$/.test(rest.address)) return { ...rest, address: `${rest.address}:${String(port)}` };
  if (!address?.endsWith(`:${String(port)}`)) reader.ignored.push(path ? `${path}.port` : 'port');
  return rest;
}

/** A list of configs or nodes as sent, each node's port joined to its address. */
export const joinNodePorts = (reader: Reader, nodes: unknown, path: string): Fields[] =>
  ((nodes as Fields[] | undefined) ?? []).map((node, i) => joinNodePort(reader, node, `${path}.${i}`));

/** Creates a config with its nodes, as balancer create and the demo send them. */
export function addConfigWithNodes(store: Store, nbId: number, input: Fields): ConfigRecord {
  const cfg = addConfig(store, nbId, input);
  for (const node of (input.nodes as Fields[] | undefined) ?? []) addNode(store, cfg, node);
  return cfg;
}

export function deleteConfig(store: Store, cfgId: number): void {
  store.deleteChildren('nb_node', String(cfgId));
  store.delete('nb_config', cfgId);
}

/** Deletes the balancer, its configs and nodes (its addresses live on the record), and grants that named it. */
export function deleteBalancer(store: Store, nbId: number): void {
  for (const cfg of store.all<ConfigRecord>('nb_config', String(nbId))) deleteConfig(store, cfg.id);
  store.delete('nodebalancer', nbId);
  for (const user of store.all<User>('user')) {
    if (!user.grants?.nodebalancer.some((g) => String(g.id) === String(nbId))) continue;
    store.put('user', user.id, { ...user, grants: { ...user.grants, nodebalancer: user.grants.nodebalancer.filter((g) => String(g.id) !== String(nbId)) } });
  }
}

/** A restricted user who creates a balancer may manage it. */
export function grantCreator(store: Store, auth: Auth | null, nbId: number): void {
  if (!auth?.user.restricted) return;
  const user = store.get<User>('user', auth.user.id);
  if (!user?.grants) return;
  store.put('user', user.id, { ...user, grants: { ...user.grants, nodebalancer: [...user.grants.nodebalancer, { id: nbId, permissions: 'read_write' }] } });
}

// ---- presentation ----

/**
 * Backend health as the checks would see it: a private address of a running
 * instance is UP, of an offline one DOWN; anything else has not been seen.
 */
export function nodeStatus(store: Store, address: string): 'UP' | 'DOWN' | 'unknown' {
  const ip = store.get<IpRecord>('ip', address.replace(/:\d+$/, ''));
  if (!ip || ip.public) return 'unknown';
  const status = store.get<{ status: string }>('vm', ip.vm_id)?.status;
  if (status === 'running') return 'UP';
  if (status === 'offline' || status === 'stopped') return 'DOWN';
  return 'unknown';
}

export const presentBalancer = (nb: BalancerRecord) => present(NodeBalancer, nb);

export const presentNode = (store: Store, node: NodeRecord) => present(NBNode, { ...node, status: nodeStatus(store, node.address) });

export function presentConfig(store: Store, cfg: ConfigRecord): Fields {
  const statuses = store.all<NodeRecord>('nb_node', String(cfg.id)).map((n) => nodeStatus(store, n.address));
  const count = (s: string) => statuses.filter((x) => x === s).length;
  return present(NBConfig, { ...cfg, nodes_status: { up: count('UP'), down: count('DOWN') } });
}

// ---- access and events ----

const BALANCER_NOT_FOUND = 'NodeBalancer not found';

/** The balancer at the path, if the caller's grants reach it at `level`. */
export function balancerFor(ctx: Ctx, level: Level): BalancerRecord {
  const nb = mustGet<BalancerRecord>(ctx, 'nodebalancer', ctx.params.nodeBalancerId!, BALANCER_NOT_FOUND);
  requireEntity(ctx.auth, 'nodebalancer', nb.id, level, BALANCER_NOT_FOUND);
  return nb;
}

/** Configs and nodes inherit their balancer's grant. */
export function configFor(ctx: Ctx, level: Level): { nb: BalancerRecord; cfg: ConfigRecord } {
  const nb = balancerFor(ctx, level);
  const cfg = ctx.store.get<ConfigRecord>('nb_config', ctx.params.configId!);
  if (!cfg || cfg.nodebalancer_id !== nb.id) throw notFound('Config not found');
  return { nb, cfg };
}

export function nodeFor(ctx: Ctx, level: Level): { nb: BalancerRecord; cfg: ConfigRecord; node: NodeRecord } {
  const { nb, cfg } = configFor(ctx, level);
  const node = ctx.store.get<NodeRecord>('nb_node', ctx.params.nodeId!);
  if (!node || node.config_id !== cfg.id) throw notFound('Node not found');
  return { nb, cfg, node };
}

const balancerUrl = (nbId: number) => `/v4/nodebalancers/${nbId}`;

export const configRef = (cfg: ConfigRecord): EntityRef => ({
  id: cfg.id,
  label: `port ${cfg.port}`,
  type: 'nodebalancer_config',
  url: `${balancerUrl(cfg.nodebalancer_id)}/configs/${cfg.id}`,
});

export const nodeRef = (node: NodeRecord): EntityRef => ({
  id: node.id,
  label: node.label,
  type: 'nodebalancer_node',
  url: `${balancerUrl(node.nodebalancer_id)}/configs/${node.config_id}/nodes/${node.id}`,
});

/** Records a load balancer event: the balancer is the entity, a config or node the secondary one. */
export function balancerEvent(ctx: Ctx, action: string, nb: BalancerRecord, opts: { secondary?: EntityRef; status?: EventStatus; message?: string } = {}): number {
  return emitEvent(ctx.store, {
    action,
    entity: { id: nb.id, label: nb.label, type: 'nodebalancer', url: balancerUrl(nb.id) },
    secondary_entity: opts.secondary ?? null,
    status: opts.status,
    username: ctx.auth?.user.username,
    message: opts.message ?? null,
  }).id;
}
