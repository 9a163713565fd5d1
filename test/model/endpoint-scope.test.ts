import { describe, expect, it } from 'vitest';
import { endpointScope } from '../../src/model/scopes.js';
import { areas } from '../../src/server/areas/index.js';

describe('endpointScope: the scope an endpoint needs, for a refusal that names none', () => {
  // The service declares each route's scopes as the seed's tables do: the client's table must say the same.
  const routes = areas
    .filter((a) => a.name !== 'control')
    .flatMap((a) => a.routes)
    .filter((r) => typeof r.scope === 'string' && r.scope.includes(':'));

  it('agrees with every route the service declares with one scope', () => {
    expect(routes.length).toBeGreaterThan(100);
    const concrete = (path: string) => path.replace(/\{\w+\}/g, '7');
    const wrong = routes.filter((r) => endpointScope(r.method, concrete(r.path)) !== r.scope).map((r) => `${r.method} ${r.path}: ${r.scope} vs ${endpointScope(r.method, concrete(r.path))}`);
    expect(wrong).toEqual([]);
  });

  it('ignores the query, and names no scope outside the scoped areas', () => {
    expect(endpointScope('GET', '/vm/instances?page=2')).toBe('vms:read_only');
    expect(endpointScope('GET', '/regions')).toBeUndefined();
    expect(endpointScope('GET', '/vm/types')).toBeUndefined();
  });
});
