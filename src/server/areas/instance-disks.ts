import { EmptyRequest } from '../../model/instance-actions.js';
import { DEVICE_SLOTS } from '../../model/instance-configs.js';
import { Disk, DiskCreate } from '../../model/instance-disks.js';
import { filterableFields } from '../../model/schema.js';
import { assertValid, badRequest } from '../errors.js';
import { filterFields } from '../filter.js';
import { bodyFor, listPage, type Ctx, type Router } from '../route.js';
import { insertDisk } from './instance-build.js';
import {
  childOf,
  configsOf,
  diskRef,
  freeSpace,
  instanceFor,
  noteEvent,
  presentDisk,
  readBody,
  scheduleSettle,
  startEvent,
  type DiskRecord,
  type InstanceRecord,
} from './instance-common.js';
import { checkDeployment, countDeployment } from './instance-deploy.js';

const FILTERABLE = filterFields(filterableFields(Disk));

const DISK_SECONDS = 3;
const IMAGE_DISK_SECONDS = 8;
const DUPLICATE_SECONDS = 5;

/** A new disk is `not ready` until its job is done. */
function addDisk(ctx: Ctx, vm: InstanceRecord, fields: Pick<DiskRecord, 'label' | 'size' | 'filesystem'> & { readOnly?: boolean }, action: string, seconds: number) {
  const disk = insertDisk(ctx.store, vm.id, { ...fields, status: 'not ready', created: ctx.store.clock.iso() });
  const eventId = startEvent(ctx, action, vm, { secondary: diskRef(vm, disk) });
  scheduleSettle(ctx.sim, { vm_id: vm.id, disks: [disk.id], event_id: eventId }, seconds);
  return disk;
}

const noRoom = (size: number, free: number) => `Not enough storage: ${size} MB asked, ${free} MB of the plan's disk is free`;

function createDisk(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const { value: body, errors } = readBody(ctx, DiskCreate, 'create');
  const { image, script } = checkDeployment(ctx, body, errors);
  const size = body.size as number | undefined;
  const free = freeSpace(ctx.store, vm);
  if (size !== undefined && size > free) errors.push({ field: 'size', reason: noRoom(size, free) });
  if (size !== undefined && image && size < image.size) errors.push({ field: 'size', reason: `${image.id} needs a disk of at least ${image.size} MB` });
  assertValid(errors);
  const disk = addDisk(
    ctx,
    vm,
    { label: body.label as string, size: size!, filesystem: (body.filesystem as string | undefined) ?? 'ext4', readOnly: body.read_only === true },
    'disk_create',
    image ? IMAGE_DISK_SECONDS : DISK_SECONDS,
  );
  countDeployment(ctx, script);
  return presentDisk(disk);
}

function updateDisk(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const disk = childOf<DiskRecord>(ctx, 'disk', vm, ctx.params.diskId, 'Disk');
  const body = bodyFor(ctx, Disk, 'update', disk);
  const updated = ctx.store.put<DiskRecord>('disk', disk.id, { ...disk, ...body, updated: ctx.store.clock.iso() });
  noteEvent(ctx, 'disk_update', vm, { secondary: diskRef(vm, updated) });
  return presentDisk(updated);
}

/** A deleted disk leaves empty slots in the configs that used it. */
function deleteDisk(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  const disk = childOf<DiskRecord>(ctx, 'disk', vm, ctx.params.diskId, 'Disk');
  for (const config of configsOf(ctx.store, vm.id)) {
    const uses = DEVICE_SLOTS.filter((slot) => config.devices[slot]?.disk_id === disk.id);
    if (uses.length === 0) continue;
    const devices = { ...config.devices };
    for (const slot of uses) devices[slot] = null;
    ctx.store.put('config', config.id, { ...config, devices });
  }
  ctx.store.delete('disk', disk.id);
  noteEvent(ctx, 'disk_delete', vm, { secondary: diskRef(vm, disk) });
}

/** Byte-for-byte copy into a new disk of the same size, if the plan has room. */
function cloneDisk(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const disk = childOf<DiskRecord>(ctx, 'disk', vm, ctx.params.diskId, 'Disk');
  bodyFor(ctx, EmptyRequest, 'create');
  if (disk.status !== 'ready') throw badRequest(`Disk ${disk.id} is ${disk.status}; wait until it is ready`);
  const free = freeSpace(ctx.store, vm);
  if (disk.size > free) throw badRequest(noRoom(disk.size, free));
  const copy = addDisk(ctx, vm, { label: `${disk.label} (copy)`.slice(0, 48), size: disk.size, filesystem: disk.filesystem }, 'disk_duplicate', DUPLICATE_SECONDS);
  return presentDisk(copy);
}

/** Disks: create (optionally from an image), label/filesystem update, delete, clone. */
export function diskRoutes(r: Router): void {
  r.get('/vm/instances/{vmId}/disks', 'vms:read_only', (ctx) =>
    listPage(ctx, 'disk', { parent: String(instanceFor(ctx, 'read_only').id), filterable: FILTERABLE, present: presentDisk }),
  );
  r.post('/vm/instances/{vmId}/disks', 'vms:read_write', createDisk);
  r.get('/vm/instances/{vmId}/disks/{diskId}', 'vms:read_only', (ctx) =>
    presentDisk(childOf(ctx, 'disk', instanceFor(ctx, 'read_only'), ctx.params.diskId, 'Disk')),
  );
  r.put('/vm/instances/{vmId}/disks/{diskId}', 'vms:read_write', updateDisk);
  r.delete('/vm/instances/{vmId}/disks/{diskId}', 'vms:read_write', deleteDisk);
  r.post('/vm/instances/{vmId}/disks/{diskId}/clone', 'vms:read_write', cloneDisk);
}
