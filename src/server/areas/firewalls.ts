import { Firewall, FirewallDevice, FirewallDeviceCreate, FirewallRules, MAX_ACTIVE_FIREWALLS } from '../../model/firewalls.js';
import { filterableFields, present, validate } from '../../model/schema.js';
import { grantFilter, requireAccountAccess, requireUnrestricted, visibleTo } from '../auth.js';
import { assertValid, badRequest, notFound } from '../errors.js';
import { emitEvent, type EntityRef } from '../events.js';
import { filterFields } from '../filter.js';
import { onInstanceDeleted } from '../hooks.js';
import { bodyFor, defineArea, listPage, mustGet, readingOf, type Ctx } from '../route.js';
import type { Store } from '../store.js';
import { registerTags } from '../tagging.js';
import { instanceRef, vmEntity, type VmRecord } from './vm-refs.js';

interface Ruleset {
  inbound: unknown[];
  outbound: unknown[];
}

export interface FirewallRecord extends Record<string, unknown> {
  id: number;
  label: string;
  created: string;
  updated: string;
  status: 'enabled' | 'disabled';
  rules: Ruleset;
  tags: string[];
}

/** Kind firewall_device, parent = the firewall id. */
interface DeviceRecord extends Record<string, unknown> {
  id: number;
  created: string;
  updated: string;
  entity: EntityRef & { id: number };
  _firewall_id: number;
}

const firewallUrl = (id: number) => `/v4beta/networking/firewalls/${id}`;
const FIREWALL_FILTERS = filterFields(filterableFields(Firewall), ['tags']);
const DEVICE_FILTERS = filterFields(filterableFields(FirewallDevice));


function firewallEvent(store: Store, fw: FirewallRecord, action: string, username: string, instance?: EntityRef): void {
  emitEvent(store, {
    action,
    entity: { id: fw.id, label: fw.label, type: 'firewall', url: firewallUrl(fw.id) },
    secondary_entity: instance ?? null,
    username,
  });
}

/** Enabled firewalls protecting an instance, leaving out one firewall (the one being changed). */
function activeFirewallsOn(store: Store, vmId: number, except?: number): number {
  const ids = new Set(
    store
      .all<DeviceRecord>('firewall_device')
      .filter((d) => d.entity.id === vmId && d._firewall_id !== except)
      .map((d) => d._firewall_id),
  );
  return [...ids].filter((id) => store.get<FirewallRecord>('firewall', id)?.status === 'enabled').length;
}

const tooManyActive = (vm: VmRecord) =>
  `instance ${vm.label} (${vm.id}) already has ${MAX_ACTIVE_FIREWALLS} active firewalls; disable one of them first, or assign this firewall while it is disabled`;

const ruleset = (rules: Record<string, unknown>): Ruleset => ({
  inbound: rules.inbound as unknown[],
  outbound: (rules.outbound as unknown[] | undefined) ?? [],
});

function defaultLabel(store: Store, id: number): string {
  const taken = new Set(store.all<FirewallRecord>('firewall').map((f) => f.label));
  let label = `firewall-${id}`;
  for (let n = 2; taken.has(label); n++) label = `firewall-${id}-${n}`;
  return label;
}

/** Creates a firewall (enabled, per the seed) and records firewall_create. */
export function insertFirewall(store: Store, fields: { label?: string; rules: Record<string, unknown>; tags?: string[] }, username: string): FirewallRecord {
  const id = store.nextId('firewall');
  const created = store.clock.iso();
  const fw: FirewallRecord = {
    id,
    label: fields.label ?? defaultLabel(store, id),
    created,
    updated: created,
    status: 'enabled',
    rules: ruleset(fields.rules),
    tags: fields.tags ?? [],
  };
  store.insert('firewall', id, fw);
  registerTags(store, fw.tags);
  firewallEvent(store, fw, 'firewall_create', username);
  return fw;
}

/** Saves an update; a status change records firewall_enable or firewall_disable. */
export function saveFirewall(store: Store, before: FirewallRecord, after: FirewallRecord, username: string): FirewallRecord {
  const saved = { ...after, updated: store.clock.iso() };
  store.put('firewall', saved.id, saved);
  registerTags(store, saved.tags);
  if (saved.status !== before.status) firewallEvent(store, saved, saved.status === 'enabled' ? 'firewall_enable' : 'firewall_disable', username);
  return saved;
}

export function addDevice(store: Store, fw: FirewallRecord, vm: VmRecord, username: string): DeviceRecord {
  const id = store.nextId('firewall_device');
  const created = store.clock.iso();
  const device: DeviceRecord = { id, created, updated: created, entity: vmEntity(vm), _firewall_id: fw.id };
  store.insert('firewall_device', id, device, { parent: String(fw.id) });
  firewallEvent(store, fw, 'firewall_device_add', username, device.entity);
  return device;
}

function removeDevice(store: Store, fw: FirewallRecord, device: DeviceRecord, username: string): void {
  store.delete('firewall_device', device.id);
  firewallEvent(store, fw, 'firewall_device_remove', username, device.entity);
}

/** The entity label follows the instance's current label. */
function presentDevice(store: Store, device: DeviceRecord) {
  const vm = store.get<VmRecord>('vm', device.entity.id);
  return present(FirewallDevice, { ...device, entity: { ...device.entity, label: vm?.label ?? device.entity.label } });
}

const username = (ctx: Ctx) => ctx.auth!.user.username;

const firewallOf = (ctx: Ctx) => mustGet<FirewallRecord>(ctx, 'firewall', ctx.params.firewallId!, 'Firewall not found');

/** A device of this firewall whose instance the caller may see. */
function deviceOf(ctx: Ctx, fw: FirewallRecord): DeviceRecord {
  const device = ctx.store.get<DeviceRecord>('firewall_device', ctx.params.deviceId!);
  if (!device || device._firewall_id !== fw.id || !visibleTo(ctx.auth, 'vm', device.entity.id)) throw notFound('Firewall device not found');
  return device;
}

/** Only unrestricted users may add or change tags. */
function checkTagChange(ctx: Ctx, tags: unknown, current: string[] = []): void {
  if (Array.isArray(tags) && JSON.stringify(tags) !== JSON.stringify(current)) requireUnrestricted(ctx.auth, 'add or change tags');
}

function createFirewall(ctx: Ctx) {
  requireAccountAccess(ctx.auth, 'read_write');
  const { value: body, errors } = validate(Firewall, ctx.body ?? {}, readingOf(ctx, 'create'));
  const vmIds = (body.devices as { vms?: number[] } | undefined)?.vms ?? [];
  // Device problems join the body's, so one answer lists every problem.
  const vms = vmIds.flatMap((id, i) => {
    if (vmIds.indexOf(id) < i) return [];
    const vm = instanceRef(ctx, id, 'read_only');
    if (!vm) errors.push({ field: `devices.vms.${i}`, reason: `instance ${id} not found` });
    else if (activeFirewallsOn(ctx.store, id) >= MAX_ACTIVE_FIREWALLS) errors.push({ field: `devices.vms.${i}`, reason: tooManyActive(vm) });
    return vm ? [vm] : [];
  });
  assertValid(errors);
  checkTagChange(ctx, body.tags);

  const fw = insertFirewall(
    ctx.store,
    { label: body.label as string | undefined, rules: body.rules as Record<string, unknown>, tags: body.tags as string[] | undefined },
    username(ctx),
  );
  for (const vm of vms) addDevice(ctx.store, fw, vm, username(ctx));
  return present(Firewall, fw);
}

/** Devices and rules have their own endpoints; the update says where to go. */
const ELSEWHERE: Record<string, string> = {
  rules: 'rules cannot be changed here; use PUT /networking/firewalls/{firewallId}/rules',
  devices: 'devices cannot be changed here; use the /networking/firewalls/{firewallId}/devices endpoints',
};

function updateFirewall(ctx: Ctx) {
  requireAccountAccess(ctx.auth, 'read_write');
  const fw = firewallOf(ctx);
  const { value, errors } = validate(Firewall, ctx.body ?? {}, readingOf(ctx, 'update'));
  assertValid(errors.map((e) => (e.field && ELSEWHERE[e.field] ? { field: e.field, reason: ELSEWHERE[e.field]! } : e)));
  checkTagChange(ctx, value.tags, fw.tags);

  const status = (value.status as FirewallRecord['status'] | undefined) ?? fw.status;
  if (status === 'enabled' && fw.status === 'disabled') {
    const crowded = ctx.store
      .all<DeviceRecord>('firewall_device', String(fw.id))
      .filter((d) => activeFirewallsOn(ctx.store, d.entity.id, fw.id) >= MAX_ACTIVE_FIREWALLS)
      .map((d) => presentDevice(ctx.store, d).entity as EntityRef);
    if (crowded.length > 0) {
      const names = crowded.map((e) => `instance ${e.label} (${e.id})`).join(', ');
      throw badRequest(`cannot enable: ${names} already has ${MAX_ACTIVE_FIREWALLS} other active firewalls`, 'status');
    }
  }
  const updated = saveFirewall(
    ctx.store,
    fw,
    { ...fw, label: (value.label as string | undefined) ?? fw.label, tags: (value.tags as string[] | undefined) ?? fw.tags, status },
    username(ctx),
  );
  return present(Firewall, updated);
}

function createDevice(ctx: Ctx) {
  requireAccountAccess(ctx.auth, 'read_write');
  const fw = firewallOf(ctx);
  const body = bodyFor(ctx, FirewallDeviceCreate, 'create');
  const vmId = body.id as number;
  const vm = instanceRef(ctx, vmId, 'read_only');
  if (!vm) throw badRequest(`instance ${vmId} not found`, 'id');
  if (ctx.store.all<DeviceRecord>('firewall_device', String(fw.id)).some((d) => d.entity.id === vmId)) {
    throw badRequest(`instance ${vm.label} (${vmId}) is already a device of this firewall`, 'id');
  }
  if (fw.status === 'enabled' && activeFirewallsOn(ctx.store, vmId) >= MAX_ACTIVE_FIREWALLS) throw badRequest(tooManyActive(vm), 'id');
  return presentDevice(ctx.store, addDevice(ctx.store, fw, vm, username(ctx)));
}

/** Deleting an instance removes it from every firewall that protected it. */
onInstanceDeleted((store, vmId) => {
  for (const device of store.all<DeviceRecord>('firewall_device').filter((d) => d.entity.id === vmId)) {
    const fw = store.get<FirewallRecord>('firewall', device._firewall_id);
    if (fw) removeDevice(store, fw, device, 'system');
  }
});

/** Cloud firewalls (the seed's beta root; the base root too, as in later releases, unless --strict): account-level, so restricted users need account access. */
export default defineArea(
  'firewalls',
  (r) => {
    r.get('/networking/firewalls', 'firewall:read_only', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_only');
      return listPage<FirewallRecord>(ctx, 'firewall', { filterable: FIREWALL_FILTERS, present: (row) => present(Firewall, row) });
    });
    r.post('/networking/firewalls', 'firewall:read_write', createFirewall);
    r.get('/networking/firewalls/{firewallId}', 'firewall:read_only', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_only');
      return present(Firewall, firewallOf(ctx));
    });
    r.put('/networking/firewalls/{firewallId}', 'firewall:read_write', updateFirewall);
    r.delete('/networking/firewalls/{firewallId}', 'firewall:read_write', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_write');
      const fw = firewallOf(ctx);
      // Deleted is terminal: the firewall and its devices go, so its rules no longer apply anywhere.
      ctx.store.deleteChildren('firewall_device', String(fw.id));
      ctx.store.delete('firewall', fw.id);
      firewallEvent(ctx.store, fw, 'firewall_delete', username(ctx));
    });

    r.get('/networking/firewalls/{firewallId}/devices', 'firewall:read_only', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_only');
      const fw = firewallOf(ctx);
      return listPage<DeviceRecord>(ctx, 'firewall_device', {
        parent: String(fw.id),
        filterable: DEVICE_FILTERS,
        restrict: grantFilter(ctx.auth, 'vm', '$.entity.id'),
        present: (row) => presentDevice(ctx.store, row),
      });
    });
    r.post('/networking/firewalls/{firewallId}/devices', 'firewall:read_write', createDevice);
    r.get('/networking/firewalls/{firewallId}/devices/{deviceId}', 'firewall:read_only', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_only');
      return presentDevice(ctx.store, deviceOf(ctx, firewallOf(ctx)));
    });
    r.delete('/networking/firewalls/{firewallId}/devices/{deviceId}', 'firewall:read_write', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_write');
      const fw = firewallOf(ctx);
      removeDevice(ctx.store, fw, deviceOf(ctx, fw), username(ctx));
    });

    r.get('/networking/firewalls/{firewallId}/rules', 'firewall:read_only', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_only');
      return firewallOf(ctx).rules;
    });
    r.put('/networking/firewalls/{firewallId}/rules', 'firewall:read_write', (ctx) => {
      requireAccountAccess(ctx.auth, 'read_write');
      const fw = firewallOf(ctx);
      const rules = ruleset(bodyFor(ctx, FirewallRules, 'create'));
      ctx.store.put('firewall', fw.id, { ...fw, rules, updated: ctx.store.clock.iso() });
      return rules;
    });
  },
  { betaRoot: true },
);
