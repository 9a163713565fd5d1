import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import type { User } from '../../src/server/auth.js';
import { RESTRICTED_ID } from '../../src/server/auth.js';
import { createInstance, events, scopedToken, setRestrictedGrants, SSH_KEY, STRONG_PASS } from './instances-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const INSTANCE_KEYS = [
  'id',
  'label',
  'group',
  'status',
  'created',
  'updated',
  'type',
  'ipv4',
  'ipv6',
  'image',
  'region',
  'specs',
  'alerts',
  'backups',
  'hypervisor',
  'watchdog_enabled',
  'tags',
].sort();

describe('instance create', () => {
  it('deploys an image: Instance shape, provisioning then running, default config with root and swap disks', async () => {
    const created = await createInstance(svc, { label: 'web-1', private_ip: true, tags: ['web'], group: 'frontend' });
    expect(Object.keys(created).sort()).toEqual(INSTANCE_KEYS);
    expect(created).toMatchObject({
      label: 'web-1',
      status: 'provisioning',
      type: 'g6-standard-2',
      region: 'us-east',
      image: 'vm/debian12',
      hypervisor: 'kvm',
      group: 'frontend',
      tags: ['web'],
      watchdog_enabled: true,
      specs: { disk: 81920, memory: 4096, vcpus: 2, transfer: 4000000 },
      alerts: { cpu: 180, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
      backups: { enabled: false, schedule: { day: null, window: null }, last_successful: null },
    });
    expect(created.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(created.ipv4).toHaveLength(2);
    expect(created.ipv4[0]).toMatch(/^45\./);
    expect(created.ipv4[1]).toMatch(/^192\.168\./);
    expect(created.ipv6).toMatch(/^2600:.*\/128$/);
    expect(JSON.stringify(created)).not.toContain(STRONG_PASS);

    const now = await call(svc, 'GET', `/vm/instances/${created.id}`);
    expect(now.body.status).toBe('running');
    const disks = (await call(svc, 'GET', `/vm/instances/${created.id}/disks`)).body.data;
    expect(disks.map((d: any) => [d.filesystem, d.size, d.status])).toEqual([
      ['ext4', 81920 - 512, 'ready'],
      ['swap', 512, 'ready'],
    ]);
    const configs = (await call(svc, 'GET', `/vm/instances/${created.id}/configs`)).body.data;
    expect(configs).toHaveLength(1);
    expect(configs[0].devices.sda).toEqual({ disk_id: disks[0].id, volume_id: null });
    expect(configs[0].devices.sdb).toEqual({ disk_id: disks[1].id, volume_id: null });
    expect(configs[0]).toMatchObject({ kernel: 'vm/latest-64bit', memory_limit: 4096, root_device: '/dev/sda', run_level: 'default', virt_mode: 'paravirt' });
    expect(svc.store.get('tag', 'web')).toBeTruthy();
  });

  it('records vm_create and vm_boot as started then finished', async () => {
    const vm = await createInstance(svc);
    await call(svc, 'GET', `/vm/instances/${vm.id}`);
    const mine = events(svc).filter((e) => e.entity?.id === vm.id);
    expect(mine.map((e) => [e.action, e.status])).toEqual([
      ['vm_create', 'finished'],
      ['vm_boot', 'finished'],
    ]);
    expect(mine[0]).toMatchObject({ username: 'demo-owner', entity: { type: 'vm', url: `/v4/vm/instances/${vm.id}` }, secondary_entity: { id: 'vm/debian12' } });
  });

  it('assigns a unique default label and honours swap_size and booted false', async () => {
    const a = await createInstance(svc, { type: 'g6-nanode-1', region: 'eu-west', swap_size: 1024, booted: false });
    const b = await createInstance(svc, { type: 'g6-nanode-1', region: 'eu-west' });
    expect(a.label).toBe('nanode-1-eu-west-1');
    expect(b.label).toBe('nanode-1-eu-west-2');
    expect((await call(svc, 'GET', `/vm/instances/${a.id}`)).body.status).toBe('offline');
    const sizes = (await call(svc, 'GET', `/vm/instances/${a.id}/disks`)).body.data.map((d: any) => d.size);
    expect(sizes).toEqual([25600 - 1024, 1024]);
  });

  it('creates an empty instance offline with no disks or configs', async () => {
    const r = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-west', type: 'g6-standard-1', label: 'bare-metal' } });
    expect(r.status).toBe(200);
    expect(r.body.image).toBeNull();
    const vm = (await call(svc, 'GET', `/vm/instances/${r.body.id}`)).body;
    expect(vm.status).toBe('offline');
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}/disks`)).body.results).toBe(0);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}/configs`)).body.results).toBe(0);
    expect(vm.ipv4).toHaveLength(1);
  });

  it('deploys a StackScript onto a supported image with its fields answered', async () => {
    const before = svc.store.get<any>('stackscript', '10001')!.deployments_total;
    const vm = await createInstance(svc, { stackscript_id: 10001, stackscript_data: { hostname: 'web1' }, authorized_keys: [SSH_KEY], authorized_users: ['demo-owner'] });
    expect(vm.image).toBe('vm/debian12');
    expect(svc.store.get<any>('stackscript', '10001')!.deployments_total).toBe(before + 1);
  });

  it('rejects every problem at once, by field', async () => {
    const r = await call(svc, 'POST', '/vm/instances', {
      body: {
        label: '1-bad--label',
        root_pass: 'password',
        authorized_keys: ['not a key'],
        booted: true,
        swap_size: -1,
        stackscript_data: { a: '1' },
        color: 'blue',
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(
      expect.arrayContaining(['region', 'type', 'label', 'root_pass', 'authorized_keys.0', 'booted', 'swap_size', 'stackscript_data', 'authorized_keys']),
    );
    expect(r.headers['x-ignored-fields']).toBe('color');
    expect(r.body.errors.find((e: any) => e.field === 'root_pass').reason).toBe('Password does not meet strength requirement');
  });

  it('checks what only the store knows: region, type, image, users, label in use', async () => {
    await createInstance(svc, { label: 'taken-label' });
    const r = await call(svc, 'POST', '/vm/instances', {
      body: { region: 'mars-1', type: 'g9-huge', label: 'Taken-Label', image: 'vm/beos', root_pass: STRONG_PASS, authorized_users: ['nobody-here'] },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['authorized_users.0', 'image', 'label', 'region', 'type']);
  });

  it('requires root_pass with an image and refuses image-only fields without one', async () => {
    const noPass = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', image: 'vm/debian12' } });
    expect(errorFields(noPass)).toEqual(['root_pass']);
    const bare = await call(svc, 'POST', '/vm/instances', {
      body: { region: 'us-east', type: 'g6-standard-1', authorized_keys: [SSH_KEY], authorized_users: ['demo-owner'], booted: true, swap_size: 256, root_pass: STRONG_PASS },
    });
    expect(errorFields(bare).sort()).toEqual(['authorized_keys', 'authorized_users', 'booted', 'root_pass', 'swap_size']);
    const noScript = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', stackscript_id: 10001 } });
    expect(errorFields(noScript)).toContain('stackscript_id');
  });

  it('checks StackScripts: compatible image, required fields, oneOf answers, unknown script', async () => {
    const wrongImage = await call(svc, 'POST', '/vm/instances', {
      body: { region: 'us-east', type: 'g6-standard-1', image: 'vm/alpine3.20', root_pass: STRONG_PASS, stackscript_id: 10001, stackscript_data: { hostname: 'x' } },
    });
    expect(errorFields(wrongImage)).toEqual(['image']);
    const unanswered = await call(svc, 'POST', '/vm/instances', {
      body: { region: 'us-east', type: 'g6-standard-1', image: 'vm/debian12', root_pass: STRONG_PASS, stackscript_id: 10001, stackscript_data: { tls: 'maybe' } },
    });
    expect(errorFields(unanswered).sort()).toEqual(['stackscript_data.hostname', 'stackscript_data.tls']);
    const missing = await call(svc, 'POST', '/vm/instances', {
      body: { region: 'us-east', type: 'g6-standard-1', image: 'vm/debian12', root_pass: STRONG_PASS, stackscript_id: 99999 },
    });
    expect(errorFields(missing)).toEqual(['stackscript_id']);
  });

  it('refuses a plan too small for the image plus swap', async () => {
    const r = await call(svc, 'POST', '/vm/instances', {
      body: { region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: STRONG_PASS, swap_size: 25000 },
    });
    expect(r.status).toBe(400);
    // The image alone fits the plan: the swap asked for is what is too large.
    expect(errorFields(r)).toEqual(['swap_size']);
    const fits = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: STRONG_PASS } });
    expect(fits.status).toBe(200);
  });

  it('restores a backup into a new instance: exclusive with image, same region, big enough', async () => {
    const source = await createInstance(svc, { label: 'backup-src', backups_enabled: true });
    await call(svc, 'GET', `/vm/instances/${source.id}`);
    const snap = await call(svc, 'POST', `/vm/instances/${source.id}/backups`, { body: { label: 'before-upgrade' } });
    expect(snap.status).toBe(200);

    const both = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-2', backup_id: snap.body.id, image: 'vm/debian12', root_pass: STRONG_PASS } });
    expect(errorFields(both)).toContain('backup_id');
    const elsewhere = await call(svc, 'POST', '/vm/instances', { body: { region: 'eu-west', type: 'g6-standard-2', backup_id: snap.body.id } });
    expect(errorFields(elsewhere)).toEqual(['backup_id']);
    const small = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-nanode-1', backup_id: snap.body.id } });
    expect(errorFields(small)).toEqual(['type']);
    const unknown = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-2', backup_id: 1 } });
    expect(errorFields(unknown)).toEqual(['backup_id']);

    const restored = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-4', backup_id: snap.body.id, label: 'from-backup' } });
    expect(restored.status).toBe(200);
    expect(restored.body.image).toBeNull();
    const vm = (await call(svc, 'GET', `/vm/instances/${restored.body.id}`)).body;
    expect(vm.status).toBe('running');
    const disks = (await call(svc, 'GET', `/vm/instances/${vm.id}/disks`)).body.data;
    expect(disks.map((d: any) => [d.label, d.size, d.filesystem])).toEqual(snap.body.disks.map((d: any) => [d.label, d.size, d.filesystem]));
    const configs = (await call(svc, 'GET', `/vm/instances/${vm.id}/configs`)).body.data;
    expect(configs.map((c: any) => c.label)).toEqual(snap.body.configs);
    expect(configs[0].devices.sda.disk_id).toBe(disks[0].id);
  });

  it('needs vms:read_write and, for restricted users, add_vms; tags need an unrestricted user', async () => {
    const ro = scopedToken(svc, 'scoped-vms-ro-token-0000000000001', 'vms:read_only');
    const denied = await call(svc, 'POST', '/vm/instances', { token: ro, body: { region: 'us-east', type: 'g6-standard-1' } });
    expect(denied.status).toBe(403);
    expect((await call(svc, 'GET', '/vm/instances', { token: ro })).status).toBe(200);
    const other = scopedToken(svc, 'scoped-nb-token-00000000000000001', 'nodebalancers:read_write');
    expect((await call(svc, 'GET', '/vm/instances', { token: other })).status).toBe(403);

    const noGrant = await call(svc, 'POST', '/vm/instances', { token: RESTRICTED_TOKEN, body: { region: 'us-east', type: 'g6-standard-1' } });
    expect(noGrant.status).toBe(403);
    setRestrictedGrants(svc, (g) => {
      g.global.add_vms = true;
    });
    const tagged = await call(svc, 'POST', '/vm/instances', { token: RESTRICTED_TOKEN, body: { region: 'us-east', type: 'g6-standard-1', tags: ['mine'] } });
    expect(tagged.status).toBe(403);
    const mine = await createInstance(svc, { label: 'ops-made' }, RESTRICTED_TOKEN);
    const user = svc.store.get<User>('user', RESTRICTED_ID)!;
    expect(user.grants!.vm).toContainEqual({ id: mine.id, permissions: 'read_write' });
    expect((await call(svc, 'GET', `/vm/instances/${mine.id}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
  });
});

describe('instance list, view, update, delete', () => {
  it('lists as a page and filters on label, region, tags, group, image and id', async () => {
    const a = await createInstance(svc, { label: 'filter-api-1', region: 'ap-south', tags: ['api', 'blue'], group: 'apis' });
    await createInstance(svc, { label: 'filter-db-1', region: 'ap-south', tags: ['database'] });
    const page = await call(svc, 'GET', '/vm/instances?page_size=25');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 1 });
    expect(page.body.results).toBeGreaterThan(2);
    const byTag = await call(svc, 'GET', '/vm/instances', { filter: { tags: 'api' } });
    expect(byTag.body.data.map((v: any) => v.label)).toEqual(['filter-api-1']);
    const byRegion = await call(svc, 'GET', '/vm/instances', { filter: { region: 'ap-south', '+order_by': 'label', '+order': 'desc' } });
    expect(byRegion.body.data.map((v: any) => v.label)).toEqual(['filter-db-1', 'filter-api-1']);
    expect((await call(svc, 'GET', '/vm/instances', { filter: { group: 'apis' } })).body.results).toBe(1);
    expect((await call(svc, 'GET', '/vm/instances', { filter: { id: a.id } })).body.data[0].label).toBe('filter-api-1');
    expect((await call(svc, 'GET', '/vm/instances', { filter: { image: 'vm/debian12', label: { '+contains': 'filter-' } } })).body.results).toBe(2);
    expect((await call(svc, 'GET', '/vm/instances', { filter: { status: 'running' } })).status).toBe(400);
  });

  it('shows restricted users only granted instances; read-only grants cannot write', async () => {
    const seen = await createInstance(svc, { label: 'granted-ro' });
    const hidden = await createInstance(svc, { label: 'not-granted' });
    setRestrictedGrants(svc, (g) => {
      g.vm.push({ id: seen.id, permissions: 'read_only' });
    });
    const list = await call(svc, 'GET', '/vm/instances', { token: RESTRICTED_TOKEN });
    const labels = list.body.data.map((v: any) => v.label);
    expect(labels).toContain('granted-ro');
    expect(labels).not.toContain('not-granted');
    expect((await call(svc, 'GET', `/vm/instances/${hidden.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'GET', `/vm/instances/${seen.id}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'PUT', `/vm/instances/${seen.id}`, { token: RESTRICTED_TOKEN, body: { label: 'renamed' } })).status).toBe(403);
    expect((await call(svc, 'POST', `/vm/instances/${seen.id}/shutdown`, { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/vm/instances/${hidden.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
  });

  it('404s unknown and non-integer ids', async () => {
    expect((await call(svc, 'GET', '/vm/instances/999999')).status).toBe(404);
    expect((await call(svc, 'GET', '/vm/instances/abc')).status).toBe(404);
  });

  it('updates label, group, tags, alerts (partially), backup schedule and watchdog; ignores read-only fields', async () => {
    const vm = await createInstance(svc, { label: 'upd-1' });
    const full = (await call(svc, 'GET', `/vm/instances/${vm.id}`)).body;
    const r = await call(svc, 'PUT', `/vm/instances/${vm.id}`, {
      body: {
        ...full,
        label: 'upd-renamed',
        group: 'g2',
        tags: ['prod'],
        alerts: { cpu: 150 },
        backups: { enabled: true, schedule: { day: 'Saturday', window: 'W22' } },
        watchdog_enabled: false,
        status: 'offline',
        ipv4: ['1.2.3.4'],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      label: 'upd-renamed',
      group: 'g2',
      tags: ['prod'],
      alerts: { cpu: 150, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
      backups: { enabled: false, schedule: { day: 'Saturday', window: 'W22' } },
      watchdog_enabled: false,
      status: 'running',
    });
    expect(r.body.ipv4).toEqual(full.ipv4);
    expect(events(svc, 'vm_update').some((e) => e.entity.id === vm.id && e.status === 'finished')).toBe(true);
    const again = await createInstance(svc);
    const clash = await call(svc, 'PUT', `/vm/instances/${again.id}`, { body: { label: 'UPD-renamed' } });
    expect(errorFields(clash)).toEqual(['label']);
  });

  it('rejects bad updates all at once, and create-only fields', async () => {
    const vm = await createInstance(svc);
    const r = await call(svc, 'PUT', `/vm/instances/${vm.id}`, {
      body: {
        label: 'ab',
        alerts: { cpu: -1, transfer_quota: 101 },
        backups: { schedule: { day: 'Someday', window: 'W1' } },
        region: 'eu-west',
        type: 'g6-nanode-1',
        root_pass: STRONG_PASS,
        watchdog_enabled: 'yes',
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(
      ['alerts.cpu', 'alerts.transfer_quota', 'backups.schedule.day', 'backups.schedule.window', 'label', 'region', 'root_pass', 'type', 'watchdog_enabled'].sort(),
    );
    const unchanged = await call(svc, 'PUT', `/vm/instances/${vm.id}`, { body: { region: 'us-east', type: 'g6-standard-2' } });
    expect(unchanged.status).toBe(200);
  });

  it('lets only unrestricted users change tags', async () => {
    const vm = await createInstance(svc, { tags: ['keep'] });
    setRestrictedGrants(svc, (g) => {
      g.vm.push({ id: vm.id, permissions: 'read_write' });
    });
    expect((await call(svc, 'PUT', `/vm/instances/${vm.id}`, { token: RESTRICTED_TOKEN, body: { tags: ['other'] } })).status).toBe(403);
    expect((await call(svc, 'PUT', `/vm/instances/${vm.id}`, { token: RESTRICTED_TOKEN, body: { tags: ['keep'], group: 'ok' } })).status).toBe(200);
  });

  it('deletes the instance with its disks, configs, backups and addresses, and records vm_delete', async () => {
    const vm = await createInstance(svc, { private_ip: true, backups_enabled: true });
    await call(svc, 'POST', `/vm/instances/${vm.id}/backups`, { body: { label: 'snap' } });
    const r = await call(svc, 'DELETE', `/vm/instances/${vm.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).status).toBe(404);
    expect(svc.store.all('disk', String(vm.id))).toEqual([]);
    expect(svc.store.all('config', String(vm.id))).toEqual([]);
    expect(svc.store.all('backup', String(vm.id))).toEqual([]);
    expect(svc.store.all('ip', String(vm.id))).toEqual([]);
    expect(events(svc, 'vm_delete').some((e) => e.entity.id === vm.id && e.status === 'finished')).toBe(true);
    const reuse = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', label: vm.label } });
    expect(reuse.status).toBe(200);
  });
});

describe('lifecycle', () => {
  it('shuts down, boots and reboots through their transitional states with events', async () => {
    const vm = await createInstance(svc);
    const down = await call(svc, 'POST', `/vm/instances/${vm.id}/shutdown`);
    expect(down.status).toBe(200);
    expect(down.body).toEqual({});
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('offline');
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/shutdown`)).status).toBe(400);
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/boot`, { body: {} })).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/boot`)).status).toBe(400);
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/reboot`)).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
    const mine = events(svc).filter((e) => e.entity?.id === vm.id).map((e) => [e.action, e.status]);
    expect(mine).toEqual([
      ['vm_create', 'finished'],
      ['vm_boot', 'finished'],
      ['vm_shutdown', 'finished'],
      ['vm_boot', 'finished'],
      ['vm_reboot', 'finished'],
    ]);
  });

  it('ignores and names unknown fields on action bodies, and checks the known ones', async () => {
    const vm = await createInstance(svc);
    const shutdown = await call(svc, 'POST', `/vm/instances/${vm.id}/shutdown`, { body: { force: true } });
    expect(shutdown.status).toBe(200);
    expect(shutdown.headers['x-ignored-fields']).toBe('force');
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${vm.id}/reboot`, { body: { config_id: 'x' } }))).toEqual(['config_id']);
  });

  it('selects the boot config: the only one, else the last booted, else an error', async () => {
    const r = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-2', label: 'boot-select' } });
    const id = r.body.id;
    const none = await call(svc, 'POST', `/vm/instances/${id}/boot`);
    expect(none.status).toBe(400);
    const disk = (await call(svc, 'POST', `/vm/instances/${id}/disks`, { body: { label: 'root', size: 10000 } })).body;
    const one = (await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'one', devices: { sda: { disk_id: disk.id } } } })).body;
    const two = (await call(svc, 'POST', `/vm/instances/${id}/configs`, { body: { label: 'two', devices: { sda: { disk_id: disk.id } } } })).body;
    const ambiguous = await call(svc, 'POST', `/vm/instances/${id}/boot`);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.errors[0].reason).toMatch(/several configs/);
    expect(errorFields(await call(svc, 'POST', `/vm/instances/${id}/boot`, { body: { config_id: 1 } }))).toEqual(['config_id']);
    expect((await call(svc, 'POST', `/vm/instances/${id}/boot`, { body: { config_id: two.id } })).status).toBe(200);
    await call(svc, 'POST', `/vm/instances/${id}/shutdown`);
    expect((await call(svc, 'POST', `/vm/instances/${id}/boot`)).status).toBe(200);
    expect(svc.store.get<any>('vm', id)._last_config).toBe(two.id);
    await call(svc, 'POST', `/vm/instances/${id}/shutdown`);
    await call(svc, 'DELETE', `/vm/instances/${id}/configs/${two.id}`);
    expect((await call(svc, 'POST', `/vm/instances/${id}/boot`)).status).toBe(200);
    expect(svc.store.get<any>('vm', id)._last_config).toBe(one.id);
  });

  it('gives up after more than 5 boot jobs in 15 minutes while the watchdog is on', async () => {
    const vm = await createInstance(svc, { label: 'boot-loop' });
    for (let i = 0; i < 4; i++) expect((await call(svc, 'POST', `/vm/instances/${vm.id}/reboot`)).status).toBe(200);
    const sixth = await call(svc, 'POST', `/vm/instances/${vm.id}/reboot`);
    expect(sixth.status).toBe(400);
    expect(sixth.body.errors[0].reason).toMatch(/watchdog/);
    await call(svc, 'PUT', `/vm/instances/${vm.id}`, { body: { watchdog_enabled: false } });
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/reboot`)).status).toBe(200);
  });
});

describe('realistic speed', () => {
  let slow: RunningService;
  beforeAll(async () => {
    slow = await startTestService({ speed: 'realistic' });
  });
  afterAll(() => slow.close());

  it('stays provisioning with not-ready disks, refuses actions while busy, and allows at most five concurrent clones', async () => {
    const vm = await createInstance(slow, { label: 'slow-src' });
    expect((await call(slow, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('provisioning');
    const disks = (await call(slow, 'GET', `/vm/instances/${vm.id}/disks`)).body.data;
    expect(disks.every((d: any) => d.status === 'not ready')).toBe(true);
    const busy = await call(slow, 'POST', `/vm/instances/${vm.id}/shutdown`);
    expect(busy.status).toBe(400);
    expect(busy.body.errors[0].reason).toMatch(/busy/);

    for (let i = 0; i < 5; i++) {
      const clone = await call(slow, 'POST', `/vm/instances/${vm.id}/clone`, { body: { region: 'us-east', type: 'g6-standard-2' } });
      expect(clone.status, JSON.stringify(clone.body)).toBe(200);
      expect(clone.body.status).toBe('provisioning');
    }
    const sixth = await call(slow, 'POST', `/vm/instances/${vm.id}/clone`, { body: { region: 'us-east', type: 'g6-standard-2' } });
    expect(sixth.status).toBe(400);
    expect(sixth.body.errors[0].reason).toMatch(/5 clones in progress/);
    expect((await call(slow, 'GET', '/vm/instances')).body.results).toBe(6);

    const target = (await call(slow, 'GET', '/vm/instances', { filter: { label: { '+neq': 'slow-src' } } })).body.data[0];
    const busyTarget = await call(slow, 'POST', `/vm/instances/${vm.id}/clone`, { body: { vm_id: target.id } });
    expect(busyTarget.status).toBe(400);
  });
});

describe('persistence', () => {
  it('keeps an instance, its disks and configs across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-instances-'));
    const data = join(dir, 'store.sqlite');
    try {
      const first = await startTestService({ data });
      const vm = await createInstance(first, { label: 'survivor', tags: ['keep'] });
      await call(first, 'GET', `/vm/instances/${vm.id}`);
      await first.close();
      const second = await startTestService({ data });
      try {
        const again = await call(second, 'GET', `/vm/instances/${vm.id}`, { token: OWNER_TOKEN });
        expect(again.body).toMatchObject({ label: 'survivor', status: 'running', tags: ['keep'], ipv4: vm.ipv4, ipv6: vm.ipv6 });
        expect((await call(second, 'GET', `/vm/instances/${vm.id}/disks`)).body.results).toBe(2);
        expect((await call(second, 'GET', `/vm/instances/${vm.id}/configs`)).body.results).toBe(1);
        const dup = await call(second, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', label: 'survivor' } });
        expect(errorFields(dup)).toEqual(['label']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
