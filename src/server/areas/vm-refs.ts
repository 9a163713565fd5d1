import { requireEntity, visibleTo, type Level } from '../auth.js';
import type { EntityRef } from '../events.js';
import type { Ctx } from '../route.js';

/** The instance fields the networking areas read. */
export interface VmRecord extends Record<string, unknown> {
  id: number;
  label: string;
  region: string;
  ipv6?: string | null;
}

export const instanceUrl = (id: number) => `/v4/vm/instances/${id}`;

export const vmEntity = (vm: VmRecord): EntityRef & { id: number } => ({ id: vm.id, label: vm.label, type: 'vm', url: instanceUrl(vm.id) });

/**
 * An instance named in a request body. Missing and invisible instances give
 * null alike, so the caller reports them on the field without revealing which;
 * a read-only grant where a write is needed is a 403.
 */
export function instanceRef(ctx: Ctx, id: number, level: Level): VmRecord | null {
  const vm = ctx.store.get<VmRecord>('vm', id);
  if (!vm || !visibleTo(ctx.auth, 'vm', id)) return null;
  requireEntity(ctx.auth, 'vm', id, level);
  return vm;
}
