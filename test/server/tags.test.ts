import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import type { AccountEvent } from '../../src/server/events.js';
import { registerTags } from '../../src/server/tagging.js';
import { addInstance, addNodeBalancer, scopedToken, setGrants } from './images-fixtures.js';

let svc: RunningService;
beforeEach(async () => {
  svc = await startTestService();
  addInstance(svc, 101, { label: 'web-1', tags: ['prod'] });
  addInstance(svc, 102, { label: 'web-2' });
  addNodeBalancer(svc, 301, { label: 'front-lb' });
});
afterEach(() => svc.close());

const tagsOf = (kind: string, id: number) => svc.store.get<{ tags: string[] }>(kind, id)!.tags;
const labels = async (token?: string) => (await call(svc, 'GET', '/tags', { token })).body.data.map((t: { label: string }) => t.label);
const actions = () => svc.store.all<AccountEvent>('event').map((e) => e.action);

describe('POST /tags', () => {
  it('creates a tag and tags the listed instances and balancers', async () => {
    const r = await call(svc, 'POST', '/tags', { body: { label: 'web tier', vms: [101, 102], nodebalancers: [301] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ label: 'web tier' });
    expect(tagsOf('vm', 101)).toEqual(['prod', 'web tier']);
    expect(tagsOf('vm', 102)).toEqual(['web tier']);
    expect(tagsOf('nodebalancer', 301)).toEqual(['web tier']);
    expect(await labels()).toEqual(['web tier']);
    expect(actions()).toEqual(['tag_create']);
  });

  it('creates nothing when a listed object is missing, naming each bad ID', async () => {
    const r = await call(svc, 'POST', '/tags', { body: { label: 'doomed', vms: [101, 999], nodebalancers: [301, 998], domains: [5], volumes: [6] } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['domains.0', 'nodebalancers.1', 'vms.1', 'volumes.0']);
    expect(r.body.errors.find((e: { field: string }) => e.field === 'vms.1').reason).toMatch(/999 not found/);
    expect(await labels()).toEqual([]);
    expect(tagsOf('vm', 101)).toEqual(['prod']);
    expect(tagsOf('nodebalancer', 301)).toEqual([]);
    expect(actions()).toEqual([]);
  });

  it('creates nothing when the token may not write a listed object', async () => {
    const token = scopedToken(svc, 'account-only-token-0000000000', 'account:read_write nodebalancers:read_write');
    const r = await call(svc, 'POST', '/tags', { token, body: { label: 'partial', vms: [101], nodebalancers: [301] } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'vms.0', reason: expect.stringMatching(/write access to vm 101/) }]);
    expect(await labels()).toEqual([]);
    expect(tagsOf('nodebalancer', 301)).toEqual([]);
    const ok = await call(svc, 'POST', '/tags', { token, body: { label: 'partial', nodebalancers: [301] } });
    expect(ok.status).toBe(200);
  });

  it('validates the label and the ID lists, all problems at once', async () => {
    const r = await call(svc, 'POST', '/tags', { body: { label: 'ab', vms: ['101'], nodebalancers: 301, color: 'red' } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['label', 'nodebalancers', 'vms.0']);
    expect(r.headers['x-ignored-fields']).toBe('color');
    expect(errorFields(await call(svc, 'POST', '/tags', { body: {} }))).toEqual(['label']);
    expect(errorFields(await call(svc, 'POST', '/tags', { body: { label: 'x'.repeat(51) } }))).toEqual(['label']);
    expect((await call(svc, 'POST', '/tags', { body: { label: 'x'.repeat(50) } })).status).toBe(200);
  });

  it('refuses an existing label', async () => {
    expect((await call(svc, 'POST', '/tags', { body: { label: 'staging' } })).status).toBe(200);
    const again = await call(svc, 'POST', '/tags', { body: { label: 'staging', vms: [102] } });
    expect(again.status).toBe(400);
    expect(errorFields(again)).toEqual(['label']);
    expect(tagsOf('vm', 102)).toEqual([]);
  });

  it('lists tags other areas registered, without duplicating a tag an object already has', async () => {
    svc.store.tx(() => registerTags(svc.store, ['prod']));
    expect(await labels()).toEqual(['prod']);
    expect((await call(svc, 'POST', '/tags', { body: { label: 'prod' } })).status).toBe(400);
    expect((await call(svc, 'POST', '/tags', { body: { label: 'blue', vms: [101, 101] } })).status).toBe(200);
    expect(tagsOf('vm', 101)).toEqual(['prod', 'blue']);
  });
});

describe('GET /tags and /tags/{label}', () => {
  it('pages tags as {label}', async () => {
    for (let i = 0; i < 30; i++) await call(svc, 'POST', '/tags', { body: { label: `tag-${String(i).padStart(2, '0')}` } });
    const page2 = await call(svc, 'GET', '/tags?page=2&page_size=25');
    expect(page2.body).toMatchObject({ page: 2, pages: 2, results: 30 });
    expect(page2.body.data).toEqual([{ label: 'tag-25' }, { label: 'tag-26' }, { label: 'tag-27' }, { label: 'tag-28' }, { label: 'tag-29' }]);
    expect((await call(svc, 'GET', '/tags?page_size=10')).status).toBe(400);
  });

  it('lists every object carrying a tag as {type, data}, each as its own area presents it', async () => {
    await call(svc, 'POST', '/tags', { body: { label: 'web tier', vms: [101], nodebalancers: [301] } });
    const r = await call(svc, 'GET', `/tags/${encodeURIComponent('web tier')}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, pages: 1, results: 2 });
    expect(r.body.data.map((o: { type: string }) => o.type)).toEqual(['vm', 'nodebalancer']);
    expect(r.body.data[0].data).toEqual((await call(svc, 'GET', '/vm/instances/101')).body);
    expect(r.body.data[0].data).toMatchObject({ id: 101, label: 'web-1', tags: ['prod', 'web tier'], status: 'running' });
    expect(r.body.data[0].data).not.toHaveProperty('_root_pass_hash');
    expect(r.body.data[1].data).toEqual((await call(svc, 'GET', '/nodebalancers/301')).body);
    expect(r.body.data[1].data).toMatchObject({ id: 301, label: 'front-lb', tags: ['web tier'] });
    expect((await call(svc, 'GET', '/tags/nowhere')).status).toBe(404);
  });

  it('pages the tagged objects', async () => {
    for (let id = 500; id < 530; id++) addInstance(svc, id, { tags: ['fleet'] });
    svc.store.tx(() => registerTags(svc.store, ['fleet']));
    const r = await call(svc, 'GET', '/tags/fleet?page=2&page_size=25');
    expect(r.body).toMatchObject({ page: 2, pages: 2, results: 30 });
    expect(r.body.data.map((o: { data: { id: number } }) => o.data.id)).toEqual([525, 526, 527, 528, 529]);
  });

  it('shows a restricted user only the objects they may see', async () => {
    await call(svc, 'POST', '/tags', { body: { label: 'web tier', vms: [101, 102], nodebalancers: [301] } });
    setGrants(svc, (g) => {
      g.vm.push({ id: 102, permissions: 'read_only' });
    });
    const r = await call(svc, 'GET', '/tags/web tier', { token: RESTRICTED_TOKEN });
    expect(r.status).toBe(200);
    expect(r.body.results).toBe(1);
    expect(r.body.data[0]).toMatchObject({ type: 'vm', data: { id: 102 } });
    expect(await labels(RESTRICTED_TOKEN)).toEqual(['web tier']);
  });

  it('needs account scopes', async () => {
    const vmsOnly = scopedToken(svc, 'vms-only-token-0000000000000', 'vms:read_write');
    expect((await call(svc, 'GET', '/tags', { token: vmsOnly })).status).toBe(403);
    expect((await call(svc, 'GET', '/tags/prod', { token: vmsOnly })).status).toBe(403);
    const readOnly = scopedToken(svc, 'account-ro-token-000000000000', 'account:read_only vms:read_write');
    expect((await call(svc, 'POST', '/tags', { token: readOnly, body: { label: 'nope' } })).status).toBe(403);
    expect((await call(svc, 'GET', '/tags', { token: null })).status).toBe(401);
  });
});

describe('DELETE /tags/{label}', () => {
  it('removes the tag from every object, then deletes it', async () => {
    await call(svc, 'POST', '/tags', { body: { label: 'web tier', vms: [101, 102], nodebalancers: [301] } });
    const r = await call(svc, 'DELETE', '/tags/web%20tier');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(tagsOf('vm', 101)).toEqual(['prod']);
    expect(tagsOf('vm', 102)).toEqual([]);
    expect(tagsOf('nodebalancer', 301)).toEqual([]);
    expect(await labels()).toEqual([]);
    expect((await call(svc, 'GET', '/tags/web tier')).status).toBe(404);
    expect((await call(svc, 'DELETE', '/tags/web tier')).status).toBe(404);
    expect(actions()).toEqual(['tag_create', 'tag_delete']);
  });
});

describe('restricted users', () => {
  it('may not create or delete tags, even with full account access', async () => {
    await call(svc, 'POST', '/tags', { body: { label: 'prod-db' } });
    setGrants(svc, (g) => {
      g.global.account_access = 'read_write';
      g.vm.push({ id: 102, permissions: 'read_write' });
    });
    const create = await call(svc, 'POST', '/tags', { token: RESTRICTED_TOKEN, body: { label: 'ops', vms: [102] } });
    expect(create.status).toBe(403);
    expect(tagsOf('vm', 102)).toEqual([]);
    expect((await call(svc, 'DELETE', '/tags/prod-db', { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect(await labels()).toEqual(['prod-db']);
  });
});

describe('persistence', () => {
  it('keeps tags and tagged objects across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-tags-'));
    const data = join(dir, 'state.db');
    try {
      await svc.close();
      svc = await startTestService({ data });
      addInstance(svc, 101);
      await call(svc, 'POST', '/tags', { body: { label: 'kept', vms: [101] } });
      await svc.close();
      svc = await startTestService({ data });
      expect(await labels()).toEqual(['kept']);
      expect((await call(svc, 'GET', '/tags/kept')).body.data[0].data.id).toBe(101);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
