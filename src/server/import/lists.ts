import type { FieldSpec, ResourceSchema } from '../../model/schema.js';
import { pageShape } from '../../model/response.js';
import { isRecord } from '../../model/response.js';

/**
 * The lists an import reads, in the order it reads them (parents before
 * children, instances before what refers to them), each with the scope that
 * reads it and the stored kind it becomes.
 */

export type Item = Record<string, unknown>;

export interface ListDef {
  /** The name progress and the final report use (`instances 1,200/1,200`). */
  area: string;
  /** The path of the list under its root; a child list's path takes its parent's id. */
  path: string;
  root: 'base' | 'beta';
  /** The scope that reads it, named when the token lacks it. */
  scope: string;
  /** An X-Filter the source is asked for (it is checked again on each item). */
  filter?: (ctx: { username: string }) => unknown;
  keep?: (item: Item, ctx: { username: string }) => boolean;
}

export const ACCOUNT_RO = 'account:read_only';

export const LISTS = {
  sshkeys: { area: 'ssh keys', path: '/profile/sshkeys', root: 'base', scope: ACCOUNT_RO },
  apps: { area: 'apps', path: '/profile/apps', root: 'base', scope: ACCOUNT_RO },
  devices: { area: 'devices', path: '/profile/devices', root: 'base', scope: ACCOUNT_RO },
  logins: { area: 'logins', path: '/profile/logins', root: 'base', scope: ACCOUNT_RO },
  tokens: { area: 'tokens', path: '/profile/tokens', root: 'base', scope: ACCOUNT_RO },
  instances: { area: 'instances', path: '/vm/instances', root: 'base', scope: 'vms:read_only' },
  images: {
    area: 'images',
    path: '/images',
    root: 'base',
    scope: 'images:read_only',
    filter: () => ({ is_public: false }),
    keep: (item) => item.is_public === false,
  },
  scripts: {
    area: 'scripts',
    path: '/vm/stackscripts',
    root: 'base',
    scope: 'stackscripts:read_only',
    // The account's own: its private scripts, and those its user made public.
    filter: ({ username }) => ({ '+or': [{ is_public: false }, { username }] }),
    keep: (item, { username }) => item.is_public === false || item.username === username,
  },
  balancers: { area: 'load balancers', path: '/nodebalancers', root: 'base', scope: 'nodebalancers:read_only' },
  firewalls: { area: 'firewalls', path: '/networking/firewalls', root: 'beta', scope: 'firewall:read_only' },
  ips: { area: 'addresses', path: '/networking/ips', root: 'base', scope: 'ips:read_only' },
  pools: { area: 'ipv6 pools', path: '/networking/ipv6/pools', root: 'base', scope: 'ips:read_only' },
  ranges: { area: 'ipv6 ranges', path: '/networking/ipv6/ranges', root: 'base', scope: 'ips:read_only' },
  buckets: { area: 'buckets', path: '/object-storage/buckets', root: 'base', scope: 'object_storage:read_only' },
  keys: { area: 'access keys', path: '/object-storage/keys', root: 'base', scope: 'object_storage:read_only' },
  tags: { area: 'tags', path: '/tags', root: 'base', scope: ACCOUNT_RO },
  contacts: { area: 'managed contacts', path: '/managed/contacts', root: 'base', scope: ACCOUNT_RO },
  credentials: { area: 'managed credentials', path: '/managed/credentials', root: 'base', scope: ACCOUNT_RO },
  services: { area: 'managed services', path: '/managed/services', root: 'base', scope: ACCOUNT_RO },
  issues: { area: 'managed issues', path: '/managed/issues', root: 'base', scope: ACCOUNT_RO },
  access: { area: 'instance access', path: '/managed/vm-settings', root: 'base', scope: ACCOUNT_RO },
  events: { area: 'events', path: '/account/events', root: 'base', scope: ACCOUNT_RO },
} satisfies Record<string, ListDef>;

/** What is read as one record, not a list: the token's own profile (any token reads it) and its client's preferences. */
export const SINGLES = {
  profile: { area: 'profile', path: '/profile', root: 'base', scope: 'none' },
  preferences: { area: 'preferences', path: '/profile/preferences', root: 'base', scope: ACCOUNT_RO },
} satisfies Record<string, ListDef>;

export const CHILDREN = {
  disks: { area: 'disks', path: '/vm/instances/{}/disks', root: 'base', scope: 'vms:read_only' },
  configs: { area: 'configs', path: '/vm/instances/{}/configs', root: 'base', scope: 'vms:read_only' },
  backups: { area: 'backups', path: '/vm/instances/{}/backups', root: 'base', scope: 'vms:read_only' },
  nbConfigs: { area: 'balancer configs', path: '/nodebalancers/{}/configs', root: 'base', scope: 'nodebalancers:read_only' },
  nodes: { area: 'balancer nodes', path: '/nodebalancers/{}/configs/{}/nodes', root: 'base', scope: 'nodebalancers:read_only' },
  devices: { area: 'firewall devices', path: '/networking/firewalls/{}/devices', root: 'beta', scope: 'firewall:read_only' },
  objects: { area: 'objects', path: '/object-storage/buckets/{}/{}/object-list', root: 'base', scope: 'object_storage:read_only' },
} satisfies Record<string, ListDef>;

export const pathOf = (def: ListDef, ...ids: (string | number)[]) => {
  let i = 0;
  return def.path.replace(/\{\}/g, () => encodeURIComponent(String(ids[i++])));
};

/**
 * What 4.83.1 cannot hold of a record read from a later release: fields it
 * does not define (or defines only for later clients), and enum values it
 * does not know. The record comes back without the first (the service would
 * drop them from every answer anyway); the second are kept as read and named.
 */
export interface Unheld {
  /** `instances.*.disk_encryption` → how many records had it. */
  dropped: Map<string, number>;
  /** `instances.*.status "resizing"` → how many. */
  unknownValues: Map<string, number>;
}

export const newUnheld = (): Unheld => ({ dropped: new Map(), unknownValues: new Map() });

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function holdFields(fields: Record<string, FieldSpec>, value: Item, at: string, unheld: Unheld): Item {
  // A null-prototype copy: the keys came from the source.
  const out: Item = Object.create(null) as Item;
  for (const [key, v] of Object.entries(value)) {
    const spec = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!spec || spec.later) {
      bump(unheld.dropped, `${at}.${key}`);
      continue;
    }
    out[key] = holdValue(spec, v, `${at}.${key}`, unheld);
  }
  return { ...out };
}

function holdValue(spec: FieldSpec, v: unknown, at: string, unheld: Unheld): unknown {
  if (spec.kind === 'enum' && typeof v === 'string' && spec.values && !spec.values.includes(v)) bump(unheld.unknownValues, `${at} "${v.slice(0, 40)}"`);
  if (spec.kind === 'object' && spec.fields && isRecord(v)) return holdFields(spec.fields, v, at, unheld);
  if (spec.kind === 'array' && spec.items && Array.isArray(v)) return v.map((x) => holdValue(spec.items!, x, `${at}.*`, unheld));
  return v;
}

/** The record as 4.83.1 holds it, by the schema the client checks that list's pages with. */
export function holdItem(listPath: string, area: string, item: Item, unheld: Unheld): Item {
  const schema: ResourceSchema | undefined = pageShape(listPath)?.schema;
  return schema ? holdFields(schema.fields, item, `${area.replace(/ /g, '_')}.*`, unheld) : item;
}
