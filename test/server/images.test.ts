import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import type { AccountEvent } from '../../src/server/events.js';
import { seedImagesDemo } from '../../src/server/seed/demo-images.js';
import { parseUdfs } from '../../src/model/stackscripts.js';
import { addInstance, scopedToken, setGrants } from './images-fixtures.js';

let svc: RunningService;
async function startWithDisks(opts: { speed?: 'realistic' } = {}): Promise<RunningService> {
  const service = await startTestService(opts);
  addInstance(service, 101, {
    label: 'web-1',
    disks: [
      { id: 1001, label: 'Debian 12 Disk', size: 25088 },
      { id: 1002, label: '512 MB Swap Image', size: 512, filesystem: 'swap' },
      { id: 1003, label: 'data (xfs)!', size: 4096, filesystem: 'raw' },
    ],
  });
  addInstance(service, 102, { label: 'db-1', disks: [{ id: 2001, label: 'db root', size: 40000 }] });
  return service;
}
beforeEach(async () => {
  svc = await startWithDisks();
});
afterEach(() => svc.close());

const PUBLIC_COUNT = 8;

const createImage = (body: unknown, token?: string) => call(svc, 'POST', '/images', { body, token });
const events = (action: string) => svc.store.all<AccountEvent>('event').filter((e) => e.action === action);
const advance = async (body: { advance_seconds?: number; frozen?: boolean }) => expect((await call(svc, 'POST', '/__control/clock', { body })).status).toBe(200);

describe('POST /images', () => {
  it('captures a disk as a private image with the full Image shape and a disk_imagize event, finished when the capture time has passed', async () => {
    // Instant speed finishes the capture at the service's next tick, which can come before the event is read: the account's clock, frozen, decides here.
    await svc.close();
    svc = await startWithDisks({ speed: 'realistic' });
    await advance({ frozen: true });
    const r = await createImage({ disk_id: 1001, label: 'golden web', description: 'nginx + app' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^private\/\d+$/),
      label: 'golden web',
      description: 'nginx + app',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      updated: r.body.created,
      created_by: 'demo-owner',
      deprecated: false,
      is_public: false,
      size: 25088,
      type: 'manual',
      expiry: null,
      eol: null,
      vendor: null,
    });
    const [event] = events('disk_imagize');
    expect(event).toMatchObject({
      entity: { id: 101, label: 'web-1', type: 'vm', url: '/v4/vm/instances/101' },
      secondary_entity: { id: r.body.id, label: 'golden web', type: 'image', url: `/v4/images/${r.body.id}` },
      username: 'demo-owner',
      status: 'started',
    });
    // About a minute per 6 GB: the 25,088 MB disk takes 251 s.
    await advance({ advance_seconds: 250 });
    expect(events('disk_imagize')[0]!.status).toBe('started');
    await advance({ advance_seconds: 1 });
    expect(events('disk_imagize')[0]!.status).toBe('finished');
  });

  it("defaults the label to the disk's label, dropping characters labels refuse", async () => {
    expect((await createImage({ disk_id: 1001 })).body).toMatchObject({ label: 'Debian 12 Disk', description: '' });
    expect((await createImage({ disk_id: 1003 })).body.label).toBe('data xfs');
  });

  it('reports every problem of the body at once', async () => {
    const r = await createImage({ label: 'bad/label', description: 'x'.repeat(65001), size: 5, disk: 1001 });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['description', 'disk_id', 'label']);
    expect(r.headers['x-ignored-fields']).toBe('disk');
    const long = await createImage({ disk_id: 1001, label: 'a'.repeat(51) });
    expect(errorFields(long)).toEqual(['label']);
    expect((await createImage({ disk_id: 1001, label: 'ok label_1.0-x' })).status).toBe(200);
  });

  it('refuses a missing disk and a swap disk', async () => {
    const missing = await createImage({ disk_id: 9999 });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'disk_id', reason: expect.stringMatching(/not found/) }]);
    const swap = await createImage({ disk_id: 1002 });
    expect(swap.status).toBe(400);
    expect(swap.body.errors[0]).toMatchObject({ field: 'disk_id', reason: expect.stringMatching(/swap/) });
    expect(svc.store.all('image').length).toBe(PUBLIC_COUNT);
  });

  it('allows three private images per account, then 400 until one is deleted', async () => {
    const ids: string[] = [];
    for (const label of ['one', 'two', 'three']) ids.push((await createImage({ disk_id: 1001, label })).body.id);
    const fourth = await createImage({ disk_id: 2001, label: 'four' });
    expect(fourth.status).toBe(400);
    expect(fourth.body.errors[0].reason).toMatch(/3 private images/);
    expect((await call(svc, 'GET', '/images', { filter: { is_public: false } })).body.results).toBe(3);
    expect((await call(svc, 'DELETE', `/images/${ids[0]}`)).status).toBe(200);
    expect((await createImage({ disk_id: 2001, label: 'four' })).status).toBe(200);
  });
});

describe('GET /images', () => {
  it('lists only public images without a token, and adds private ones with a token', async () => {
    const made = (await createImage({ disk_id: 1001, label: 'mine' })).body;
    const anon = await call(svc, 'GET', '/images', { token: null });
    expect(anon.status).toBe(200);
    expect(anon.body).toMatchObject({ page: 1, pages: 1, results: PUBLIC_COUNT });
    expect(anon.body.data.every((i: { is_public: boolean }) => i.is_public)).toBe(true);
    expect(anon.body.data[0]).toEqual({
      id: 'vm/debian12',
      label: 'Debian 12',
      description: 'Debian 12 official image',
      created: '2024-01-15T09:00:00',
      updated: '2024-01-15T09:00:00',
      created_by: 'vm',
      deprecated: false,
      is_public: true,
      size: 1300,
      type: 'manual',
      expiry: null,
      eol: '2028-06-10T00:00:00',
      vendor: 'Debian',
    });
    const authed = await call(svc, 'GET', '/images');
    expect(authed.body.results).toBe(PUBLIC_COUNT + 1);
    expect(authed.body.data.at(-1)).toEqual(made);
  });

  it('filters on label, deprecated, is_public, size and vendor', async () => {
    await createImage({ disk_id: 1001, label: 'mine' });
    const ids = async (filter: unknown) => (await call(svc, 'GET', '/images', { filter })).body.data.map((i: { id: string }) => i.id);
    expect(await ids({ vendor: 'Debian' })).toEqual(['vm/debian12', 'vm/debian11']);
    expect(await ids({ deprecated: true })).toEqual(['vm/centos7']);
    expect(await ids({ is_public: false })).toEqual([expect.stringMatching(/^private\//)]);
    expect(await ids({ label: 'Arch Linux' })).toEqual(['vm/arch']);
    expect(await ids({ size: { '+lte': 1200 } })).toEqual(['vm/debian11', 'vm/alpine3.20']);
    expect((await call(svc, 'GET', '/images', { filter: { created_by: 'vm' } })).status).toBe(400);
  });

  it('needs images:read_only when a token is sent', async () => {
    const token = scopedToken(svc, 'only-vms-token-000000000000', 'vms:read_write');
    expect((await call(svc, 'GET', '/images', { token })).status).toBe(403);
  });
});

describe('one image by ID', () => {
  it('answers both the plain and the URL-encoded ID, public and private', async () => {
    const id = (await createImage({ disk_id: 1001, label: 'mine' })).body.id as string;
    const plain = await call(svc, 'GET', `/images/${id}`);
    const encoded = await call(svc, 'GET', `/images/${encodeURIComponent(id)}`);
    expect(plain.status).toBe(200);
    expect(encoded.body).toEqual(plain.body);
    expect(plain.body.id).toBe(id);
    for (const path of ['/images/vm/debian12', '/images/vm%2Fdebian12', '/images/vm%2fdebian12']) {
      const r = await call(svc, 'GET', path, { token: null });
      expect(r.status, path).toBe(200);
      expect(r.body.id).toBe('vm/debian12');
    }
    expect((await call(svc, 'GET', '/images/vm/debian99')).status).toBe(404);
    expect((await call(svc, 'GET', '/images/private/999')).status).toBe(404);
    expect((await call(svc, 'GET', '/images/nonsense')).status).toBe(404);
  });

  it('hides a private image from callers who may not see it', async () => {
    const id = (await createImage({ disk_id: 1001, label: 'mine' })).body.id as string;
    expect((await call(svc, 'GET', `/images/${id}`, { token: null })).status).toBe(404);
    const noImages = scopedToken(svc, 'only-vms-token-000000000000', 'vms:read_only');
    expect((await call(svc, 'GET', `/images/${id}`, { token: noImages })).status).toBe(404);
    expect((await call(svc, 'GET', '/images/vm/debian12', { token: noImages })).status).toBe(200);
    expect((await call(svc, 'GET', `/images/${id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
  });

  it('updates label and description of a private image, and only those', async () => {
    const id = (await createImage({ disk_id: 1001, label: 'mine' })).body.id as string;
    const r = await call(svc, 'PUT', `/images/${encodeURIComponent(id)}`, { body: { label: 'renamed', description: 'new text', size: 1 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, label: 'renamed', description: 'new text', size: 25088 });
    expect((await call(svc, 'GET', `/images/${id}`)).body.label).toBe('renamed');
    expect(events('image_update')).toHaveLength(1);
    const bad = await call(svc, 'PUT', `/images/${id}`, { body: { label: 'no*stars', disk_id: 1001 } });
    expect(bad.status).toBe(400);
    expect(errorFields(bad).sort()).toEqual(['disk_id', 'label']);
  });

  it('refuses to change or delete a public image', async () => {
    const put = await call(svc, 'PUT', '/images/vm/debian12', { body: { label: 'mine now' } });
    expect(put.status).toBe(403);
    const del = await call(svc, 'DELETE', '/images/vm%2Fdebian12');
    expect(del.status).toBe(403);
    expect((await call(svc, 'GET', '/images/vm/debian12')).body.label).toBe('Debian 12');
  });

  it('deletes a private image for good, with an image_delete event', async () => {
    const id = (await createImage({ disk_id: 1001, label: 'mine' })).body.id as string;
    const r = await call(svc, 'DELETE', `/images/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect((await call(svc, 'GET', `/images/${id}`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `/images/${id}`)).status).toBe(404);
    expect(events('image_delete')[0]).toMatchObject({ entity: { id, type: 'image' } });
  });
});

describe('scopes and grants', () => {
  it('needs images:read_write to create, change or delete', async () => {
    const id = (await createImage({ disk_id: 1001, label: 'mine' })).body.id as string;
    const readOnly = scopedToken(svc, 'images-ro-token-000000000000', 'images:read_only vms:read_write');
    expect((await createImage({ disk_id: 1001 }, readOnly)).status).toBe(403);
    expect((await call(svc, 'PUT', `/images/${id}`, { token: readOnly, body: { label: 'x1' } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/images/${id}`, { token: readOnly })).status).toBe(403);
    expect((await call(svc, 'GET', `/images/${id}`, { token: readOnly })).status).toBe(200);
  });

  it('needs add_images and write access to the instance for a restricted user', async () => {
    const noGrant = await createImage({ disk_id: 1001 }, RESTRICTED_TOKEN);
    expect(noGrant.status).toBe(403);
    setGrants(svc, (g) => {
      g.global.add_images = true;
    });
    const invisible = await createImage({ disk_id: 1001 }, RESTRICTED_TOKEN);
    expect(invisible.status).toBe(400);
    expect(errorFields(invisible)).toEqual(['disk_id']);
    setGrants(svc, (g) => {
      g.vm.push({ id: 101, permissions: 'read_only' });
    });
    expect((await createImage({ disk_id: 1001 }, RESTRICTED_TOKEN)).status).toBe(403);
    setGrants(svc, (g) => {
      g.vm[0]!.permissions = 'read_write';
    });
    const made = await createImage({ disk_id: 1001, label: 'ops image' }, RESTRICTED_TOKEN);
    expect(made.status).toBe(200);
    expect(made.body.created_by).toBe('demo-ops');
    const grants = svc.store.get<{ grants: { image: unknown[] } }>('user', 2)!.grants.image;
    expect(grants).toEqual([{ id: made.body.id, permissions: 'read_write' }]);
    expect((await call(svc, 'PUT', `/images/${made.body.id}`, { token: RESTRICTED_TOKEN, body: { label: 'ops image 2' } })).status).toBe(200);
    expect((await call(svc, 'DELETE', `/images/${made.body.id}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect(svc.store.get<{ grants: { image: unknown[] } }>('user', 2)!.grants.image).toEqual([]);
  });

  it("shows a restricted user only the private images granted, read-only ones can't be changed", async () => {
    const shared = (await createImage({ disk_id: 1001, label: 'shared' })).body.id as string;
    const hidden = (await createImage({ disk_id: 2001, label: 'hidden' })).body.id as string;
    setGrants(svc, (g) => {
      g.image.push({ id: shared, permissions: 'read_only' });
    });
    const list = await call(svc, 'GET', '/images', { token: RESTRICTED_TOKEN });
    const ids = list.body.data.map((i: { id: string }) => i.id);
    expect(ids).toContain(shared);
    expect(ids).not.toContain(hidden);
    expect(list.body.results).toBe(PUBLIC_COUNT + 1);
    expect((await call(svc, 'GET', `/images/${shared}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'GET', `/images/${hidden}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'PUT', `/images/${shared}`, { token: RESTRICTED_TOKEN, body: { label: 'taken' } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/images/${hidden}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
  });
});

describe('persistence', () => {
  it('keeps private images across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-images-'));
    const data = join(dir, 'state.db');
    try {
      await svc.close();
      svc = await startTestService({ data });
      addInstance(svc, 101, { disks: [{ id: 1001, label: 'root', size: 9000 }] });
      const made = (await createImage({ disk_id: 1001, label: 'kept' })).body;
      await svc.close();
      svc = await startTestService({ data });
      expect((await call(svc, 'GET', `/images/${made.id}`)).body).toEqual(made);
      expect((await createImage({ disk_id: 1001, label: 'next' })).body.id).not.toBe(made.id);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('demo data', () => {
  it('captures two images from fitting root disks, adds a script with UDFs and registers instance tags', async () => {
    addInstance(svc, 103, { label: 'app-2', tags: ['prod', 'web'], disks: [{ id: 3001, label: 'swap', filesystem: 'swap' }, { id: 3002, label: 'root', size: 30000 }] });
    addInstance(svc, 104, { label: 'pg-primary', tags: ['prod'], disks: [{ id: 4001, label: 'root', size: 80000 }] });
    svc.store.tx(() => seedImagesDemo(svc.store, svc.sim));
    const mine = (await call(svc, 'GET', '/images', { filter: { is_public: false } })).body.data;
    expect(mine.map((i: { label: string; size: number }) => [i.label, i.size])).toEqual([
      ['golden-web-2026-10', 25088],
      ['db-base', 40000],
    ]);
    const scripts = (await call(svc, 'GET', '/vm/stackscripts', { filter: { is_public: false } })).body.data;
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({ label: 'team-bootstrap', username: 'demo-owner', images: ['vm/debian12', 'vm/ubuntu24.04', mine[0].id] });
    expect(scripts[0].user_defined_fields.map((f: { name: string }) => f.name)).toEqual(['hostname', 'admin_user', 'environment', 'packages']);
    expect(parseUdfs(scripts[0].script)).toEqual(scripts[0].user_defined_fields);
    const tags = (await call(svc, 'GET', '/tags')).body.data.map((t: { label: string }) => t.label);
    expect(tags.sort()).toEqual(['prod', 'web']);
  });
});
