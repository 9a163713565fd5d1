import { emptyGrants, issueToken, type Grants, type User } from '../../src/server/auth.js';
import { allocateIpv4 } from '../../src/server/ipam.js';
import type { RunningService } from '../../src/server/service.js';
import { isoSeconds } from '../../src/model/time.js';

/** Fixtures shared by the managed, events and control tests: rows made directly, independent of other areas. */

/** An instance row with one public and one private IPv4, as compute would store it. */
export function addInstance(svc: RunningService, label: string): { id: number; publicIp: string } {
  // One region: ipam's private addresses do not yet differ between regions.
  const region = 'us-east';
  return svc.store.tx(() => {
    const id = svc.store.nextId('vm', 7000);
    const now = isoSeconds(Date.now());
    svc.store.insert('vm', id, { id, label, group: 'web', status: 'running', region, type: 'g6-standard-1', tags: [], created: now, updated: now });
    const publicIp = allocateIpv4(svc.store, id, region, true).address;
    allocateIpv4(svc.store, id, region, false);
    return { id, publicIp };
  });
}

/** Replaces the restricted user's grants (user 2, demo-ops). */
export function setRestrictedGrants(svc: RunningService, edit: (g: Grants) => void): void {
  svc.store.tx(() => {
    const user = svc.store.get<User>('user', 2)!;
    const grants = emptyGrants();
    edit(grants);
    svc.store.put('user', 2, { ...user, grants });
  });
}

/** A token of the owner limited to the given scopes. */
export function ownerTokenWith(svc: RunningService, scopes: string): string {
  const value = `scoped-${scopes.replace(/\W/g, '-')}-${Math.random().toString(36).slice(2)}`;
  svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: `test ${scopes}`, scopes }));
  return value;
}
