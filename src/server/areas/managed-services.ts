import { ManagedService, ManagedVMSettings } from '../../model/managed.js';
import { entityUrl } from '../../model/events.js';
import { present, type FieldError } from '../../model/schema.js';
import { grantFilter, requireEntity } from '../auth.js';
import { emitEvent } from '../events.js';
import { onInstanceDeleted } from '../hooks.js';
import { ipsOf } from '../ipam.js';
import { listPage, mustGet, type Ctx, type Router } from '../route.js';
import type { Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';
import { awaitFirstCheck, forgetService, setServiceStatus, type ServiceRecord } from '../monitoring.js';
import { acceptBody, withAccess } from './managed-common.js';

const RO = 'account:read_only';
const RW = 'account:read_write';

/** Credentials must exist; a region must be a real one. */
function referenceErrors(store: Store, body: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const credentials = Array.isArray(body.credentials) ? (body.credentials as unknown[]) : [];
  credentials.forEach((id, i) => {
    if (Number.isInteger(id) && !store.get('managed_credential', id as number)) errors.push({ field: `credentials.${i}`, reason: `credential ${id} does not exist` });
  });
  if (typeof body.region === 'string' && !store.get('region', body.region)) errors.push({ field: 'region', reason: `region ${body.region} does not exist` });
  return errors;
}

/** Fragments are not kept (they never reach the monitored server); duplicates in credentials are dropped. */
function normalized(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  if (typeof out.address === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(out.address)) out.address = out.address.replace(/#.*$/, '');
  if (Array.isArray(out.credentials)) out.credentials = [...new Set(out.credentials as number[])];
  return out;
}

const show = (row: Record<string, unknown>) => present(ManagedService, row);
const service = (ctx: Ctx) => mustGet<ServiceRecord>(ctx, 'managed_service', ctx.params.serviceId!, 'Service not found');

function serviceEvent(ctx: Ctx, action: string, s: ServiceRecord): void {
  emitEvent(ctx.store, {
    action,
    entity: { id: s.id, label: s.label, type: 'managed_service', url: entityUrl('managed_service', s.id) },
    username: ctx.auth?.user.username,
  });
}

// ---- per-instance settings ----

interface InstanceRow extends Record<string, unknown> {
  id: number;
  label: string;
  group?: string | null;
}

interface Ssh {
  access: boolean;
  user: string;
  ip: string;
  port: number;
}

function defaultSsh(store: Store, vmId: number): Ssh {
  const publicV4 = ipsOf(store, vmId).find((ip) => ip.type === 'ipv4' && ip.public);
  return { access: true, user: 'root', ip: publicV4?.address ?? 'any', port: 22 };
}

function settingsOf(store: Store, vm: InstanceRow) {
  const override = store.get<{ ssh: Ssh }>('managed_ssh', vm.id);
  return present(ManagedVMSettings, { id: vm.id, label: vm.label, group: vm.group ?? '', ssh: override?.ssh ?? defaultSsh(store, vm.id) });
}

/** The instance behind a settings entry: 404 when missing or not granted to a restricted user. */
function instance(ctx: Ctx): InstanceRow {
  const vm = mustGet<InstanceRow>(ctx, 'vm', ctx.params.vmId!, 'Instance not found');
  requireEntity(ctx.auth, 'vm', vm.id, 'read_only', 'Instance not found');
  return vm;
}

onInstanceDeleted((store, vmId) => {
  store.delete('managed_ssh', vmId);
});

/** Monitored services and per-instance access settings. */
export function managedServiceRoutes(r: Router): void {
  r.get('/managed/services', RO, withAccess('read_only', (ctx) => listPage(ctx, 'managed_service', { present: show })));
  r.post('/managed/services', RW, withAccess('read_write', (ctx) => {
    const body = normalized(acceptBody(ctx, ManagedService, 'create', undefined, (v) => referenceErrors(ctx.store, v)));
    const id = ctx.store.nextId('managed_service');
    const now = isoSeconds(ctx.store.clock.now());
    const row: ServiceRecord = {
      body: null,
      consultation_group: '',
      credentials: [],
      notes: null,
      region: null,
      ...body,
      id,
      label: body.label as string,
      status: 'pending',
      created: now,
      updated: now,
    };
    ctx.store.insert('managed_service', id, row);
    serviceEvent(ctx, 'managed_service_create', row);
    return show(awaitFirstCheck(ctx.store, ctx.sim, row));
  }));
  r.get('/managed/services/{serviceId}', RO, withAccess('read_only', (ctx) => show(service(ctx))));
  r.put('/managed/services/{serviceId}', RW, withAccess('read_write', (ctx) => {
    const current = service(ctx);
    const body = normalized(acceptBody(ctx, ManagedService, 'update', current, (v) => referenceErrors(ctx.store, v)));
    const row = ctx.store.put('managed_service', current.id, { ...current, ...body, updated: isoSeconds(ctx.store.clock.now()) });
    // A new target has not been checked yet.
    const retargeted = (body.address !== undefined && body.address !== current.address) || (body.service_type !== undefined && body.service_type !== current.service_type);
    return show(retargeted && row.status !== 'disabled' ? awaitFirstCheck(ctx.store, ctx.sim, row) : row);
  }));
  r.delete('/managed/services/{serviceId}', RW, withAccess('read_write', (ctx) => {
    const s = service(ctx);
    ctx.store.delete('managed_service', s.id);
    forgetService(ctx.store, s.id);
    serviceEvent(ctx, 'managed_service_delete', s);
  }));
  r.post('/managed/services/{serviceId}/disable', RW, withAccess('read_write', (ctx) => {
    const s = service(ctx);
    if (s.status === 'disabled') return show(s);
    serviceEvent(ctx, 'managed_disabled', s);
    return show(setServiceStatus(ctx.store, s.id, 'disabled')!);
  }));
  r.post('/managed/services/{serviceId}/enable', RW, withAccess('read_write', (ctx) => {
    const s = service(ctx);
    if (s.status !== 'disabled') return show(s);
    serviceEvent(ctx, 'managed_enabled', s);
    return show(awaitFirstCheck(ctx.store, ctx.sim, s));
  }));

  r.get('/managed/vm-settings', RO, withAccess('read_only', (ctx) =>
    listPage<InstanceRow>(ctx, 'vm', { restrict: grantFilter(ctx.auth, 'vm'), present: (vm) => settingsOf(ctx.store, vm) }),
  ));
  r.get('/managed/vm-settings/{vmId}', RO, withAccess('read_only', (ctx) => settingsOf(ctx.store, instance(ctx))));
  r.put('/managed/vm-settings/{vmId}', RW, withAccess('read_write', (ctx) => {
    const vm = instance(ctx);
    const body = acceptBody(ctx, ManagedVMSettings, 'update');
    if (body.ssh) {
      const current = ctx.store.get<{ ssh: Ssh }>('managed_ssh', vm.id);
      const ssh = { ...(current?.ssh ?? defaultSsh(ctx.store, vm.id)), ...(body.ssh as Partial<Ssh>) };
      if (current) ctx.store.put('managed_ssh', vm.id, { ssh });
      else ctx.store.insert('managed_ssh', vm.id, { ssh });
    }
    return settingsOf(ctx.store, vm);
  }));
}
