import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';
import { emptyGrants, hashToken, issueToken, OWNER_ID, RESTRICTED_ID, type TokenRecord, type User } from '../auth.js';
import type { SeedKind } from '../accounts.js';
import { markSealed } from '../secrets.js';
import { seedReference } from './reference.js';
import { demoSteps } from './demo.js';

function baseUser(id: number, username: string, restricted: boolean): User {
  return {
    id,
    uid: id,
    username,
    email: `${username}@example.com`,
    email_notifications: true,
    timezone: 'UTC',
    authentication_type: 'password',
    authorized_keys: null,
    lish_auth_method: 'password_keys',
    ip_whitelist_enabled: false,
    restricted,
    two_factor_auth: false,
    referrals: { code: `ref-${username}`, url: `https://cloud.example.com/?r=ref-${username}`, total: 0, completed: 0, pending: 0, credit: 0 },
    grants: restricted ? emptyGrants() : undefined,
    preferences: {},
  };
}

/**
 * Seeds a new store: the account's owner, a restricted user with no grants,
 * the reference data (regions, types, clusters, public images and scripts),
 * and with `demo` a lived-in account. What it holds is sealed as it is
 * written, and the store is marked so.
 */
export function seedAccount(store: Store, kind: SeedKind, sim: Simulation): void {
  store.insert('user', OWNER_ID, baseUser(OWNER_ID, 'demo-owner', false));
  store.insert('user', RESTRICTED_ID, baseUser(RESTRICTED_ID, 'demo-ops', true));
  seedReference(store);
  if (kind === 'demo') for (const step of demoSteps) step(store, sim);
  store.setMeta('seeded', kind);
  markSealed(store);
}

/** A token a start generated, and the process serving with it. */
interface Generated {
  id: number;
  pid: number;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const partition = <T>(items: T[], keep: (item: T) => boolean): [T[], T[]] => [items.filter(keep), items.filter((i) => !keep(i))];

const generatedKey = (role: string) => `generated_tokens:${role}`;
const generatedTokens = (store: Store, role: string): Generated[] => JSON.parse(store.getMeta(generatedKey(role)) ?? '[]') as Generated[];

/**
 * Makes sure a token the operator chose (or serve generated) is accepted. A
 * generated token lives as long as the process that generated it: a start
 * revokes those of processes that are gone, so restarts do not pile up live
 * credentials, while a second service on the same data (a second vmtui
 * window on the demo account) leaves the first one's token working.
 */
export function ensureToken(store: Store, userId: number, value: string, role: string, generated: boolean): TokenRecord {
  const existing = store.getByKey<TokenRecord>('token', hashToken(value));
  if (existing) return existing;
  const record = issueToken(store, value, { user_id: userId, label: generated ? `vmtui serve (${role})` : `serve --token (${role})`, scopes: '*' });
  if (generated) {
    // Data from before per-process tokens kept one generated token per role.
    const before = store.getMeta(`generated_token:${role}`);
    if (before) {
      store.delete('token', before);
      store.deleteMeta(`generated_token:${role}`);
    }
    const [live, gone] = partition(generatedTokens(store, role), (t) => isAlive(t.pid));
    for (const t of gone) store.delete('token', t.id);
    store.setMeta(generatedKey(role), JSON.stringify([...live, { id: record.id, pid: process.pid }]));
  }
  return record;
}

/** On a clean stop: the tokens this start generated stop working with it. */
export function revokeGenerated(store: Store, tokens: readonly TokenRecord[]): void {
  const ids = new Set(tokens.map((t) => t.id));
  for (const role of ['owner', 'restricted']) {
    const [mine, others] = partition(generatedTokens(store, role), (t) => ids.has(t.id));
    if (mine.length === 0) continue;
    for (const t of mine) store.delete('token', t.id);
    store.setMeta(generatedKey(role), JSON.stringify(others));
  }
}
