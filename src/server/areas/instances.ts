import { DEFAULT_SWAP_MB, Instance } from '../../model/instances.js';
import { filterableFields, type FieldError } from '../../model/schema.js';
import { grantFilter, requireEntity, requireGlobal, requireUnrestricted, visibleTo } from '../auth.js';
import { assertValid } from '../errors.js';
import { filterFields } from '../filter.js';
import { instanceWasDeleted } from '../hooks.js';
import { releaseIps } from '../ipam.js';
import { cachedListPage, defineArea, type Ctx, type Router } from '../route.js';
import type { InstanceTypeRecord } from '../seed/reference.js';
import { registerTags } from '../tagging.js';
import { grantCreator, imageRef } from './images.js';
import { backupRoutes, scheduleBackupService } from './instance-backups.js';
import { applyLayout, defaultInstanceLabel, imageLayout, insertInstance, labelTaken, setLabel } from './instance-build.js';
import { cloneRoutes } from './instance-clone.js';
import {
  instanceFor,
  noteEvent,
  presentInstance,
  readBody,
  sizeOf,
  startEvent,
  type BackupRecord,
  type InstanceRecord,
} from './instance-common.js';
import { configRoutes } from './instance-configs.js';
import { checkDeployment, countDeployment } from './instance-deploy.js';
import { diskRoutes } from './instance-disks.js';
import { lifecycleRoutes, scheduleProvisioning } from './instance-lifecycle.js';

const FILTERABLE = filterFields(filterableFields(Instance), ['tags']);

/** The backup a create restores, when the caller may write its instance and it is complete. */
function backupSource(ctx: Ctx, id: number, errors: FieldError[]): { backup: BackupRecord; region: string } | undefined {
  const backup = ctx.store.get<BackupRecord>('backup', id);
  const vmId = Number(ctx.store.parentOf('backup', id));
  const source = ctx.store.get<InstanceRecord>('vm', vmId);
  if (!backup || !source || !visibleTo(ctx.auth, 'vm', vmId)) {
    errors.push({ field: 'backup_id', reason: `Backup ${id} not found` });
    return undefined;
  }
  requireEntity(ctx.auth, 'vm', vmId, 'read_write');
  if (backup.status !== 'successful') errors.push({ field: 'backup_id', reason: `Backup ${id} is ${backup.status}; only a successful backup can be restored` });
  return { backup, region: source.region };
}

function createInstance(ctx: Ctx): unknown {
  const auth = ctx.auth!;
  const store = ctx.store;
  requireGlobal(auth, 'add_vms');
  const raw = (ctx.body ?? {}) as Record<string, unknown>;
  if (Array.isArray(raw.tags) && raw.tags.length > 0) requireUnrestricted(auth, 'add or change tags');
  const { value: v, errors } = readBody(ctx, Instance, 'create');

  const region = typeof v.region === 'string' ? store.get('region', v.region) : undefined;
  if (typeof v.region === 'string' && !region) errors.push({ field: 'region', reason: `Region ${v.region} not found` });
  const type = typeof v.type === 'string' ? store.get<InstanceTypeRecord>('type', v.type) : undefined;
  if (typeof v.type === 'string' && !type) errors.push({ field: 'type', reason: `Type ${v.type} not found` });
  if (typeof v.label === 'string' && labelTaken(store, v.label)) errors.push({ field: 'label', reason: `Label ${v.label} is already in use` });
  const { image, script } = checkDeployment(ctx, v, errors);
  const swap = (v.swap_size as number | undefined) ?? DEFAULT_SWAP_MB;
  if (type && image && type.disk - swap < image.size) {
    // When the image alone fits, the swap asked for is what does not: the error belongs to it.
    const field = v.swap_size !== undefined && type.disk >= image.size ? 'swap_size' : 'type';
    errors.push({ field, reason: `${type.id} has ${type.disk} MB of disk; ${image.id} needs ${image.size} MB plus ${swap} MB of swap` });
  }
  const source = typeof v.backup_id === 'number' ? backupSource(ctx, v.backup_id, errors) : undefined;
  if (source && region && source.region !== v.region) {
    errors.push({ field: 'backup_id', reason: `Backup ${v.backup_id} is in ${source.region}; create the instance there` });
  }
  if (source && type && type.disk < sizeOf(source.backup.disks)) {
    errors.push({ field: 'type', reason: `${type.id} has ${type.disk} MB of disk; the backup needs ${sizeOf(source.backup.disks)} MB` });
  }
  assertValid(errors);

  const created = ctx.store.clock.iso();
  const vm = insertInstance(store, {
    label: (v.label as string | undefined) ?? defaultInstanceLabel(store, type!.id, v.region as string),
    region: v.region as string,
    type: type!,
    image: image?.id ?? null,
    group: v.group as string | undefined,
    tags: v.tags as string[] | undefined,
    status: 'provisioning',
    backupsEnabled: v.backups_enabled === true,
    privateIp: v.private_ip === true,
    created,
  });
  const layout = image ? imageLayout(type!, image, swap) : source?.backup._layout;
  const made = layout ? applyLayout(store, vm.id, layout, 'not ready', created) : { disks: [], configs: [] };
  const boots = (image ? v.booted !== false : source !== undefined) && made.configs.length > 0;
  scheduleProvisioning(ctx.sim, {
    vm_id: vm.id,
    event_id: startEvent(ctx, 'vm_create', vm, { secondary: image ? imageRef(image) : null }),
    disks: made.disks.map((d) => d.id),
    boot_config: boots ? made.configs[0]!.id : null,
    username: auth.user.username,
  });
  if (vm.backups.enabled) scheduleBackupService(ctx, vm.id);
  countDeployment(ctx, script);
  grantCreator(store, auth, 'vm', vm.id);
  return presentInstance(store, vm);
}

function updateInstance(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const raw = (ctx.body ?? {}) as Record<string, unknown>;
  if (raw.tags !== undefined && raw.tags !== null && JSON.stringify(raw.tags) !== JSON.stringify(vm.tags)) requireUnrestricted(ctx.auth, 'add or change tags');
  const { value: v, errors } = readBody(ctx, Instance, 'update', vm);
  if (typeof v.label === 'string' && labelTaken(ctx.store, v.label, vm.id)) errors.push({ field: 'label', reason: `Label ${v.label} is already in use` });
  assertValid(errors);

  const schedule = (v.backups as { schedule?: Partial<InstanceRecord['backups']['schedule']> } | undefined)?.schedule;
  const updated: InstanceRecord = {
    ...vm,
    label: (v.label as string | undefined) ?? vm.label,
    group: (v.group as string | undefined) ?? vm.group,
    tags: (v.tags as string[] | undefined) ?? vm.tags,
    alerts: { ...vm.alerts, ...(v.alerts as object | undefined) },
    backups: { ...vm.backups, schedule: { ...vm.backups.schedule, ...schedule } },
    watchdog_enabled: (v.watchdog_enabled as boolean | undefined) ?? vm.watchdog_enabled,
    updated: ctx.store.clock.iso(),
  };
  ctx.store.put('vm', vm.id, updated);
  if (updated.label !== vm.label) setLabel(ctx.store, vm, updated.label);
  registerTags(ctx.store, updated.tags);
  noteEvent(ctx, 'vm_update', updated);
  return presentInstance(ctx.store, updated);
}

/** Deleting gives up the addresses and removes disks, configs and backups with the instance. */
function deleteInstance(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  const parent = String(vm.id);
  for (const kind of ['disk', 'config', 'backup']) ctx.store.deleteChildren(kind, parent);
  releaseIps(ctx.store, vm.id);
  ctx.store.delete('vm', vm.id);
  instanceWasDeleted(ctx.store, vm.id);
  noteEvent(ctx, 'vm_delete', vm);
}

function instanceRoutes(r: Router): void {
  r.get('/vm/instances', 'vms:read_only', (ctx) =>
    cachedListPage<InstanceRecord>(ctx, 'vm', ['ip'], {
      filterable: FILTERABLE,
      restrict: grantFilter(ctx.auth, 'vm'),
      present: (row) => presentInstance(ctx.store, row),
    }),
  );
  r.post('/vm/instances', 'vms:read_write', createInstance);
  r.get('/vm/instances/{vmId}', 'vms:read_only', (ctx) => presentInstance(ctx.store, instanceFor(ctx, 'read_only')));
  r.put('/vm/instances/{vmId}', 'vms:read_write', updateInstance);
  r.delete('/vm/instances/{vmId}', 'vms:read_write', deleteInstance);
}

/** Compute instances: the instance itself, then its lifecycle, backups, clone, configs and disks. */
export default defineArea('instances', (r) => {
  instanceRoutes(r);
  lifecycleRoutes(r);
  backupRoutes(r);
  cloneRoutes(r);
  configRoutes(r);
  diskRoutes(r);
});
