import { BACKUP_IN_PROGRESS, RestoreRequest, SnapshotRequest } from '../../model/instance-backups.js';
import { BACKUP_DAYS, BACKUP_WINDOWS } from '../../model/instances.js';
import { assertValid, badRequest } from '../errors.js';
import { finishEvent, type EntityRef } from '../events.js';
import { bodyFor, type Ctx, type Router } from '../route.js';
import { onJob } from '../sim.js';
import type { Store } from '../store.js';
import { applyLayout, insertBackup } from './instance-build.js';
import {
  assertIdle,
  backupsOf,
  childOf,
  freeSpace,
  instanceFor,
  noteEvent,
  presentBackup,
  readBody,
  registerActionJob,
  sizeOf,
  startAction,
  startEvent,
  targetInstance,
  type BackupRecord,
  type BackupsState,
  type InstanceRecord,
} from './instance-common.js';
import { instanceUrl } from './vm-refs.js';

const SNAPSHOT_SECONDS = 10;
const RESTORE_SECONDS = 12;
const SCHEDULING_SECONDS = 5;
const FIRST_BACKUP_SECONDS = 60;

const SNAPSHOT_TAKEN = 'vm.snapshot.taken';
const SCHEDULE_CHOSEN = 'vm.backups.scheduled';
const FIRST_BACKUP = 'vm.backups.first';
registerActionJob(SNAPSHOT_TAKEN);

const backupRef = (vmId: number, b: BackupRecord): EntityRef => ({
  id: b.id,
  label: b.label ?? `Backup ${b.id}`,
  type: 'backups',
  url: `${instanceUrl(vmId)}/backups/${b.id}`,
});

function updateBackups(store: Store, vmId: number, change: (b: BackupsState) => BackupsState): void {
  const vm = store.get<InstanceRecord>('vm', vmId);
  if (vm) store.put<InstanceRecord>('vm', vmId, { ...vm, backups: change(vm.backups) });
}

onJob(SNAPSHOT_TAKEN, (store, p) => {
  const backup = store.get<BackupRecord>('backup', p.backup_id as number);
  const done = store.clock.iso();
  if (backup) {
    store.put<BackupRecord>('backup', backup.id, { ...backup, status: 'successful', finished: done, updated: done });
    updateBackups(store, p.vm_id as number, (b) => ({ ...b, last_successful: done }));
  }
  finishEvent(store, p.event_id as number, backup ? 'finished' : 'failed');
});

/** While "Scheduling", the service picks a day and window of its own (stable per instance). */
onJob(SCHEDULE_CHOSEN, (store, p) => {
  const id = p.vm_id as number;
  updateBackups(store, id, (b) => ({
    ...b,
    schedule: {
      day: b.schedule.day === 'Scheduling' ? BACKUP_DAYS[1 + (id % 7)]! : b.schedule.day,
      window: b.schedule.window === 'Scheduling' ? BACKUP_WINDOWS[1 + (id % 12)]! : b.schedule.window,
    },
  }));
});

/** The first automatic backup after backups are enabled. */
onJob(FIRST_BACKUP, (store, p) => {
  const vm = store.get<InstanceRecord>('vm', p.vm_id as number);
  if (!vm?.backups.enabled) return;
  const done = store.clock.iso();
  insertBackup(store, vm, { type: 'auto', label: null, status: 'successful', created: done, finished: done });
  updateBackups(store, vm.id, (b) => ({ ...b, last_successful: done }));
});

/** Scheduling starts when backups are enabled, at create or later. */
export function scheduleBackupService(ctx: Ctx, vmId: number): void {
  ctx.sim.schedule(SCHEDULE_CHOSEN, { vm_id: vmId }, SCHEDULING_SECONDS);
  ctx.sim.schedule(FIRST_BACKUP, { vm_id: vmId }, FIRST_BACKUP_SECONDS);
}

const inProgress = (b: BackupRecord) => (BACKUP_IN_PROGRESS as readonly string[]).includes(b.status);

function listBackups(ctx: Ctx): unknown {
  const all = backupsOf(ctx.store, instanceFor(ctx, 'read_only').id);
  const snapshots = all.filter((b) => b.type === 'snapshot');
  const current = snapshots.filter((b) => b.status === 'successful').at(-1);
  const pending = snapshots.find(inProgress);
  return {
    automatic: all.filter((b) => b.type === 'auto').map(presentBackup),
    snapshot: { in_progress: pending ? presentBackup(pending) : null, current: current ? presentBackup(current) : null },
  };
}

/** A snapshot needs the backup service; it replaces the previous snapshot. */
function takeSnapshot(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const body = bodyFor(ctx, SnapshotRequest, 'create');
  if (!vm.backups.enabled) throw badRequest('Backups are not enabled for this instance; enable them before taking a snapshot');
  const snapshots = backupsOf(ctx.store, vm.id).filter((b) => b.type === 'snapshot');
  if (snapshots.some(inProgress)) throw badRequest('A snapshot of this instance is already being taken');
  assertIdle(ctx.store, vm);
  for (const old of snapshots) ctx.store.delete('backup', old.id);
  const backup = insertBackup(ctx.store, vm, { type: 'snapshot', label: body.label as string, status: 'pending', created: ctx.store.clock.iso(), finished: null });
  const eventId = startEvent(ctx, 'vm_snapshot', vm, { secondary: backupRef(vm.id, backup) });
  ctx.sim.schedule(SNAPSHOT_TAKEN, { vm_id: vm.id, backup_id: backup.id, event_id: eventId }, SNAPSHOT_SECONDS);
  return presentBackup(backup);
}

function enableBackups(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  if (vm.backups.enabled) throw badRequest('Backups are already enabled for this instance');
  const { day, window } = vm.backups.schedule;
  const updated = ctx.store.put<InstanceRecord>('vm', vm.id, {
    ...vm,
    backups: { ...vm.backups, enabled: true, schedule: { day: day ?? 'Scheduling', window: window ?? 'Scheduling' } },
  });
  scheduleBackupService(ctx, vm.id);
  noteEvent(ctx, 'backups_enable', updated);
}

/** Cancelling deletes every backup of the instance for good. */
function cancelBackups(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  if (!vm.backups.enabled) throw badRequest('Backups are not enabled for this instance');
  ctx.store.deleteChildren('backup', String(vm.id));
  const updated = ctx.store.put<InstanceRecord>('vm', vm.id, {
    ...vm,
    backups: { enabled: false, schedule: { day: null, window: null }, last_successful: null },
  });
  noteEvent(ctx, 'backups_cancel', updated);
}

/**
 * Restores onto a target the caller may write. overwrite deletes the target's
 * disks and configs first; without it the backup must fit in the free space.
 */
function restoreBackup(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  const backup = childOf<BackupRecord>(ctx, 'backup', vm, ctx.params.backupId, 'Backup');
  const { value: body, errors } = readBody(ctx, RestoreRequest, 'create');
  const target = targetInstance(ctx, body.vm_id, 'vm_id', errors);
  if (backup.status !== 'successful') errors.push({ reason: `Backup ${backup.id} is ${backup.status}; only a successful backup can be restored` });
  const need = sizeOf(backup.disks);
  const overwrite = body.overwrite === true;
  if (target && !overwrite) {
    const free = freeSpace(ctx.store, target);
    if (free < need) {
      errors.push({ field: 'overwrite', reason: `Insufficient space: the backup needs ${need} MB and instance ${target.label} has ${free} MB free; restore with overwrite true or free up space` });
    }
  }
  assertValid(errors);
  const dest = target!;
  assertIdle(ctx.store, dest);
  if (overwrite) {
    ctx.store.deleteChildren('disk', String(dest.id));
    ctx.store.deleteChildren('config', String(dest.id));
  }
  const made = applyLayout(ctx.store, dest.id, backup._layout, 'not ready', ctx.store.clock.iso());
  startAction(ctx, overwrite ? { ...dest, _last_config: null } : dest, {
    status: 'restoring',
    to: dest.status,
    action: 'backups_restore',
    seconds: RESTORE_SECONDS,
    disks: made.disks.map((d) => d.id),
    secondary: backupRef(vm.id, backup),
  });
}

/** The backup service: list, snapshot, enable, cancel, view, restore. */
export function backupRoutes(r: Router): void {
  r.get('/vm/instances/{vmId}/backups', 'vms:read_only', listBackups);
  r.post('/vm/instances/{vmId}/backups', 'vms:read_write', takeSnapshot);
  r.post('/vm/instances/{vmId}/backups/enable', 'vms:read_write', enableBackups);
  r.post('/vm/instances/{vmId}/backups/cancel', 'vms:read_write', cancelBackups);
  r.get('/vm/instances/{vmId}/backups/{backupId}', 'vms:read_only', (ctx) =>
    presentBackup(childOf<BackupRecord>(ctx, 'backup', instanceFor(ctx, 'read_only'), ctx.params.backupId, 'Backup')),
  );
  r.post('/vm/instances/{vmId}/backups/{backupId}/restore', 'vms:read_write', restoreBackup);
}
