/** OAuth scope strings (`vms:read_write linodes:read_only`, or `*`), read the same way by the service and the UI. */
import type { GrantLevel as Level } from './profile.js';

function parseScopes(scopes: string): Map<string, Level> | '*' {
  if (scopes.trim() === '*') return '*';
  const map = new Map<string, Level>();
  for (const part of scopes.split(/[\s,]+/).filter(Boolean)) {
    const [group, level] = part.split(':') as [string, Level];
    if (map.get(group) !== 'read_write') map.set(group, level);
  }
  return map;
}

/** Whether a token's scope string grants `group:level` (read_write implies read_only). */
export function scopeAllows(scopes: string, required: string): boolean {
  const have = parseScopes(scopes);
  if (have === '*') return true;
  const [group, level] = required.split(':') as [string, Level];
  const got = have.get(group);
  return got === 'read_write' || (got === 'read_only' && level === 'read_only');
}

/** Whether `child` asks for nothing beyond `parent`: tokens never exceed their creator. */
export function scopesWithin(child: string, parent: string): boolean {
  const want = parseScopes(child);
  if (want === '*') return parseScopes(parent) === '*';
  return [...want].every(([group, level]) => scopeAllows(parent, `${group}:${level}`));
}


const LEVEL_RANK: Record<string, number> = { read_only: 1, read_write: 2 };

/** Each scope once, sorted by group then level (`account:read_only`, `vms:read_only`, `vms:read_write`); `*` and malformed parts are left out. */
export function sortedScopes(scopes: Iterable<string>): string[] {
  const valid = [...new Set(scopes)].filter((s) => /^[a-z_]+:(read_only|read_write)$/.test(s));
  return valid.sort((a, b) => {
    const [ga, la] = a.split(':') as [string, string];
    const [gb, lb] = b.split(':') as [string, string];
    return ga < gb ? -1 : ga > gb ? 1 : LEVEL_RANK[la]! - LEVEL_RANK[lb]!;
  });
}

/**
 * The smallest scope string that allows every one of `needed`: each group at
 * the highest level asked of it, since a read_write covers its read_only
 * (`account:read_only vms:read_write`). Empty when nothing needed a scope.
 */
export function narrowestScopes(needed: Iterable<string>): string {
  // Read as a token's scopes are: a group's read_write, once seen, stands for its read_only.
  const top = parseScopes(sortedScopes(needed).join(' '));
  return top === '*' ? '' : [...top].map(([group, level]) => `${group}:${level}`).join(' ');
}

/** The scope group of each path prefix (the first match wins); null: what anyone may read. */
const GROUPS: [prefix: RegExp, group: string | null][] = [
  [/^\/(regions|vm\/types|object-storage\/clusters)(\/|$)/, null],
  [/^\/vm\/stackscripts(\/|$)/, 'stackscripts'],
  [/^\/vm\//, 'vms'],
  [/^\/images(\/|$)/, 'images'],
  [/^\/nodebalancers(\/|$)/, 'nodebalancers'],
  [/^\/networking\/firewalls(\/|$)/, 'firewall'],
  [/^\/networking\//, 'ips'],
  [/^\/object-storage\//, 'object_storage'],
  [/^\/(account|managed|profile|tags)(\/|$)/, 'account'],
];

/** Where the API asks more or less than its method says: reading one managed contact or credential needs read_write, marking events read only read_only. */
const OWN_PROFILE = /^\/profile(\/grants)?$/;
const WRITE_TO_READ = /^\/account\/events\/[^/]+\/(read|seen)$/;
const READ_AS_WRITE = /^\/(managed\/(contacts|credentials)\/\d+|nodebalancers\/\d+\/configs\/\d+\/nodes\/\d+)$/;
const WITH_VMS = /^\/networking\/(ips|ipv4\/assign|ipv4\/share)$/;

/**
 * The scopes a call of the API needs, by its method and its path under a
 * root (`GET /vm/instances` → `vms:read_only`), as the service checks them.
 * What anyone may read, and reading the caller's own profile and grants, need none.
 */
export function scopesForRequest(method: string, path: string): string[] {
  const bare = path.split('?', 1)[0]!.replace(/\/+$/, '');
  if (method === 'GET' && OWN_PROFILE.test(bare)) return [];
  const group = GROUPS.find(([prefix]) => prefix.test(bare))?.[1];
  if (!group) return [];
  const reading = method === 'GET' || method === 'HEAD';
  const level = (reading && !READ_AS_WRITE.test(bare)) || (method === 'POST' && WRITE_TO_READ.test(bare)) ? 'read_only' : 'read_write';
  return method === 'POST' && WITH_VMS.test(bare) ? [`${group}:${level}`, `vms:${level}`] : [`${group}:${level}`];
}

/**
 * The scope an endpoint needs, for a server whose refusal names none (the
 * first, where a call needs two). Undefined for what anyone may read.
 */
export function endpointScope(method: string, path: string): string | undefined {
  return scopesForRequest(method, path)[0];
}
