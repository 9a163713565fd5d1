import { createHash, randomBytes } from 'node:crypto';
import type { Store, Row } from './store.js';
import { forbidden, notFound, unauthorized } from './errors.js';
import type { SqlFilter } from './filter.js';
import { isoSeconds, parseApiTime } from '../model/time.js';
import type { GrantEntry, GrantKind, GrantLevel as Level, GrantsOf } from '../model/profile.js';
import { scopeAllows } from '../model/scopes.js';

export type { GrantEntry, GrantKind, GrantLevel as Level } from '../model/profile.js';

export type Grants = GrantsOf<GrantEntry>;

/** The users every account has: its owner, and a restricted user granted nothing until the owner grants it. */
export const OWNER_ID = 1;
export const RESTRICTED_ID = 2;

export interface User extends Row {
  id: number;
  username: string;
  restricted: boolean;
  grants?: Grants;
}

export interface TokenRecord extends Row {
  id: number;
  user_id: number;
  label: string;
  scopes: string;
  created: string;
  expiry: string | null;
  /** The first 16 characters, the only part ever shown again. */
  token: string;
  /** The OAuth client whose preferences this token reads and writes. */
  client: string;
}

/** One scope or grant check of a request, as the journal shows it: what it needed, what the token or user had. */
export interface AccessDecision {
  kind: 'scope' | 'grant';
  needs: string;
  has: string;
  allowed: boolean;
}

export interface Auth {
  user: User;
  token: TokenRecord;
  /** The checks this request made, in order: the journal's account of why it was allowed or refused. */
  decisions?: AccessDecision[];
}

const decide = (auth: Auth, kind: AccessDecision['kind'], needs: string, has: string, allowed: boolean): boolean => {
  auth.decisions?.push({ kind, needs, has, allowed });
  return allowed;
};

export const hashToken = (value: string) => createHash('sha256').update(value).digest('hex');

export const newTokenValue = () => randomBytes(32).toString('hex');

export function emptyGrants(): Grants {
  return {
    global: {
      account_access: null,
      add_domains: false,
      add_images: false,
      add_vms: false,
      add_longview: false,
      add_nodebalancers: false,
      add_stackscripts: false,
      add_volumes: false,
      cancel_account: false,
      longview_subscription: false,
    },
    vm: [],
    nodebalancer: [],
    image: [],
    stackscript: [],
    domain: [],
    longview: [],
    volume: [],
  };
}

/** Stores a token by its hash only; returns the record. */
export function issueToken(store: Store, value: string, fields: { user_id: number; label: string; scopes: string; expiry?: string | null; client?: string }): TokenRecord {
  const id = store.nextId('token');
  const record: TokenRecord = {
    id,
    user_id: fields.user_id,
    label: fields.label,
    scopes: fields.scopes,
    created: isoSeconds(store.clock.now()),
    expiry: fields.expiry ?? null,
    token: value.slice(0, 16),
    client: fields.client ?? 'personal',
  };
  store.insert('token', id, record, { parent: String(fields.user_id), key: hashToken(value) });
  return record;
}

/** Resolves the Authorization header: null when absent, 401 when present but not valid now. */
export function authenticate(store: Store, header: string | undefined, now = store.clock.now()): Auth | null {
  if (header === undefined || header === '') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('The Authorization header must be "Bearer <token>"');
  const token = store.getByKey<TokenRecord>('token', hashToken(m[1]!));
  if (!token) throw unauthorized('Invalid Token');
  if (token.expiry && parseApiTime(token.expiry) <= now) throw unauthorized('Token has expired');
  const user = store.get<User>('user', token.user_id);
  if (!user) throw unauthorized('Invalid Token');
  return { user, token, decisions: [] };
}

/** What a token's scopes give of one scope group, in words: `vms:read_only`, `*`, `no vms scope`. */
function scopeHeld(scopes: string, required: string): string {
  if (scopes.trim() === '*') return '*';
  const group = required.split(':', 1)[0]!;
  const held = scopes.split(/[\s,]+/).filter((s) => s.startsWith(`${group}:`));
  return held.length > 0 ? held.join(' ') : `no ${group} scope`;
}

export function requireScope(auth: Auth, required: string[]): void {
  const missing = required.filter((s) => !decide(auth, 'scope', s, scopeHeld(auth.token.scopes, s), scopeAllows(auth.token.scopes, s)));
  if (missing.length > 0) throw forbidden(`Your OAuth token is not authorized to use this endpoint (missing scope ${missing.join(' and ')})`);
}

const levelRank = (l: Level | null | undefined) => (l === 'read_write' ? 2 : l === 'read_only' ? 1 : 0);

/** A restricted user's permission on one entity; unrestricted users have read_write on everything. */
export function entityLevel(auth: Auth, kind: GrantKind, id: number | string): Level | null {
  if (!auth.user.restricted) return 'read_write';
  const entry = auth.user.grants?.[kind].find((g) => String(g.id) === String(id));
  return entry?.permissions ?? null;
}

/** Grant check for one entity: invisible entities are 404, read-only ones are 403 for writes. */
export function requireEntity(auth: Auth | null, kind: GrantKind, id: number | string, level: Level, notFoundReason = 'Not found'): void {
  if (!auth || !auth.user.restricted) return;
  const have = entityLevel(auth, kind, id);
  decide(auth, 'grant', `${level} on ${kind} ${id}`, have ? `${have} on it` : 'no access to it', levelRank(have) >= levelRank(level));
  if (levelRank(have) === 0) throw notFound(notFoundReason);
  if (levelRank(have) < levelRank(level)) throw forbidden(`You have read-only access to this ${kind}`);
}

/** Account-wide grant checks (add_vms, add_nodebalancers, …). */
export function requireGlobal(auth: Auth | null, grant: keyof Grants['global']): void {
  if (!auth || !auth.user.restricted) return;
  const has = Boolean(auth.user.grants?.global[grant]);
  if (!decide(auth, 'grant', `the ${grant} grant`, has ? `the ${grant} grant` : `no ${grant} grant`, has)) throw forbidden(`You do not have the ${grant} grant`);
}

/** Account-level areas (managed, object storage, firewalls, tags) follow the global account_access grant. */
export function requireAccountAccess(auth: Auth | null, level: Level): void {
  if (!auth || !auth.user.restricted) return;
  const have = auth.user.grants?.global.account_access;
  if (!decide(auth, 'grant', `${level} account access`, have ? `${have} account access` : 'no account access', levelRank(have) >= levelRank(level))) {
    throw forbidden(level === 'read_write' ? 'You need read_write account access for this' : 'You need account access for this');
  }
}

export function requireUnrestricted(auth: Auth | null, what: string): void {
  if (!auth?.user.restricted) return;
  decide(auth, 'grant', `an unrestricted user to ${what}`, 'restrictions', false);
  throw forbidden(`Only unrestricted users may ${what}`);
}

/**
 * Limits a list query to the entities a restricted user may see: by row id, or
 * by a JSON path holding the entity's id (e.g. `$.vm_id` on address records).
 */
export function grantFilter(auth: Auth | null, kind: GrantKind, jsonPath?: string): SqlFilter | undefined {
  if (!auth || !auth.user.restricted) return undefined;
  const granted = (auth.user.grants?.[kind] ?? []).filter((g) => g.permissions);
  if (granted.length === 0) return { where: '0', params: [] };
  const marks = granted.map(() => '?').join(',');
  if (jsonPath) return { where: `json_extract(data, '${jsonPath}') IN (${marks})`, params: granted.map((g) => g.id) };
  return { where: `id IN (${marks})`, params: granted.map((g) => String(g.id)) };
}

export function visibleTo(auth: Auth | null, kind: GrantKind, id: number | string): boolean {
  return !auth || !auth.user.restricted || levelRank(entityLevel(auth, kind, id)) > 0;
}
