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

