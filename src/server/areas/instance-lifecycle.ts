import { BootRequest, EmptyRequest } from '../../model/instance-actions.js';
import { badRequest } from '../errors.js';
import { bodyFor, type Ctx, type Router } from '../route.js';
import { onJob, type Simulation } from '../sim.js';
import { emitEvent, finishEvent } from '../events.js';
import { vmEntity } from './vm-refs.js';
import type { Store } from '../store.js';
import {
  assertIdle,
  configsOf,
  instanceFor,
  markDisksReady,
  registerActionJob,
  scheduleSettle,
  startAction,
  startEvent,
  type ConfigRecord,
  type InstanceRecord,
} from './instance-common.js';

const BOOT_SECONDS = 5;
const REBOOT_SECONDS = 6;
const SHUTDOWN_SECONDS = 4;

/** The watchdog gives up after more than 5 boot jobs in 15 minutes. */
const WATCHDOG_WINDOW_MS = 15 * 60 * 1000;
const WATCHDOG_MAX_BOOTS = 5;

const recentBoots = (vm: InstanceRecord, now: number) => (vm._boots ?? []).filter((t) => now - t < WATCHDOG_WINDOW_MS);

/**
 * The config to boot: the one asked for; else the only one; else the last
 * booted one; else (several, none booted last) an error, as is having none.
 */
function pickConfig(store: Store, vm: InstanceRecord, configId: unknown): ConfigRecord {
  const configs = configsOf(store, vm.id);
  if (typeof configId === 'number') {
    const chosen = configs.find((c) => c.id === configId);
    if (!chosen) throw badRequest(`Config ${configId} is not a config of this instance`, 'config_id');
    return chosen;
  }
  if (configs.length === 0) throw badRequest('This instance has no config to boot; create a config first');
  if (configs.length === 1) return configs[0]!;
  const last = configs.find((c) => c.id === vm._last_config);
  if (last) return last;
  throw badRequest('This instance has several configs and none was booted last; choose one with config_id', 'config_id');
}

/** A boot loop guard: with the watchdog on, a sixth boot job within 15 minutes is refused. */
function assertWatchdogAllows(store: Store, vm: InstanceRecord): void {
  if (vm.watchdog_enabled && recentBoots(vm, store.clock.now()).length >= WATCHDOG_MAX_BOOTS) {
    throw badRequest(
      `More than ${WATCHDOG_MAX_BOOTS} boot jobs in 15 minutes: the watchdog gives up on this instance. Wait, or set watchdog_enabled to false`,
    );
  }
}

/** Starts a boot (or reboot) into a config: records it as the last booted and as a boot job, then runs. */
export function bootInto(store: Store, sim: Simulation, vm: InstanceRecord, configId: number, eventId: number, status: 'booting' | 'rebooting' = 'booting'): void {
  const now = store.clock.now();
  store.put<InstanceRecord>('vm', vm.id, { ...vm, status, _last_config: configId, _boots: [...recentBoots(vm, now), now], updated: store.clock.iso() });
  scheduleSettle(sim, { vm_id: vm.id, from: status, to: 'running', event_id: eventId }, status === 'booting' ? BOOT_SECONDS : REBOOT_SECONDS);
}

const PROVISION_SECONDS = 8;

/** Provisioning done: disks are ready; the instance boots (when asked and it has a config) or stays offline. */
const PROVISIONED = 'vm.provisioned';
registerActionJob(PROVISIONED);

export interface ProvisioningPayload extends Record<string, unknown> {
  vm_id: number;
  event_id: number;
  disks: number[];
  boot_config: number | null;
  username: string;
}

export function scheduleProvisioning(sim: Simulation, payload: ProvisioningPayload): void {
  sim.schedule(PROVISIONED, payload, PROVISION_SECONDS);
}

onJob(PROVISIONED, (store, payload, sim) => {
  const p = payload as ProvisioningPayload;
  markDisksReady(store, p.disks);
  const vm = store.get<InstanceRecord>('vm', p.vm_id);
  finishEvent(store, p.event_id, vm ? 'finished' : 'failed');
  if (!vm || vm.status !== 'provisioning') return;
  if (p.boot_config !== null) {
    const event = emitEvent(store, { action: 'vm_boot', status: 'started', entity: vmEntity(vm), username: p.username });
    bootInto(store, sim, vm, p.boot_config, event.id);
  } else {
    store.put('vm', vm.id, { ...vm, status: 'offline', updated: store.clock.iso() });
  }
});

function boot(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  const body = bodyFor(ctx, BootRequest, 'create');
  assertIdle(ctx.store, vm);
  if (vm.status === 'running') throw badRequest(`Instance ${vm.label} is already running`);
  const config = pickConfig(ctx.store, vm, body.config_id);
  assertWatchdogAllows(ctx.store, vm);
  bootInto(ctx.store, ctx.sim, vm, config.id, startEvent(ctx, 'vm_boot', vm));
}

function reboot(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  const body = bodyFor(ctx, BootRequest, 'create');
  assertIdle(ctx.store, vm);
  const config = pickConfig(ctx.store, vm, body.config_id);
  assertWatchdogAllows(ctx.store, vm);
  bootInto(ctx.store, ctx.sim, vm, config.id, startEvent(ctx, 'vm_reboot', vm), 'rebooting');
}

function shutdown(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  bodyFor(ctx, EmptyRequest, 'create');
  assertIdle(ctx.store, vm);
  if (vm.status !== 'running') throw badRequest(`Instance ${vm.label} is not running`);
  startAction(ctx, vm, { status: 'shutting_down', to: 'offline', action: 'vm_shutdown', seconds: SHUTDOWN_SECONDS });
}

/** Boot, reboot and shutdown: each a job that moves the instance through a transitional status. */
export function lifecycleRoutes(r: Router): void {
  r.post('/vm/instances/{vmId}/boot', 'vms:read_write', boot);
  r.post('/vm/instances/{vmId}/reboot', 'vms:read_write', reboot);
  r.post('/vm/instances/{vmId}/shutdown', 'vms:read_write', shutdown);
}
