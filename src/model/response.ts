/**
 * What the client may expect of the responses it reads: for each path of the
 * API whose body is a resource (or a page of one), the resource's schema. A
 * server may be another release, a proxy or broken; the client checks every
 * such body against these before anything reads it, so a record it cannot
 * read becomes a message or a marked row, never an exception in render.
 *
 * The check is of types, not of rules: a newer server's new enum value or a
 * longer label is still a readable record.
 */
import { AccountEvent } from './events.js';
import { Firewall, FirewallDevice, FirewallRules } from './firewalls.js';
import { Image } from './images.js';
import { Backup } from './instance-backups.js';
import { Config } from './instance-configs.js';
import { Disk } from './instance-disks.js';
import { Instance } from './instances.js';
import { IPAddress, IPv6Pool, IPv6Range } from './ips.js';
import { ManagedContact, ManagedCredential, ManagedIssue, ManagedService, ManagedVMSettings } from './managed.js';
import { NBConfig, NBNode, NodeBalancer } from './nodebalancers.js';
import { Bucket, Cluster, ObjKey } from './object-storage.js';
import { AuthorizedApp, Login, Profile, SSHKey, TrustedDevice } from './profile.js';
import { InstanceType, Region } from './regions.js';
import { defineResource, type FieldSpec, type ResourceSchema } from './schema.js';
import { StackScript } from './stackscripts.js';
import { Tag } from './tags.js';
import { Token } from './tokens.js';

export interface ResponseShape {
  schema: ResourceSchema;
  /** The field that names an item (default `id`); a single resource has none. */
  idField?: string;
}

interface Entry extends ResponseShape {
  /** Path of the list, `{}` standing for one segment. */
  list: string;
  /** The list is a page of items (GET); otherwise only its items are resources. */
  paged: boolean;
  /** GET {list}/{id} reads one item. */
  item: boolean;
  /** The fields of an item that name it in its path, in order (default the id field). */
  itemKey?: string[];
}

const entry = (list: string, schema: ResourceSchema, opts: Partial<Omit<Entry, 'list' | 'schema'>> = {}): Entry => ({
  list,
  schema,
  idField: 'id',
  paged: true,
  item: true,
  ...opts,
});

/** A schema whose responses must hold these fields (views read into them). */
const needs = (schema: ResourceSchema, ...keys: string[]): ResourceSchema =>
  defineResource(schema.name, { ...schema.fields, ...Object.fromEntries(keys.map((k) => [k, { ...schema.fields[k]!, nullable: false }])) });

/** An item of GET /tags/{label}: the tagged object as its own area presents it, under `data`. */
const TaggedObject = defineResource('tagged object', {
  type: { kind: 'string', nullable: false },
  data: { kind: 'object', nullable: false, fields: { id: { kind: 'integer', nullable: false }, label: { kind: 'string' } } },
});

/** Every resource path the seed names (and /account/events, which the app reads for live status). */
const ENTRIES: Entry[] = [
  entry('/vm/instances', Instance),
  entry('/vm/instances/{}/configs', Config),
  entry('/vm/instances/{}/disks', Disk),
  // The backups list is an object of kinds, not a page.
  entry('/vm/instances/{}/backups', Backup, { paged: false }),
  entry('/vm/types', InstanceType),
  entry('/vm/stackscripts', needs(StackScript, 'user_defined_fields')),
  entry('/regions', Region),
  entry('/images', Image),
  entry('/tags', Tag, { idField: 'label', item: false }),
  entry('/tags/{}', TaggedObject, { idField: undefined, item: false }),
  entry('/nodebalancers', NodeBalancer),
  entry('/nodebalancers/{}/configs', NBConfig),
  entry('/nodebalancers/{}/configs/{}/nodes', NBNode),
  entry('/networking/ips', IPAddress, { idField: 'address' }),
  entry('/networking/ipv6/pools', IPv6Pool, { idField: 'range', item: false }),
  entry('/networking/ipv6/ranges', IPv6Range, { idField: 'range', item: false }),
  entry('/networking/firewalls', Firewall),
  entry('/networking/firewalls/{}/devices', FirewallDevice),
  entry('/managed/contacts', ManagedContact),
  entry('/managed/credentials', ManagedCredential),
  entry('/managed/issues', needs(ManagedIssue, 'services')),
  entry('/managed/services', needs(ManagedService, 'credentials')),
  entry('/managed/vm-settings', ManagedVMSettings),
  entry('/object-storage/buckets', Bucket, { idField: 'label', itemKey: ['cluster', 'label'] }),
  entry('/object-storage/buckets/{}', Bucket, { idField: 'label', item: false }),
  entry('/object-storage/clusters', Cluster),
  entry('/object-storage/keys', ObjKey),
  entry('/profile/apps', AuthorizedApp),
  entry('/profile/devices', TrustedDevice),
  entry('/profile/logins', Login),
  entry('/profile/sshkeys', SSHKey),
  entry('/profile/tokens', Token),
  entry('/account/events', AccountEvent),
];

/** The lists the client checks, as path patterns (`{}` for one segment): for tests that walk them all. */
export const RESOURCE_LISTS: readonly { list: string; paged: boolean; item: boolean }[] = ENTRIES;

const backup: FieldSpec = { kind: 'object', nullable: true, fields: Backup.fields };

/** GET /vm/instances/{id}/backups: the backups by kind, not a page. */
const BackupsList = defineResource('backups list', {
  automatic: { kind: 'array', nullable: false, items: { kind: 'object', nullable: false, fields: Backup.fields } },
  snapshot: { kind: 'object', nullable: false, fields: { current: backup, in_progress: backup } },
});

/** GET /managed/stats: graphs by series, or (a list) messages while there are none yet. */
const ManagedStats = defineResource('managed stats', { data: { kind: 'json', nullable: false } });

/** GET /nodebalancers/{id}/stats: series of [time, value] pairs. */
const series: FieldSpec = { kind: 'array', nullable: false, items: { kind: 'array', nullable: false, minItems: 2, items: { kind: 'number', nullable: false } } };
const BalancerStats = defineResource('balancer stats', {
  data: {
    kind: 'object',
    nullable: false,
    fields: { connections: series, traffic: { kind: 'object', nullable: false, fields: { in: series, out: series } } },
  },
});

/** Single resources at a path of their own. */
const SINGLES: [string, ResourceSchema][] = [
  ['/profile', needs(Profile, 'username', 'referrals')],
  // Free-form, but an object.
  ['/profile/preferences', defineResource('preferences object', {})],
  ['/profile/grants', defineResource('grants object', { global: { kind: 'object', nullable: false } })],
  ['/managed/credentials/sshkey', defineResource('managed SSH key', { ssh_key: { kind: 'string', nullable: false } })],
  ['/managed/stats', ManagedStats],
  ['/nodebalancers/{}/stats', BalancerStats],
  ['/vm/instances/{}/backups', BackupsList],
  ['/networking/firewalls/{}/rules', FirewallRules],
];

const segments = (path: string) => path.split('?')[0]!.split('/').filter(Boolean);

function matches(pattern: string[], path: string[]): boolean {
  return pattern.length === path.length && pattern.every((p, i) => p === '{}' || p === path[i]);
}

const keyOf = (e: Entry) => e.itemKey ?? [e.idField ?? 'id'];
const compiled = ENTRIES.map((e) => ({ e, at: segments(e.list), item: [...segments(e.list), ...keyOf(e).map(() => '{}')] }));
const singles = SINGLES.map(([p, schema]) => ({ at: segments(p), schema }));

/** The resource a page at `path` lists. */
export function pageShape(path: string): ResponseShape | undefined {
  const at = segments(path);
  return compiled.find(({ e, at: p }) => e.paged && matches(p, at))?.e;
}

/** The resource a GET or PUT of `path` returns (an item of a list, or a single resource). */
export function itemShape(path: string): ResponseShape | undefined {
  const at = segments(path);
  const single = singles.find((s) => matches(s.at, at));
  if (single) return { schema: single.schema };
  return compiled.find(({ e, item }) => e.item && matches(item, at))?.e;
}

/** The resource a POST to `path` creates: an item of the list at that path. */
export function createdShape(path: string): ResponseShape | undefined {
  const at = segments(path);
  return compiled.find(({ e, at: p }) => matches(p, at))?.e;
}

/** The path that reads one row of the list at `listPath` by itself, when the API has one. */
export function itemPath(listPath: string, row: unknown): string | undefined {
  const at = segments(listPath);
  const e = compiled.find(({ e, at: p }) => e.item && matches(p, at))?.e;
  if (!e || !isRecord(row) || flawOf(row)) return undefined;
  const ids = keyOf(e).map((k) => (Object.hasOwn(row, k) ? row[k] : undefined));
  if (!ids.every((id) => (typeof id === 'number' || typeof id === 'string') && id !== '')) return undefined;
  return `${listPath.replace(/\/+$/, '')}/${ids.map((id) => encodeURIComponent(String(id))).join('/')}`;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPE_NAMES: Record<FieldSpec['kind'], string> = {
  string: 'a string',
  datetime: 'a date-time string',
  enum: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  map: 'an object',
  json: 'an object',
};

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `"${v.length > 20 ? `${v.slice(0, 19)}…` : v}"`;
  return typeof v === 'object' ? 'an object' : String(v);
}

/**
 * Why a value does not have the type its spec says, or undefined. Absent
 * fields and null pass: an older server may not send a field, the API
 * presents a field never set as null (the model's `nullable` is about what a
 * request may send), and every view shows either as blank. A spec saying
 * `nullable: false` outright is a value a response cannot do without.
 */
function typeProblem(spec: FieldSpec, value: unknown, path: string): string | undefined {
  if (value === undefined) return spec.nullable === false ? `${path} is missing` : undefined;
  if (value === null) return spec.nullable === false ? `${path} is null` : undefined;
  let ok: boolean;
  switch (spec.kind) {
    case 'string':
    case 'enum':
      ok = typeof value === 'string';
      break;
    case 'datetime':
      ok = typeof value === 'string' && !Number.isNaN(Date.parse(value.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`));
      break;
    case 'integer':
      ok = typeof value === 'number' && Number.isInteger(value);
      break;
    case 'number':
      ok = typeof value === 'number' && Number.isFinite(value);
      break;
    case 'boolean':
      ok = typeof value === 'boolean';
      break;
    case 'array':
      if (!Array.isArray(value)) {
        ok = false;
        break;
      }
      if (spec.items) for (let i = 0; i < value.length; i++) {
        const p = typeProblem(spec.items, value[i], `${path}[${i}]`);
        if (p) return p;
      }
      return undefined;
    case 'object':
      if (!isRecord(value)) {
        ok = false;
        break;
      }
      return spec.fields ? fieldsProblem(spec.fields, value, path) : undefined;
    case 'map':
      if (!isRecord(value)) {
        ok = false;
        break;
      }
      if (spec.items) for (const [k, v] of Object.entries(value)) {
        const p = typeProblem(spec.items, v, `${path}.${k}`);
        if (p) return p;
      }
      return undefined;
    case 'json':
      // Free-form data: an object, or a list where the API says so (managed stats' messages).
      ok = typeof value === 'object';
      break;
  }
  return ok ? undefined : `${path} is ${describe(value)}, not ${TYPE_NAMES[spec.kind]}`;
}

function fieldsProblem(fields: Record<string, FieldSpec>, record: Record<string, unknown>, path: string): string | undefined {
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.writeOnly || (!Object.hasOwn(record, key) && spec.nullable !== false)) continue;
    // Ids are numbers for most resources and strings for some (images, regions): a reference's id may be either.
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (key === 'id' && (typeof value === 'number' || typeof value === 'string')) continue;
    const p = typeProblem(spec, value, path ? `${path}.${key}` : key);
    if (p) return p;
  }
  return undefined;
}

/** Why a response body is not a readable record of this shape (the first problem found), or undefined when it is. */
export function recordProblem(shape: ResponseShape, body: unknown): string | undefined {
  if (!isRecord(body)) return `it is ${describe(body)}, not an object`;
  if (shape.idField) {
    const id = Object.hasOwn(body, shape.idField) ? body[shape.idField] : undefined;
    if ((typeof id !== 'number' && typeof id !== 'string') || id === '') return `it has no ${shape.idField}`;
  }
  return fieldsProblem(shape.schema.fields, body, '') ?? (shape.idField ? emptyProblem(shape, body) : undefined);
}

/**
 * A record whose every field but its id is null or absent tells the client
 * nothing it could show or act on by name: each field may be unset, but a
 * real record always has some (its label, its creation time).
 */
function emptyProblem(shape: ResponseShape, body: Record<string, unknown>): string | undefined {
  const known = Object.keys(shape.schema.fields).filter((k) => k !== shape.idField && !shape.schema.fields[k]!.writeOnly);
  if (known.length === 0 || known.some((k) => Object.hasOwn(body, k) && body[k] !== null && body[k] !== undefined)) return undefined;
  return `every field but its ${shape.idField} is null`;
}

/** Marks a row the client could not read: it stays in its list, drawn as a marked line with the reason. */
export const FLAW = Symbol('flaw');

export interface Flawed {
  [FLAW]: { reason: string; key: string; raw: unknown };
}

export function flawOf(row: unknown): Flawed[typeof FLAW] | undefined {
  return typeof row === 'object' && row !== null && FLAW in row ? (row as Flawed)[FLAW] : undefined;
}

/**
 * A row as a list may hold it: the row itself when readable, else an object
 * carrying why not (and, for objects, the row's own fields for the JSON view).
 * `key` is unique within the list: it stands for the row's identity.
 */
export function checkRow(shape: ResponseShape, row: unknown, key: string): unknown {
  const reason = recordProblem(shape, row);
  if (reason === undefined) return row;
  const flawed: Flawed = { [FLAW]: { reason, key, raw: row } };
  return isRecord(row) ? { ...row, ...flawed } : flawed;
}
