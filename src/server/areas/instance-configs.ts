import { Config, DEVICE_SLOTS, normalizeDevices, rootDevice } from '../../model/instance-configs.js';
import { filterableFields, type FieldError } from '../../model/schema.js';
import { assertValid } from '../errors.js';
import { filterFields } from '../filter.js';
import { listPage, type Ctx, type Router } from '../route.js';
import { configDefaults, insertConfig } from './instance-build.js';
import {
  childOf,
  configRef,
  disksOf,
  instanceFor,
  noteEvent,
  presentConfig,
  readBody,
  type ConfigFields,
  type ConfigRecord,
  type InstanceRecord,
} from './instance-common.js';

const FILTERABLE = filterFields(filterableFields(Config));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What only the store can tell: each disk is this instance's and used once,
 * volumes exist, memory fits the plan. Reads the raw body, so these are
 * reported alongside the schema's own problems with the same fields.
 */
function storeErrors(ctx: Ctx, vm: InstanceRecord): FieldError[] {
  const errors: FieldError[] = [];
  const body = isObject(ctx.body) ? ctx.body : {};
  const devices = isObject(body.devices) ? body.devices : {};
  const mine = new Set(disksOf(ctx.store, vm.id).map((d) => d.id));
  const seen = new Map<number, string>();
  for (const slot of DEVICE_SLOTS) {
    const device = devices[slot];
    if (!isObject(device)) continue;
    const { disk_id: diskId, volume_id: volumeId } = device;
    if (typeof diskId === 'number') {
      if (!mine.has(diskId)) errors.push({ field: `devices.${slot}.disk_id`, reason: `Disk ${diskId} is not a disk of this instance` });
      else if (seen.has(diskId)) errors.push({ field: `devices.${slot}.disk_id`, reason: `Disk ${diskId} is already in ${seen.get(diskId)}` });
      seen.set(diskId, slot);
    }
    if (typeof volumeId === 'number' && !ctx.store.get('volume', volumeId)) {
      errors.push({ field: `devices.${slot}.volume_id`, reason: `Volume ${volumeId} not found` });
    }
  }
  if (typeof body.memory_limit === 'number' && body.memory_limit > vm.specs.memory) {
    errors.push({ field: 'memory_limit', reason: `memory_limit must be at most ${vm.specs.memory} (the plan's memory)` });
  }
  return errors;
}

/** The stored config a valid body makes, over the current one or the defaults. */
function configFrom(body: Record<string, unknown>, base: Omit<ConfigFields, 'label' | 'devices'>): ConfigFields {
  const pick = <K extends keyof typeof base & string>(key: K) => (body[key] === undefined ? base[key] : (body[key] as (typeof base)[K]));
  return {
    label: body.label as string,
    kernel: pick('kernel'),
    comments: pick('comments'),
    memory_limit: pick('memory_limit'),
    run_level: pick('run_level'),
    virt_mode: pick('virt_mode'),
    helpers: { ...base.helpers, ...(body.helpers as object | undefined) },
    devices: normalizeDevices(body.devices as Record<string, unknown>),
    root_device: body.root_device === undefined ? base.root_device : rootDevice(body.root_device),
  };
}

function createConfig(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const { value: body, errors } = readBody(ctx, Config, 'create');
  errors.push(...storeErrors(ctx, vm));
  assertValid(errors);
  const config = insertConfig(ctx.store, vm.id, configFrom(body, configDefaults(vm.specs.memory)));
  noteEvent(ctx, 'vm_config_create', vm, { secondary: configRef(vm, config) });
  return presentConfig(config);
}

function updateConfig(ctx: Ctx): unknown {
  const vm = instanceFor(ctx, 'read_write');
  const config = childOf<ConfigRecord>(ctx, 'config', vm, ctx.params.configId, 'Config');
  const { value: body, errors } = readBody(ctx, Config, 'update', config);
  errors.push(...storeErrors(ctx, vm));
  assertValid(errors);
  const updated = ctx.store.put<ConfigRecord>('config', config.id, { id: config.id, ...configFrom(body, config) });
  noteEvent(ctx, 'vm_config_update', vm, { secondary: configRef(vm, updated) });
  return presentConfig(updated);
}

function deleteConfig(ctx: Ctx): void {
  const vm = instanceFor(ctx, 'read_write');
  const config = childOf<ConfigRecord>(ctx, 'config', vm, ctx.params.configId, 'Config');
  ctx.store.delete('config', config.id);
  noteEvent(ctx, 'vm_config_delete', vm, { secondary: configRef(vm, config) });
}

/** Boot configs: the Boot Config table, label and devices required on create and update. */
export function configRoutes(r: Router): void {
  r.get('/vm/instances/{vmId}/configs', 'vms:read_only', (ctx) =>
    listPage(ctx, 'config', { parent: String(instanceFor(ctx, 'read_only').id), filterable: FILTERABLE, present: presentConfig }),
  );
  r.post('/vm/instances/{vmId}/configs', 'vms:read_write', createConfig);
  r.get('/vm/instances/{vmId}/configs/{configId}', 'vms:read_only', (ctx) =>
    presentConfig(childOf(ctx, 'config', instanceFor(ctx, 'read_only'), ctx.params.configId, 'Config')),
  );
  r.put('/vm/instances/{vmId}/configs/{configId}', 'vms:read_write', updateConfig);
  r.delete('/vm/instances/{vmId}/configs/{configId}', 'vms:read_write', deleteConfig);
}
