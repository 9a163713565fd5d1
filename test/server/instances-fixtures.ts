import type { RunningService } from '../../src/server/service.js';
import { issueToken, type User } from '../../src/server/auth.js';
import { RESTRICTED_ID } from '../../src/server/auth.js';
import { call, OWNER_TOKEN } from '../helpers/service.js';

/** A root password the strength check accepts. */
export const STRONG_PASS = 'Correct-Horse-Battery-9-Staple';
export const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFfz4oV0lX2mJrQ4mX9h0rWn3kCq8mW1yJ8gk3Zr3m7u admin@laptop';

/** Creates an instance (from vm/debian12 unless the body says otherwise) and returns the 200 body, failing loudly otherwise. */
export async function createInstance(svc: RunningService, body: Record<string, unknown> = {}, token = OWNER_TOKEN): Promise<any> {
  const r = await call(svc, 'POST', '/vm/instances', {
    token,
    body: { region: 'us-east', type: 'g6-standard-2', image: 'vm/debian12', root_pass: STRONG_PASS, ...body },
  });
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Edits the restricted user's grants in place. */
export function setRestrictedGrants(svc: RunningService, edit: (g: NonNullable<User['grants']>) => void): void {
  svc.store.tx(() => {
    const user = svc.store.get<User>('user', RESTRICTED_ID)!;
    edit(user.grants!);
    svc.store.put('user', RESTRICTED_ID, user);
  });
}

/** An owner token limited to the given scopes. */
export function scopedToken(svc: RunningService, value: string, scopes: string): string {
  svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: `scoped ${scopes}`, scopes }));
  return value;
}

/** Account events recorded so far, optionally of one action. */
export function events(svc: RunningService, action?: string): any[] {
  return svc.store.all<any>('event').filter((e) => action === undefined || e.action === action);
}
