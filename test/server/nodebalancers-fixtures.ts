import { expect } from 'vitest';
import { emptyGrants, issueToken, type Grants, type User } from '../../src/server/auth.js';
import { allocateIpv4 } from '../../src/server/ipam.js';
import type { RunningService } from '../../src/server/service.js';
import { call } from '../helpers/service.js';

let tokenSerial = 0;

/** An instance row with one private address, as compute would store it; returns the address. */
export function addInstance(svc: RunningService, id: number, status: string, region = 'us-east'): string {
  return svc.store.tx(() => {
    svc.store.insert('vm', id, { id, label: `vm-${id}`, status, region, tags: [] });
    return allocateIpv4(svc.store, id, region, false).address;
  });
}

/** An owner token limited to the given scopes. */
export function scopedToken(svc: RunningService, scopes: string): string {
  const value = `nb-scoped-token-${++tokenSerial}-0123456789abcdef`;
  svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: `scoped ${tokenSerial}`, scopes }));
  return value;
}

/** Replaces the restricted user's grants. */
export function setGrants(svc: RunningService, edit: (g: Grants) => void): void {
  svc.store.tx(() => {
    const user = svc.store.get<User>('user', 2)!;
    const grants = emptyGrants();
    edit(grants);
    svc.store.put('user', 2, { ...user, grants });
  });
}

export const restrictedGrants = (svc: RunningService): Grants => svc.store.get<User>('user', 2)!.grants!;

/** POST /nodebalancers, expecting success. */
export async function createBalancer(svc: RunningService, body: Record<string, unknown> = { region: 'us-east' }): Promise<any> {
  const r = await call(svc, 'POST', '/nodebalancers', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** POST a config, expecting success. */
export async function createConfig(svc: RunningService, nbId: number, body: Record<string, unknown> = {}): Promise<any> {
  const r = await call(svc, 'POST', `/nodebalancers/${nbId}/configs`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

export async function createNode(svc: RunningService, nbId: number, cfgId: number, body: Record<string, unknown>): Promise<any> {
  const r = await call(svc, 'POST', `/nodebalancers/${nbId}/configs/${cfgId}/nodes`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

let labelSerial = 0;
export const uniqueLabel = (prefix = 'lb') => `${prefix}-${++labelSerial}`;
