import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { createInstance, events, scopedToken, setRestrictedGrants, SSH_KEY, STRONG_PASS } from './instances-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

/** An empty g6-standard-2 (81920 MB of disk) to lay out by hand. */
async function emptyInstance(label: string): Promise<number> {
  const r = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-2', label } });
  expect(r.status).toBe(200);
  return r.body.id;
}

const disk = async (vmId: number, body: Record<string, unknown>) => call(svc, 'POST', `/vm/instances/${vmId}/disks`, { body });

describe('disks', () => {
  it('creates a disk not ready then ready, in the Disk shape, with disk_create started then finished', async () => {
    const id = await emptyInstance('disk-basic');
    const r = await disk(id, { label: 'data', size: 2048, filesystem: 'ext3', read_only: false });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['created', 'filesystem', 'id', 'label', 'size', 'status', 'updated']);
    expect(r.body).toMatchObject({ label: 'data', size: 2048, filesystem: 'ext3', status: 'not ready' });
    const now = await call(svc, 'GET', `/vm/instances/${id}/disks/${r.body.id}`);
    expect(now.body.status).toBe('ready');
    const ev = events(svc, 'disk_create').find((e) => e.secondary_entity?.id === r.body.id);
    expect(ev).toMatchObject({ status: 'finished', entity: { id, type: 'vm' }, secondary_entity: { type: 'disks', label: 'data' } });
    const plain = await disk(id, { label: 'defaults', size: 100 });
    expect(plain.body.filesystem).toBe('ext4');
  });

  it('deploys an image onto a disk with the same rules as instance create', async () => {
    const id = await emptyInstance('disk-image');
    const ok = await disk(id, { label: 'root', size: 5000, image: 'vm/debian12', root_pass: STRONG_PASS, authorized_keys: [SSH_KEY], stackscript_id: 10002, stackscript_data: { user: 'admin' } });
    expect(ok.status).toBe(200);
    const bad = await disk(id, {
      label: '',
      size: 10,
      image: 'vm/debian12',
      root_pass: 'abc',
      authorized_users: ['ghost'],
      stackscript_id: 10003,
    });
    expect(bad.status).toBe(400);
    expect(errorFields(bad).sort()).toEqual(['authorized_users.0', 'label', 'root_pass', 'size', 'stackscript_data.db_password'].sort());
    expect(bad.body.errors.find((e: any) => e.field === 'root_pass').reason).toBe('Password does not meet strength requirement');
    const noImage = await disk(id, { label: 'x', size: 10, root_pass: STRONG_PASS, stackscript_data: {} });
    expect(errorFields(noImage).sort()).toEqual(['root_pass', 'stackscript_data']);
    const required = await disk(id, { filesystem: 'zfs' });
    expect(errorFields(required).sort()).toEqual(['filesystem', 'label', 'size']);
  });

  it('refuses a StackScript onto a private image', async () => {
    const id = await emptyInstance('disk-private');
    svc.store.tx(() =>
      svc.store.insert('image', 'private/900', {
        id: 'private/900',
        label: 'golden',
        description: '',
        created: '2024-01-01T00:00:00',
        updated: '2024-01-01T00:00:00',
        created_by: 'demo-owner',
        deprecated: false,
        is_public: false,
        size: 3000,
        type: 'manual',
        expiry: null,
        eol: null,
        vendor: null,
      }),
    );
    const r = await disk(id, { label: 'root', size: 5000, image: 'private/900', root_pass: STRONG_PASS, stackscript_id: 10001, stackscript_data: { hostname: 'a' } });
    expect(errorFields(r)).toEqual(['stackscript_id']);
    expect((await disk(id, { label: 'root', size: 5000, image: 'private/900', root_pass: STRONG_PASS })).status).toBe(200);
    setRestrictedGrants(svc, (g) => {
      g.global.add_vms = true;
    });
    const hidden = { region: 'us-east', type: 'g6-standard-2', image: 'private/900', root_pass: STRONG_PASS };
    expect(errorFields(await call(svc, 'POST', '/vm/instances', { token: RESTRICTED_TOKEN, body: hidden }))).toEqual(['image']);
    setRestrictedGrants(svc, (g) => {
      g.image.push({ id: 'private/900', permissions: 'read_only' });
    });
    expect((await call(svc, 'POST', '/vm/instances', { token: RESTRICTED_TOKEN, body: hidden })).status).toBe(200);
  });

  it('fits disks in the plan: size beyond the free space is refused', async () => {
    const id = await emptyInstance('disk-space');
    expect((await disk(id, { label: 'big', size: 80000 })).status).toBe(200);
    const over = await disk(id, { label: 'more', size: 2000 });
    expect(errorFields(over)).toEqual(['size']);
    expect(over.body.errors[0].reason).toMatch(/1920 MB/);
  });

  it('updates label and filesystem only; size is read-only', async () => {
    const id = await emptyInstance('disk-update');
    const d = (await disk(id, { label: 'old', size: 1000 })).body;
    const r = await call(svc, 'PUT', `/vm/instances/${id}/disks/${d.id}`, { body: { label: 'new', filesystem: 'raw', size: 5 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ label: 'new', filesystem: 'raw', size: 1000 });
    const bad = await call(svc, 'PUT', `/vm/instances/${id}/disks/${d.id}`, { body: { label: 'x'.repeat(49), filesystem: 'ntfs', image: 'vm/debian12' } });
    expect(errorFields(bad).sort()).toEqual(['filesystem', 'label']);
    expect(bad.headers['x-ignored-fields']).toBe('image');
    expect(events(svc, 'disk_update').some((e) => e.secondary_entity.id === d.id)).toBe(true);
  });

  it('clones a disk to the same size (disk_duplicate), refusing when storage is short', async () => {
    const id = await emptyInstance('disk-clone');
    const d = (await disk(id, { label: 'src', size: 40000 })).body;
    await call(svc, 'GET', `/vm/instances/${id}`);
    const copy = await call(svc, 'POST', `/vm/instances/${id}/disks/${d.id}/clone`);
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ size: 40000, filesystem: 'ext4', status: 'not ready' });
    expect(copy.body.id).not.toBe(d.id);
    expect((await call(svc, 'GET', `/vm/instances/${id}/disks/${copy.body.id}`)).body.status).toBe('ready');
    expect(events(svc, 'disk_duplicate').find((e) => e.secondary_entity.id === copy.body.id)?.status).toBe('finished');
    const again = await call(svc, 'POST', `/vm/instances/${id}/disks/${d.id}/clone`, { body: {} });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].reason).toMatch(/Not enough storage/);
  });

  it('deletes a disk and empties the config slots that used it', async () => {
    const vm = await createInstance(svc, { label: 'disk-delete' });
    const disks = (await call(svc, 'GET', `/vm/instances/${vm.id}/disks`)).body.data;
    const r = await call(svc, 'DELETE', `/vm/instances/${vm.id}/disks/${disks[1].id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const config = (await call(svc, 'GET', `/vm/instances/${vm.id}/configs`)).body.data[0];
    expect(config.devices.sdb).toBeNull();
    expect(config.devices.sda.disk_id).toBe(disks[0].id);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}/disks/${disks[1].id}`)).status).toBe(404);
    expect(events(svc, 'disk_delete').some((e) => e.secondary_entity.id === disks[1].id)).toBe(true);
  });

  it("filters on label and size; another instance's disk is 404", async () => {
    const id = await emptyInstance('disk-filter');
    await disk(id, { label: 'alpha', size: 100 });
    await disk(id, { label: 'beta', size: 300 });
    const big = await call(svc, 'GET', `/vm/instances/${id}/disks`, { filter: { size: { '+gte': 200 } } });
    expect(big.body.data.map((d: any) => d.label)).toEqual(['beta']);
    expect((await call(svc, 'GET', `/vm/instances/${id}/disks`, { filter: { label: 'alpha' } })).body.results).toBe(1);
    expect((await call(svc, 'GET', `/vm/instances/${id}/disks`, { filter: { filesystem: 'ext4' } })).status).toBe(400);
    const other = await emptyInstance('disk-other');
    const theirs = (await disk(other, { label: 'theirs', size: 10 })).body;
    expect((await call(svc, 'GET', `/vm/instances/${id}/disks/${theirs.id}`)).status).toBe(404);
  });
});

describe('configs', () => {
  it('creates with the seed defaults and the Config shape, records vm_config_create', async () => {
    const id = await emptyInstance('cfg-defaults');
    const d = (await disk(id, { label: 'root', size: 1000 })).body;
    const r = await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'main', devices: { sda: { disk_id: d.id } }, root_device: 'not valid!' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['comments', 'devices', 'helpers', 'id', 'kernel', 'label', 'memory_limit', 'root_device', 'run_level', 'virt_mode']);
    expect(r.body).toMatchObject({
      label: 'main',
      kernel: 'vm/latest-64bit',
      comments: null,
      memory_limit: 4096,
      run_level: 'default',
      virt_mode: 'paravirt',
      root_device: '/dev/sda',
      helpers: { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true },
    });
    expect(r.body.devices).toEqual({ sda: { disk_id: d.id, volume_id: null }, sdb: null, sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null });
    expect(events(svc, 'vm_config_create').some((e) => e.entity.id === id && e.secondary_entity.id === r.body.id)).toBe(true);
    const empty = await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'waits', devices: {}, root_device: '/dev/sdb' } });
    expect(empty.status).toBe(200);
    expect(empty.body.root_device).toBe('/dev/sdb');
  });

  it('rejects every config problem at once', async () => {
    const id = await emptyInstance('cfg-errors');
    const d = (await disk(id, { label: 'root', size: 1000 })).body;
    const other = await emptyInstance('cfg-errors-2');
    const foreign = (await disk(other, { label: 'x', size: 10 })).body;
    const r = await call(svc, 'POST', `/vm/instances/${id}/configs`, {
      body: {
        label: '',
        kernel: 'windows',
        run_level: 'multi',
        virt_mode: 'fullvirt',
        memory_limit: 999999,
        helpers: { network: 'yes' },
        devices: {
          sda: { disk_id: d.id, volume_id: 5 },
          sdb: { disk_id: foreign.id },
          sdc: { disk_id: d.id },
          sde: { disk_id: d.id },
          sdz: null,
        },
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(
      [
        'label',
        'kernel',
        'run_level',
        'helpers.network',
        'memory_limit',
        'devices.sdz',
        'devices.sda',
        'devices.sde',
        'devices.sda.volume_id',
        'devices.sdb.disk_id',
        'devices.sdc.disk_id',
        'devices.sde.disk_id',
      ].sort(),
    );
    const missing = await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: {} });
    expect(errorFields(missing).sort()).toEqual(['devices', 'label']);
  });

  it('updates with label and devices required, keeping unsent fields; fullvirt checks the stored mode', async () => {
    const id = await emptyInstance('cfg-update');
    const d = (await disk(id, { label: 'root', size: 1000 })).body;
    const c = (await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'fv', virt_mode: 'fullvirt', comments: 'hi', devices: { sda: { disk_id: d.id } } } })).body;
    const noLabel = await call(svc, 'PUT', `/vm/instances/${id}/configs/${c.id}`, { body: { kernel: 'vm/grub2' } });
    expect(errorFields(noLabel).sort()).toEqual(['devices', 'label']);
    const slot = await call(svc, 'PUT', `/vm/instances/${id}/configs/${c.id}`, { body: { label: 'fv', devices: { sdf: { disk_id: d.id } } } });
    expect(errorFields(slot)).toEqual(['devices.sdf']);
    const r = await call(svc, 'PUT', `/vm/instances/${id}/configs/${c.id}`, {
      body: { label: 'pv', virt_mode: 'paravirt', kernel: 'vm/grub2', helpers: { network: false }, devices: { sdf: { disk_id: d.id } } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ label: 'pv', virt_mode: 'paravirt', kernel: 'vm/grub2', comments: 'hi', helpers: { network: false, distro: true } });
    expect(r.body.devices.sda).toBeNull();
    expect(r.body.devices.sdf).toEqual({ disk_id: d.id, volume_id: null });
    expect(events(svc, 'vm_config_update').some((e) => e.secondary_entity.id === c.id)).toBe(true);
  });

  it('lists with a label filter, views, deletes; another instance’s config is 404', async () => {
    const id = await emptyInstance('cfg-list');
    const a = (await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'a', devices: {} } })).body;
    await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'b', devices: {} } });
    expect((await call(svc, 'GET', `/vm/instances/${id}/configs`, { filter: { label: 'b' } })).body.data.map((c: any) => c.label)).toEqual(['b']);
    expect((await call(svc, 'GET', `/vm/instances/${id}/configs/${a.id}`)).body.label).toBe('a');
    const other = await emptyInstance('cfg-list-2');
    expect((await call(svc, 'GET', `/vm/instances/${other}/configs/${a.id}`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `/vm/instances/${id}/configs/${a.id}`)).body).toEqual({});
    expect((await call(svc, 'GET', `/vm/instances/${id}/configs/${a.id}`)).status).toBe(404);
    expect(events(svc, 'vm_config_delete').some((e) => e.secondary_entity.id === a.id)).toBe(true);
  });
});

describe('grants and scopes on disks and configs', () => {
  it('read-only grants may read but not write; scopes are checked', async () => {
    const id = await emptyInstance('cfg-grants');
    const d = (await disk(id, { label: 'root', size: 100 })).body;
    setRestrictedGrants(svc, (g) => {
      g.vm.push({ id, permissions: 'read_only' });
    });
    expect((await call(svc, 'GET', `/vm/instances/${id}/disks`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${id}/configs`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await disk(id, { label: 'x', size: 1 })).status).toBe(200);
    expect((await call(svc, 'POST', `/vm/instances/${id}/disks`, { token: RESTRICTED_TOKEN, body: { label: 'x', size: 1 } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/vm/instances/${id}/disks/${d.id}`, { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect((await call(svc, 'POST', `/vm/instances/${id}/configs`, { token: RESTRICTED_TOKEN, body: { label: 'x', devices: {} } })).status).toBe(403);
    const ro = scopedToken(svc, 'scoped-vms-ro-token-disks-000000001', 'vms:read_only');
    expect((await call(svc, 'GET', `/vm/instances/${id}/disks/${d.id}`, { token: ro })).status).toBe(200);
    expect((await call(svc, 'POST', `/vm/instances/${id}/disks/${d.id}/clone`, { token: ro })).status).toBe(403);
    expect((await call(svc, 'PUT', `/vm/instances/${id}/disks/${d.id}`, { token: ro, body: { label: 'y' } })).status).toBe(403);
  });
});
