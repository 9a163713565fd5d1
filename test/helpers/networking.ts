import { randomBytes } from 'node:crypto';
import { emptyGrants, issueToken, type GrantEntry, type Grants, type User } from '../../src/server/auth.js';
import type { AccountEvent } from '../../src/server/events.js';
import { instanceWasDeleted } from '../../src/server/hooks.js';
import { allocateIpv4, releaseIps, slaacAddress } from '../../src/server/ipam.js';
import type { RunningService } from '../../src/server/service.js';
import { isoSeconds } from '../../src/model/time.js';

/**
 * Instances made straight in the store, shaped like the compute area's
 * records, so the networking tests do not depend on instance creation.
 */
export function addInstance(svc: RunningService, opts: { label: string; region?: string; privateIp?: boolean }): number {
  const { store } = svc;
  return store.tx(() => {
    const id = store.nextId('vm', 100);
    const region = opts.region ?? 'us-east';
    allocateIpv4(store, id, region, true);
    if (opts.privateIp) allocateIpv4(store, id, region, false);
    const now = isoSeconds(Date.now());
    store.insert('vm', id, {
      id,
      label: opts.label,
      region,
      type: 'g6-standard-1',
      status: 'running',
      image: 'vm/debian12',
      tags: [],
      group: '',
      hypervisor: 'kvm',
      ipv6: `${slaacAddress(store, region)}/128`,
      created: now,
      updated: now,
    });
    return id;
  });
}

/** What the compute area does on DELETE: addresses released, record gone, then the hooks. */
export function deleteInstance(svc: RunningService, id: number): void {
  svc.store.tx(() => {
    releaseIps(svc.store, id);
    svc.store.delete('vm', id);
    instanceWasDeleted(svc.store, id);
  });
}

/** Sets the restricted user's (id 2) grants. */
export function setGrants(svc: RunningService, grants: { account_access?: Grants['global']['account_access']; vm?: GrantEntry[] }): void {
  svc.store.tx(() => {
    const user = svc.store.get<User>('user', 2)!;
    const base = emptyGrants();
    svc.store.put('user', 2, {
      ...user,
      grants: { ...base, global: { ...base.global, account_access: grants.account_access ?? null }, vm: grants.vm ?? [] },
    });
  });
}

/** A token of the owner with just these scopes. */
export function tokenWithScopes(svc: RunningService, scopes: string): string {
  const value = randomBytes(16).toString('hex');
  svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: `test ${scopes}`, scopes }));
  return value;
}

export const eventsOf = (svc: RunningService, action: string) => svc.store.all<AccountEvent>('event').filter((e) => e.action === action);
