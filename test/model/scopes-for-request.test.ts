import { describe, expect, it } from 'vitest';
import { areas } from '../../src/server/areas/index.js';
import { narrowestScopes, scopesForRequest, sortedScopes } from '../../src/model/scopes.js';

/** A path of a route with its parameters filled in (`/vm/instances/{vmId}` → `/vm/instances/1`). */
const sample = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (/label|bucket|clusterId|address|regionId|typeId|imageId|stackscriptId/.test(name) ? 'x' : '1'));

describe('scopesForRequest', () => {
  it("gives every route of the service the scopes the service checks (what the UI's :requests counts)", () => {
    let checked = 0;
    for (const area of areas) {
      for (const route of area.routes) {
        const scope = route.scope === 'optional' ? route.optionalScope : route.scope;
        if (scope === undefined || scope === 'public' || scope === 'none') {
          if (route.scope !== 'public' || !route.path.startsWith('/images')) expect(scopesForRequest(route.method, sample(route.path)), `${route.method} ${route.path}`).toEqual([]);
          continue;
        }
        expect(scopesForRequest(route.method, sample(route.path)), `${route.method} ${route.path}`).toEqual(Array.isArray(scope) ? scope : [scope]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  it('the narrowest string covers each group at the highest level asked', () => {
    expect(narrowestScopes(['vms:read_only', 'account:read_only', 'vms:read_write'])).toBe('account:read_only vms:read_write');
    expect(narrowestScopes([])).toBe('');
    expect(sortedScopes(['vms:read_write', 'vms:read_only', '*', 'account:read_only', 'vms:read_only'])).toEqual(['account:read_only', 'vms:read_only', 'vms:read_write']);
  });
});
