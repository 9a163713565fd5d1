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

/** The scope group each area's paths need (the seed's tables), the first match winning. */
const PATH_GROUPS: readonly [RegExp, string][] = [
  [/^\/networking\/firewalls(\/|$)/, 'firewall'],
  [/^\/networking\//, 'ips'],
  [/^\/nodebalancers(\/|$)/, 'nodebalancers'],
  [/^\/object-storage\//, 'object_storage'],
  [/^\/images(\/|$)/, 'images'],
  [/^\/vm\/instances(\/|$)/, 'vms'],
  [/^\/vm\/stackscripts(\/|$)/, 'stackscripts'],
  [/^\/(account|managed|profile|tags)(\/|$)/, 'account'],
];

/** Where the seed's level is not the method's: reading a contact, a credential or a node needs read_write; marking an event seen, read_only. */
const LEVEL_EXCEPTIONS: readonly [string, RegExp, Level][] = [
  ['GET', /^\/managed\/(contacts|credentials)\/\d+$/, 'read_write'],
  ['GET', /^\/nodebalancers\/\d+\/configs\/\d+\/nodes\/\d+$/, 'read_write'],
  ['POST', /^\/account\/events\/\d+\/(seen|read)$/, 'read_only'],
];

/**
 * The scope an endpoint needs, for a server whose refusal names none:
 * reading needs the group's read_only, changing its read_write. Undefined for
 * a path outside the scoped areas.
 */
export function endpointScope(method: string, path: string): string | undefined {
  const bare = path.split('?', 1)[0]!;
  const group = PATH_GROUPS.find(([re]) => re.test(bare))?.[1];
  if (group === undefined) return undefined;
  const level = LEVEL_EXCEPTIONS.find(([m, re]) => m === method && re.test(bare))?.[2] ?? (method === 'GET' ? 'read_only' : 'read_write');
  return `${group}:${level}`;
}
