import { CloneRequest } from '../../model/instance-actions.js';
import type { FieldError } from '../../model/schema.js';
import { requireGlobal } from '../auth.js';
import { assertValid, badRequest } from '../errors.js';
import type { Ctx, Router } from '../route.js';
import type { InstanceTypeRecord } from '../seed/reference.js';
import { grantCreator } from './images.js';
import { scheduleBackupService } from './instance-backups.js';
import { applyLayout, defaultLabel, insertInstance, labelTaken, layoutOf } from './instance-build.js';
import {
  FIRST_ID,
  assertIdle,
  clonesInProgress,
  configsOf,
  disksOf,
  freeSpace,
  instanceFor,
  presentInstance,
  readBody,
  sizeOf,
  startAction,
  targetInstance,
  type ConfigRecord,
  type DiskRecord,
  type InstanceRecord,
} from './instance-common.js';
import { vmEntity } from './vm-refs.js';

const CLONE_SECONDS = 10;
/** Upstream: up to five clones from one source may run at once. */
const MAX_CONCURRENT_CLONES = 5;

/** Looks ids up among the source's rows; an id it does not have is reported at its index. */
function pick<T extends { id: number }>(rows: T[], ids: unknown, field: string, what: string, errors: FieldError[]): T[] {
  if (!Array.isArray(ids)) return [];
  return ids.flatMap((id, i) => {
    const row = rows.find((r) => r.id === id);
    if (!row) errors.push({ field: `${field}.${i}`, reason: `${what} ${id} is not on the source instance` });
    return row ? [row] : [];
  });
}

/**
 * What a clone copies. configs omitted: every config; []: none; listed: those.
 * The chosen configs' disks always come along; `disks` adds more on top.
 */
function selection(ctx: Ctx, source: InstanceRecord, body: Record<string, unknown>, errors: FieldError[]) {
  const allConfigs = configsOf(ctx.store, source.id);
  const allDisks = disksOf(ctx.store, source.id);
  const configs: ConfigRecord[] = body.configs === undefined ? allConfigs : pick(allConfigs, body.configs, 'configs', 'Config', errors);
  const wanted = new Set<number>(pick(allDisks, body.disks, 'disks', 'Disk', errors).map((d) => d.id));
  for (const c of configs) for (const device of Object.values(c.devices)) if (device?.disk_id) wanted.add(device.disk_id);
  const disks: DiskRecord[] = allDisks.filter((d) => wanted.has(d.id));
  return { configs, disks };
}

/** The new instance a clone creates: region and type from the body, tags from the source. */
function newTarget(ctx: Ctx, source: InstanceRecord, body: Record<string, unknown>, type: InstanceTypeRecord): InstanceRecord {
  const id = ctx.store.nextId('vm', FIRST_ID.vm);
  const vm = insertInstance(ctx.store, {
    id,
    label: (body.label as string | undefined) ?? (labelTaken(ctx.store, `vm${id}`) ? defaultLabel(ctx.store, `vm${id}`) : `vm${id}`),
    region: body.region as string,
    type,
    image: null,
    group: body.group as string | undefined,
    tags: source.tags,
    status: 'provisioning',
    backupsEnabled: body.backups_enabled === true,
    created: ctx.store.clock.iso(),
  });
  if (vm.backups.enabled) scheduleBackupService(ctx, vm.id);
  grantCreator(ctx.store, ctx.auth!, 'vm', vm.id);
  return vm;
}

function cloneInstance(ctx: Ctx): unknown {
  const source = instanceFor(ctx, 'read_only');
  const raw = (ctx.body ?? {}) as Record<string, unknown>;
  // A null vm_id is read as absent (a new instance): it needs the grant too.
  if (raw.vm_id === undefined || raw.vm_id === null) requireGlobal(ctx.auth, 'add_vms');
  const { value: body, errors } = readBody(ctx, CloneRequest, 'create');
  const chosen = selection(ctx, source, body, errors);
  const need = sizeOf(chosen.disks);

  const existing = targetInstance(ctx, body.vm_id, 'vm_id', errors);
  if (existing?.id === source.id) errors.push({ field: 'vm_id', reason: 'An instance cannot be cloned into itself' });
  else if (existing && freeSpace(ctx.store, existing) < need) {
    errors.push({ field: 'vm_id', reason: `Instance ${existing.label} has ${freeSpace(ctx.store, existing)} MB free; the clone needs ${need} MB` });
  }
  if (typeof body.region === 'string' && !ctx.store.get('region', body.region)) errors.push({ field: 'region', reason: `Region ${body.region} not found` });
  const type = typeof body.type === 'string' ? ctx.store.get<InstanceTypeRecord>('type', body.type) : undefined;
  if (typeof body.type === 'string' && !type) errors.push({ field: 'type', reason: `Type ${body.type} not found` });
  if (type && type.disk < need) errors.push({ field: 'type', reason: `${type.id} has ${type.disk} MB of disk; the clone needs ${need} MB` });
  if (typeof body.label === 'string' && labelTaken(ctx.store, body.label)) errors.push({ field: 'label', reason: `Label ${body.label} is already in use` });
  assertValid(errors);

  if (clonesInProgress(ctx.store, source.id) >= MAX_CONCURRENT_CLONES) {
    throw badRequest(`Instance ${source.label} already has ${MAX_CONCURRENT_CLONES} clones in progress; wait for one to finish`);
  }
  if (existing) assertIdle(ctx.store, existing);
  const target = existing ?? newTarget(ctx, source, body, type!);
  const made = applyLayout(ctx.store, target.id, layoutOf(ctx.store, source.id, chosen), 'not ready', ctx.store.clock.iso());
  const cloning = startAction(ctx, target, {
    status: existing ? 'cloning' : 'provisioning',
    to: existing ? existing.status : 'offline',
    action: 'vm_clone',
    seconds: CLONE_SECONDS,
    disks: made.disks.map((d) => d.id),
    cloneSource: source.id,
    entity: vmEntity(source),
    secondary: vmEntity(target),
  });
  return presentInstance(ctx.store, cloning);
}

/** Clone disks and configs into a new instance or an existing one. */
export function cloneRoutes(r: Router): void {
  r.post('/vm/instances/{vmId}/clone', 'vms:read_write', cloneInstance);
}
