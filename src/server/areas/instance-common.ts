import { Backup } from '../../model/instance-backups.js';
import { Config, type Devices, type Helpers } from '../../model/instance-configs.js';
import { Disk, type DiskStatus } from '../../model/instance-disks.js';
import { Instance, SETTLED_STATUSES, type Alerts, type InstanceStatus } from '../../model/instances.js';
import { present, validate, type FieldError, type Mode, type ResourceSchema } from '../../model/schema.js';
import { requireEntity, type Level } from '../auth.js';
import { badRequest, notFound } from '../errors.js';
import { emitEvent, finishEvent, type EntityRef } from '../events.js';
import { ipv4List } from '../ipam.js';
import { readingOf, type Ctx } from '../route.js';
import { onJob, type Job, type Simulation } from '../sim.js';
import type { Row, Store } from '../store.js';
import { instanceRef, instanceUrl, vmEntity } from './vm-refs.js';

/** First ids handed out per kind, so instance, disk, config and backup ids never look alike. */
export const FIRST_ID = { vm: 41001, disk: 70001, config: 52001, backup: 90001 } as const;

export interface Specs extends Row {
  disk: number;
  memory: number;
  vcpus: number;
  transfer: number;
}

export interface BackupsState extends Row {
  enabled: boolean;
  schedule: { day: string | null; window: string | null };
  last_successful: string | null;
}

/** A stored instance: response-shapes §3.1 Instance (ipv4 comes from the address records) plus internal state. */
export interface InstanceRecord extends Row {
  id: number;
  label: string;
  group: string;
  status: InstanceStatus;
  created: string;
  updated: string;
  type: string;
  ipv6: string | null;
  image: string | null;
  region: string;
  specs: Specs;
  alerts: Alerts;
  backups: BackupsState;
  hypervisor: 'kvm';
  watchdog_enabled: boolean;
  tags: string[];
  /** The config booted last: the boot selection rule falls back to it. */
  _last_config: number | null;
  /** When recent boot jobs were issued (ms), for the watchdog's loop limit. */
  _boots: number[];
}

export interface DiskRecord extends Row {
  id: number;
  label: string;
  status: DiskStatus;
  size: number;
  filesystem: string;
  created: string;
  updated: string;
  _read_only?: boolean;
}

/** A boot config's stored fields; a type alias so Omit and Pick keep them. */
export type ConfigFields = {
  label: string;
  kernel: string;
  comments: string | null;
  memory_limit: number;
  run_level: string;
  virt_mode: string;
  helpers: Helpers;
  devices: Devices;
  root_device: string;
};

export type ConfigRecord = { id: number } & ConfigFields;

export interface LayoutDisk {
  label: string;
  size: number;
  filesystem: string;
}

/** A config as a backup or clone carries it: devices point at positions in the layout's disks. */
export type LayoutConfig = Omit<ConfigFields, 'devices'> & { devices: Record<string, number | null> };

/** Disks and configs as a backup holds them, or as a clone copies them. */
export interface Layout {
  disks: LayoutDisk[];
  configs: LayoutConfig[];
}

export interface BackupRecord extends Row {
  id: number;
  type: 'auto' | 'snapshot';
  status: string;
  created: string;
  updated: string;
  finished: string | null;
  label: string | null;
  configs: string[];
  disks: LayoutDisk[];
  _layout: Layout;
}

export const presentInstance = (store: Store, vm: InstanceRecord) => present(Instance, { ...vm, ipv4: ipv4List(store, vm.id) });
export const presentDisk = (disk: Row) => present(Disk, disk);
export const presentConfig = (config: Row) => present(Config, config);
export const presentBackup = (backup: Row) => present(Backup, backup);

/** Validates a body without throwing, so handlers can add what only the store can tell and report everything at once. */
export function readBody(ctx: Ctx, schema: ResourceSchema, mode: Mode, current?: Row) {
  return validate(schema, ctx.body ?? {}, readingOf(ctx, mode, current));
}

/** The instance a path names, with the caller's grant checked (ungranted: 404; read-only where a write is needed: 403). */
export function instanceFor(ctx: Ctx, level: Level): InstanceRecord {
  const id = Number(ctx.params.vmId);
  requireEntity(ctx.auth, 'vm', id, level, 'Instance not found');
  const vm = ctx.store.get<InstanceRecord>('vm', id);
  if (!vm) throw notFound('Instance not found');
  return vm;
}

/** An instance a body field names (a clone or restore target); missing or invisible ones are reported on the field. */
export function targetInstance(ctx: Ctx, id: unknown, field: string, errors: FieldError[]): InstanceRecord | undefined {
  if (typeof id !== 'number') return undefined;
  if (instanceRef(ctx, id, 'read_write')) return ctx.store.get<InstanceRecord>('vm', id);
  errors.push({ field, reason: `Instance ${id} not found` });
  return undefined;
}

/** A disk, config or backup of the instance; another instance's is as missing as an unknown one. */
export function childOf<T extends Row>(ctx: Ctx, kind: string, vm: InstanceRecord, id: string | undefined, what: string): T {
  const row = ctx.store.get<T>(kind, id ?? '');
  if (!row || ctx.store.parentOf(kind, id ?? '') !== String(vm.id)) throw notFound(`${what} not found`);
  return row;
}

export const disksOf = (store: Store, vmId: number) => store.all<DiskRecord>('disk', String(vmId));
export const configsOf = (store: Store, vmId: number) => store.all<ConfigRecord>('config', String(vmId));
export const backupsOf = (store: Store, vmId: number) => store.all<BackupRecord>('backup', String(vmId));

/** MB of the plan's disk not yet given to a disk. */
export const freeSpace = (store: Store, vm: InstanceRecord) => vm.specs.disk - disksOf(store, vm.id).reduce((sum, d) => sum + d.size, 0);

export const sizeOf = (disks: readonly { size: number }[]) => disks.reduce((sum, d) => sum + d.size, 0);

export const diskRef = (vm: InstanceRecord, disk: DiskRecord): EntityRef => ({
  id: disk.id,
  label: disk.label,
  type: 'disks',
  url: `${instanceUrl(vm.id)}/disks/${disk.id}`,
});

export const configRef = (vm: InstanceRecord, config: ConfigRecord): EntityRef => ({
  id: config.id,
  label: config.label,
  type: 'vm_config',
  url: `${instanceUrl(vm.id)}/configs/${config.id}`,
});

interface EventOptions {
  entity?: EntityRef;
  secondary?: EntityRef | null;
}

/** Starts an account event about an instance; a job finishes it. */
export function startEvent(ctx: Ctx, action: string, vm: InstanceRecord, opts: EventOptions = {}): number {
  return emitEvent(ctx.store, {
    action,
    status: 'started',
    entity: opts.entity ?? vmEntity(vm),
    secondary_entity: opts.secondary ?? null,
    username: ctx.auth?.user.username,
  }).id;
}

/** An event for an operation that completes within the request. */
export function noteEvent(ctx: Ctx, action: string, vm: InstanceRecord, opts: EventOptions = {}): void {
  finishEvent(ctx.store, startEvent(ctx, action, vm, opts));
}

// ---- jobs ----

/** Ends an action: the listed disks become ready, the instance moves on, the event finishes. */
export const SETTLE = 'vm.settle';

export interface SettlePayload extends Record<string, unknown> {
  vm_id: number;
  /** Status while the action runs; the move to `to` happens only if nothing changed it since. */
  from?: InstanceStatus;
  to?: InstanceStatus;
  disks?: number[];
  event_id?: number;
  /** Set on clones: counts toward the source's concurrent clones. */
  clone_source?: number;
}

export function markDisksReady(store: Store, ids: readonly number[] = []): void {
  for (const id of ids) {
    const disk = store.get<DiskRecord>('disk', id);
    if (disk?.status === 'not ready') store.put('disk', id, { ...disk, status: 'ready', updated: store.clock.iso() });
  }
}

onJob(SETTLE, (store, payload) => {
  const p = payload as SettlePayload;
  markDisksReady(store, p.disks);
  const vm = store.get<InstanceRecord>('vm', p.vm_id);
  if (vm && p.to && vm.status === p.from) store.put('vm', vm.id, { ...vm, status: p.to, updated: store.clock.iso() });
  if (p.event_id !== undefined) finishEvent(store, p.event_id, vm ? 'finished' : 'failed');
});

/** Job types that are actions on an instance: while one is queued, the instance is busy. */
const ACTION_JOBS = new Set<string>([SETTLE]);

export function registerActionJob(type: string): void {
  ACTION_JOBS.add(type);
}

const jobsOf = (store: Store) => store.all<Job & Row>('job');

export const pendingActions = (store: Store, vmId: number) => jobsOf(store).filter((j) => ACTION_JOBS.has(j.type) && j.payload.vm_id === vmId);

export const clonesInProgress = (store: Store, sourceId: number) => jobsOf(store).filter((j) => j.type === SETTLE && j.payload.clone_source === sourceId).length;

/** Upstream: actions running or queued on an instance must finish before another starts. */
export function assertIdle(store: Store, vm: InstanceRecord): void {
  if (!SETTLED_STATUSES.includes(vm.status) || pendingActions(store, vm.id).length > 0) {
    throw badRequest(`Instance ${vm.label} is busy (${vm.status}); wait for the running action to finish`);
  }
}

interface ActionOptions extends EventOptions {
  /** Status while the action runs. */
  status: InstanceStatus;
  /** Status when it is done. */
  to: InstanceStatus;
  action: string;
  /** Duration at realistic speed. */
  seconds: number;
  patch?: Partial<InstanceRecord>;
  disks?: number[];
  cloneSource?: number;
}

/** Puts an instance into a transitional status, records the event and schedules the end of the action. */
export function startAction(ctx: Ctx, vm: InstanceRecord, opts: ActionOptions): InstanceRecord {
  const updated = ctx.store.put<InstanceRecord>('vm', vm.id, { ...vm, ...opts.patch, status: opts.status, updated: ctx.store.clock.iso() });
  const eventId = startEvent(ctx, opts.action, vm, opts);
  scheduleSettle(ctx.sim, { vm_id: vm.id, from: opts.status, to: opts.to, disks: opts.disks, event_id: eventId, clone_source: opts.cloneSource }, opts.seconds);
  return updated;
}

export function scheduleSettle(sim: Simulation, payload: SettlePayload, seconds: number): void {
  const clean = Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined));
  sim.schedule(SETTLE, clean, seconds);
}
