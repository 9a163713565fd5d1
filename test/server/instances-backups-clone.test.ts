import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { createInstance, events, scopedToken, setRestrictedGrants } from './instances-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const BACKUP_KEYS = ['configs', 'created', 'disks', 'finished', 'id', 'label', 'status', 'type', 'updated'];

const get = async (path: string) => (await call(svc, 'GET', path)).body;

describe('backups', () => {
  it('refuses a snapshot until backups are enabled; enable schedules and takes a first automatic backup', async () => {
    const vm = await createInstance(svc, { label: 'bk-enable' });
    const early = await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: { label: 'x' } });
    expect(early.status).toBe(400);
    expect(early.body.errors[0].reason).toMatch(/not enabled/);
    const enabled = await call(svc, 'POST', `/vm/instances/${vm.id}/backups/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({});
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/backups/enable`)).status).toBe(400);
    const now = await get(`/vm/instances/${vm.id}`);
    expect(now.backups.enabled).toBe(true);
    expect(now.backups.schedule.day).toMatch(/day$/);
    expect(now.backups.schedule.window).toMatch(/^W\d+$/);
    expect(now.backups.last_successful).toMatch(/^\d{4}-/);
    const list = await get(`/vm/instances/${vm.id}/backups`);
    expect(list.automatic).toHaveLength(1);
    expect(Object.keys(list.automatic[0]).sort()).toEqual(BACKUP_KEYS);
    expect(list.automatic[0]).toMatchObject({ type: 'auto', status: 'successful', label: null, configs: ['My Debian 12 Disk Profile'] });
    expect(list.automatic[0].disks).toEqual([
      { label: 'Debian 12 Disk', size: 81408, filesystem: 'ext4' },
      { label: '512 MB Swap Image', size: 512, filesystem: 'swap' },
    ]);
    expect(list.snapshot).toEqual({ in_progress: null, current: null });
    expect(events(svc, 'backups_enable').some((e) => e.entity.id === vm.id && e.status === 'finished')).toBe(true);
  });

  it('takes a snapshot, replacing the previous one, with vm_snapshot started then finished', async () => {
    const vm = await createInstance(svc, { label: 'bk-snap', backups_enabled: true });
    const first = await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: { label: 'first' } });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(BACKUP_KEYS);
    expect(first.body).toMatchObject({ type: 'snapshot', label: 'first', status: 'pending', finished: null });
    const listed = await get(`/vm/instances/${vm.id}/backups`);
    expect(listed.snapshot.current).toMatchObject({ id: first.body.id, status: 'successful' });
    expect(listed.snapshot.current.finished).toMatch(/^\d{4}-/);
    const second = (await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: { label: 'second' } })).body;
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}/backups/${first.body.id}`)).status).toBe(404);
    expect((await get(`/vm/instances/${vm.id}/backups/${second.id}`)).label).toBe('second');
    expect(events(svc, 'vm_snapshot').filter((e) => e.entity.id === vm.id).map((e) => e.status)).toEqual(['finished', 'finished']);
    const bad = await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: { label: '', extra: 1 } });
    expect(errorFields(bad)).toEqual(['label']);
    expect(bad.headers['x-ignored-fields']).toBe('extra');
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: {} }))).toEqual(['label']);
  });

  it('cancel deletes every backup and disables the service', async () => {
    const vm = await createInstance(svc, { label: 'bk-cancel', backups_enabled: true });
    const snap = (await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: { label: 'gone soon' } })).body;
    const r = await call(svc, 'POST', `/vm/instances/${vm.id}/backups/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(await get(`/vm/instances/${vm.id}/backups`)).toEqual({ automatic: [], snapshot: { in_progress: null, current: null } });
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}/backups/${snap.id}`)).status).toBe(404);
    expect((await get(`/vm/instances/${vm.id}`)).backups).toEqual({ enabled: false, schedule: { day: null, window: null }, last_successful: null });
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/backups/cancel`)).status).toBe(400);
    expect(events(svc, 'backups_cancel').some((e) => e.entity.id === vm.id)).toBe(true);
  });

  it('restores with overwrite: the target keeps only the backup’s disks and configs', async () => {
    const src = await createInstance(svc, { label: 'bk-restore-src', backups_enabled: true });
    const snap = (await call(svc, 'POST', `/vm/instances/${src.id}/backups`, { body: { label: 'golden' } })).body;
    const target = await createInstance(svc, { label: 'bk-restore-dst', type: 'g6-standard-4' });
    const r = await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { body: { vm_id: target.id, overwrite: true } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const after = await get(`/vm/instances/${target.id}`);
    expect(after.status).toBe('running');
    const disks = (await get(`/vm/instances/${target.id}/disks`)).data;
    expect(disks.map((d: any) => [d.label, d.size, d.status])).toEqual(snap.disks.map((d: any) => [d.label, d.size, 'ready']));
    const configs = (await get(`/vm/instances/${target.id}/configs`)).data;
    expect(configs.map((c: any) => c.label)).toEqual(snap.configs);
    expect(configs[0].devices.sda.disk_id).toBe(disks[0].id);
    expect(events(svc, 'backups_restore').find((e) => e.entity.id === target.id)?.status).toBe('finished');
  });

  it('restores without overwrite only into free space (insufficient-space error), adding to what is there', async () => {
    const src = await createInstance(svc, { label: 'bk-space-src', backups_enabled: true });
    const snap = (await call(svc, 'POST', `/vm/instances/${src.id}/backups`, { body: { label: 'big' } })).body;
    const full = await createInstance(svc, { label: 'bk-space-full', type: 'g6-standard-4' });
    const short = await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { body: { vm_id: full.id } });
    expect(short.status).toBe(400);
    expect(short.body.errors[0].reason).toMatch(/Insufficient space/);
    expect((await get(`/vm/instances/${full.id}/disks`)).results).toBe(2);

    const roomy = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-4', label: 'bk-space-roomy' } });
    await call(svc, 'POST', `/vm/instances/${roomy.body.id}/disks`, { body: { label: 'existing', size: 1000 } });
    const ok = await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { body: { vm_id: roomy.body.id, overwrite: false } });
    expect(ok.status).toBe(200);
    expect((await get(`/vm/instances/${roomy.body.id}/disks`)).data.map((d: any) => d.label)).toEqual(['existing', ...snap.disks.map((d: any) => d.label)]);
    expect((await get(`/vm/instances/${roomy.body.id}`)).status).toBe('offline');
  });

  it('restore needs vm_id of an instance the caller may write', async () => {
    const src = await createInstance(svc, { label: 'bk-target-src', backups_enabled: true });
    const snap = (await call(svc, 'POST', `/vm/instances/${src.id}/backups`, { body: { label: 'x' } })).body;
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { body: { overwrite: 'yes' } })).sort()).toEqual(['overwrite', 'vm_id']);
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { body: { vm_id: 424242 } }))).toEqual(['vm_id']);
    expect((await call(svc, 'POST', `/vm/instances/${src.id}/backups/1/restore`, { body: { vm_id: src.id } })).status).toBe(404);

    const other = await createInstance(svc, { label: 'bk-target-ro' });
    setRestrictedGrants(svc, (g) => {
      g.vm.push({ id: src.id, permissions: 'read_write' }, { id: other.id, permissions: 'read_only' });
    });
    const ro = await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { token: RESTRICTED_TOKEN, body: { vm_id: other.id, overwrite: true } });
    expect(ro.status).toBe(403);
    const hidden = await createInstance(svc, { label: 'bk-target-hidden' });
    const invisible = await call(svc, 'POST', `/vm/instances/${src.id}/backups/${snap.id}/restore`, { token: RESTRICTED_TOKEN, body: { vm_id: hidden.id, overwrite: true } });
    expect(errorFields(invisible)).toEqual(['vm_id']);
    expect((await call(svc, 'GET', `/vm/instances/${src.id}/backups`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${hidden.id}/backups`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    const ro2 = scopedToken(svc, 'scoped-vms-ro-token-backups-0000001', 'vms:read_only');
    expect((await call(svc, 'GET', `/vm/instances/${src.id}/backups/${snap.id}`, { token: ro2 })).status).toBe(200);
    expect((await call(svc, 'POST', `/vm/instances/${src.id}/backups/enable`, { token: ro2 })).status).toBe(403);
  });
});

describe('clone', () => {
  /** An instance with two configs (a: root+swap, b: root only) and an extra disk no config uses; 4612 MB in all. */
  async function layoutSource(label: string) {
    const vm = (await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-2', label, tags: ['cloneme'] } })).body;
    const add = async (body: Record<string, unknown>) => (await call(svc, 'POST', `/vm/instances/${vm.id}/disks`, { body })).body;
    const root = await add({ label: 'root', size: 4000 });
    const swap = await add({ label: 'swap', size: 512, filesystem: 'swap' });
    const extra = await add({ label: 'extra', size: 100, filesystem: 'raw' });
    const config = async (body: Record<string, unknown>) => (await call(svc, 'POST', `/vm/instances/${vm.id}/configs`, { body })).body;
    const a = await config({ label: 'main', devices: { sda: { disk_id: root.id }, sdb: { disk_id: swap.id } } });
    const b = await config({ label: 'rescue', devices: { sda: { disk_id: root.id } } });
    await call(svc, 'POST', `/vm/instances/${vm.id}/boot`, { body: { config_id: a.id } });
    return { vm, root, swap, extra, a, b };
  }

  const labelsOf = async (id: number) => ({
    disks: (await get(`/vm/instances/${id}/disks`)).data.map((d: any) => d.label),
    configs: (await get(`/vm/instances/${id}/configs`)).data.map((c: any) => c.label),
  });

  it('configs omitted: every config and its disks into a new instance (provisioning → offline), tags copied, vm_clone recorded', async () => {
    const s = await layoutSource('cl-all');
    const r = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'us-west', type: 'g6-standard-4', group: 'copies' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'provisioning', region: 'us-west', type: 'g6-standard-4', group: 'copies', tags: ['cloneme'], label: `vm${r.body.id}` });
    expect(await labelsOf(r.body.id)).toEqual({ disks: ['root', 'swap'], configs: ['main', 'rescue'] });
    expect((await get(`/vm/instances/${r.body.id}`)).status).toBe('offline');
    expect((await get(`/vm/instances/${s.vm.id}`)).status).toBe('running');
    const ev = events(svc, 'vm_clone').find((e) => e.secondary_entity?.id === r.body.id);
    expect(ev).toMatchObject({ status: 'finished', entity: { id: s.vm.id } });
    const cfg = (await get(`/vm/instances/${r.body.id}/configs`)).data[0];
    const disks = (await get(`/vm/instances/${r.body.id}/disks`)).data;
    expect([cfg.devices.sda.disk_id, cfg.devices.sdb.disk_id]).toEqual([disks[0].id, disks[1].id]);
  });

  it('configs []: no configs, only the listed disks; listed configs bring their disks plus extras', async () => {
    const s = await layoutSource('cl-pick');
    const none = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'us-east', type: 'g6-standard-2', configs: [], disks: [s.extra.id], label: 'cl-pick-none' } });
    expect(none.status).toBe(200);
    expect(none.body.label).toBe('cl-pick-none');
    expect(await labelsOf(none.body.id)).toEqual({ disks: ['extra'], configs: [] });
    const nothing = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'us-east', type: 'g6-nanode-1', configs: [] } });
    expect(await labelsOf(nothing.body.id)).toEqual({ disks: [], configs: [] });
    const rescue = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'us-east', type: 'g6-standard-2', configs: [s.b.id], disks: [] } });
    expect(await labelsOf(rescue.body.id)).toEqual({ disks: ['root'], configs: ['rescue'] });
    const plus = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'us-east', type: 'g6-standard-4', configs: [s.b.id], disks: [s.extra.id, s.swap.id] } });
    expect(await labelsOf(plus.body.id)).toEqual({ disks: ['root', 'swap', 'extra'], configs: ['rescue'] });
  });

  it('rejects bad clone requests all at once', async () => {
    const s = await layoutSource('cl-bad');
    const r = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { label: '--', configs: [1], disks: [s.extra.id, 2], backups_enabled: 'no' } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['backups_enabled', 'configs.0', 'disks.1', 'label', 'region', 'type'].sort());
    const unknown = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'atlantis', type: 'g0-none', label: 'cl-bad' } });
    expect(errorFields(unknown).sort()).toEqual(['label', 'region', 'type']);
    const big = await call(svc, 'POST', `/vm/instances/${s.vm.id}/disks`, { body: { label: 'huge', size: 30000 } });
    expect(big.status).toBe(200);
    const small = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { region: 'us-east', type: 'g6-nanode-1', disks: [big.body.id] } });
    expect(errorFields(small)).toEqual(['type']);
  });

  it('into an existing instance: only with room, never with region/type/label/backups_enabled, not into itself', async () => {
    const s = await layoutSource('cl-into');
    const empty = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-4', label: 'cl-into-target' } });
    const wrong = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { vm_id: empty.body.id, region: 'us-east', type: 'g6-standard-2', label: 'x-y-z', backups_enabled: true } });
    expect(errorFields(wrong).sort()).toEqual(['backups_enabled', 'label', 'region', 'type']);
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { vm_id: s.vm.id } }))).toEqual(['vm_id']);
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { vm_id: 999999 } }))).toEqual(['vm_id']);
    const small = await createInstance(svc, { label: 'cl-into-small', type: 'g6-nanode-1' });
    expect(small.status).toBe('provisioning');
    const noRoom = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { vm_id: small.id } });
    expect(errorFields(noRoom)).toEqual(['vm_id']);

    const ok = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { body: { vm_id: empty.body.id, configs: [s.a.id] } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: empty.body.id, status: 'cloning', label: 'cl-into-target' });
    expect((await get(`/vm/instances/${empty.body.id}`)).status).toBe('offline');
    expect(await labelsOf(empty.body.id)).toEqual({ disks: ['root', 'swap'], configs: ['main'] });
  });

  it('needs add_vms for a new target and write access to an existing one', async () => {
    const s = await layoutSource('cl-grants');
    const target = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-4', label: 'cl-grants-target' } });
    setRestrictedGrants(svc, (g) => {
      g.global.add_vms = false;
      g.vm.push({ id: s.vm.id, permissions: 'read_only' }, { id: target.body.id, permissions: 'read_only' });
    });
    const noAdd = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { token: RESTRICTED_TOKEN, body: { region: 'us-east', type: 'g6-standard-4' } });
    expect(noAdd.status).toBe(403);
    // A later SDK's vm_id: null means a new instance too: it needs add_vms just the same.
    const nullTarget = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { token: RESTRICTED_TOKEN, body: { region: 'us-east', type: 'g6-standard-4', vm_id: null } });
    expect(nullTarget.status).toBe(403);
    const roTarget = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { token: RESTRICTED_TOKEN, body: { vm_id: target.body.id } });
    expect(roTarget.status).toBe(403);
    setRestrictedGrants(svc, (g) => {
      g.global.add_vms = true;
    });
    const made = await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { token: RESTRICTED_TOKEN, body: { region: 'us-east', type: 'g6-standard-4' } });
    expect(made.status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${made.body.id}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    const ro = scopedToken(svc, 'scoped-vms-ro-token-clone-00000001', 'vms:read_only');
    expect((await call(svc, 'POST', `/vm/instances/${s.vm.id}/clone`, { token: ro, body: { region: 'us-east', type: 'g6-standard-4' } })).status).toBe(403);
  });
});
