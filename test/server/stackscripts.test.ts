import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import type { AccountEvent } from '../../src/server/events.js';
import { parseUdfs, scriptProblem, stackscriptDataErrors } from '../../src/model/stackscripts.js';
import { addInstance, scopedToken, setGrants } from './images-fixtures.js';

let svc: RunningService;
beforeEach(async () => {
  svc = await startTestService();
});
afterEach(() => svc.close());

const SCRIPT = [
  '#!/bin/bash',
  '# <UDF name="hostname" label="Server hostname" example="web1" />',
  "# <UDF name='role' label='Role' oneOf='web,db' default='web'/>",
  '# <UDF label="Extras" manyOf="git,htop,vim" name="extras" default="git,vim" />',
  'echo "$HOSTNAME"',
].join('\n');

const VALID = { label: 'bootstrap', images: ['vm/debian12'], script: SCRIPT, description: 'Base setup', rev_note: 'first' };

const create = (body: unknown, token?: string) => call(svc, 'POST', '/vm/stackscripts', { body, token });
const actions = () => svc.store.all<AccountEvent>('event').map((e) => e.action);
const ids = (reply: { body: { data: { id: string }[] } }) => reply.body.data.map((s) => s.id);

describe('user-defined fields', () => {
  it('parses UDF tags whatever the attribute order and quotes, keeping only given optional keys', () => {
    expect(parseUdfs(SCRIPT)).toEqual([
      { label: 'Server hostname', name: 'hostname', example: 'web1' },
      { label: 'Role', name: 'role', example: '', oneOf: 'web,db', default: 'web' },
      { label: 'Extras', name: 'extras', example: '', manyOf: 'git,htop,vim', default: 'git,vim' },
    ]);
    expect(parseUdfs('#!/bin/sh\necho none')).toEqual([]);
  });

  it('requires a shebang and well-formed tags', () => {
    expect(scriptProblem(SCRIPT)).toBeNull();
    expect(scriptProblem('echo hi')).toMatch(/#!/);
    expect(scriptProblem('#!/bin/sh\n# <UDF label="x"/>')).toMatch(/needs a name/);
    expect(scriptProblem('#!/bin/sh\n# <UDF name="9x" label="x"/>')).toMatch(/name may contain/);
    expect(scriptProblem('#!/bin/sh\n# <UDF name="a" label="x"/><UDF name="a" label="y"/>')).toMatch(/used by another/);
    expect(scriptProblem('#!/bin/sh\n# <UDF name="a" label="x" oneOf="p,q" default="r"/>')).toMatch(/default must be among/);
    expect(scriptProblem('#!/bin/sh\n# <UDF name="a" label="x" oneOf="p" manyOf="q"/>')).toMatch(/not both/);
  });

  it('checks deployment answers against the fields', () => {
    const fields = parseUdfs(SCRIPT);
    expect(stackscriptDataErrors(fields, { hostname: 'h1' })).toEqual([]);
    expect(stackscriptDataErrors(fields, { hostname: 'h1', role: 'db', extras: 'htop,vim' })).toEqual([]);
    const errors = stackscriptDataErrors(fields, { role: 'cache', extras: 'git,emacs', other: 'x' });
    expect(errors.map((e) => e.field).sort()).toEqual([
      'stackscript_data.extras',
      'stackscript_data.hostname',
      'stackscript_data.other',
      'stackscript_data.role',
    ]);
    expect(stackscriptDataErrors(fields, { hostname: 5 })[0]!.reason).toMatch(/string/);
  });
});

describe('POST /vm/stackscripts', () => {
  it('creates a private script with the full StackScript shape', async () => {
    const r = await create(VALID);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: '10004',
      username: 'demo-owner',
      user_gravatar_id: createHash('md5').update('demo-owner@example.com').digest('hex'),
      label: 'bootstrap',
      description: 'Base setup',
      images: ['vm/debian12'],
      deployments_total: 0,
      deployments_active: 0,
      is_public: false,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      updated: r.body.created,
      rev_note: 'first',
      script: SCRIPT,
      user_defined_fields: parseUdfs(SCRIPT),
    });
    expect(actions()).toContain('stackscript_create');
    expect((await call(svc, 'GET', '/vm/stackscripts/10004')).body).toEqual(r.body);
  });

  it('reports every problem at once: required fields, lengths, types, images, the script', async () => {
    const missing = await create({});
    expect(missing.status).toBe(400);
    expect(errorFields(missing).sort()).toEqual(['images', 'label', 'script']);
    const bad = await create({ label: 'ab', images: ['vm/debian12', 'vm/nope', 'private/77'], script: 'echo no shebang', is_public: 'yes', mine: true });
    expect(bad.status).toBe(400);
    expect(errorFields(bad).sort()).toEqual(['images.1', 'images.2', 'is_public', 'label', 'script']);
    expect(bad.headers['x-ignored-fields']).toBe('mine');
    expect(errorFields(await create({ ...VALID, images: [] }))).toEqual(['images']);
    expect(errorFields(await create({ ...VALID, label: 'x'.repeat(129) }))).toEqual(['label']);
    expect(errorFields(await create({ ...VALID, script: '#!/bin/sh\n<UDF label="no name"/>' }))).toEqual(['script']);
    expect(svc.store.count('stackscript')).toBe(3);
  });

  it("accepts the account's private images", async () => {
    addInstance(svc, 101, { disks: [{ id: 1001, label: 'root' }] });
    const image = (await call(svc, 'POST', '/images', { body: { disk_id: 1001, label: 'gold' } })).body.id;
    const r = await create({ ...VALID, images: [image, 'vm/rocky9'] });
    expect(r.status).toBe(200);
    expect(r.body.images).toEqual([image, 'vm/rocky9']);
  });
});

describe('GET /vm/stackscripts', () => {
  it('lists public scripts without a token and adds private ones with a token', async () => {
    const mine = (await create(VALID)).body;
    const anon = await call(svc, 'GET', '/vm/stackscripts', { token: null });
    expect(anon.status).toBe(200);
    expect(anon.body).toMatchObject({ page: 1, pages: 1, results: 3 });
    expect(ids(anon)).toEqual(['10001', '10002', '10003']);
    expect(anon.body.data[0]).toMatchObject({
      id: '10001',
      username: 'vm',
      is_public: true,
      user_defined_fields: [
        { name: 'hostname', label: 'Server hostname', example: 'web1' },
        { name: 'tls', label: 'Enable TLS', example: '', oneOf: 'yes,no', default: 'yes' },
      ],
    });
    const authed = await call(svc, 'GET', '/vm/stackscripts');
    expect(ids(authed)).toEqual(['10001', '10002', '10003', mine.id]);
  });

  it('filters on label, description, is_public, rev_note and deployments_total', async () => {
    await create(VALID);
    const list = async (filter: unknown) => ids(await call(svc, 'GET', '/vm/stackscripts', { filter }));
    expect(await list({ label: 'docker-host' })).toEqual(['10002']);
    expect(await list({ description: { '+contains': 'PostgreSQL' } })).toEqual(['10003']);
    expect(await list({ is_public: false })).toEqual(['10004']);
    expect(await list({ rev_note: 'first' })).toEqual(['10004']);
    expect(await list({ deployments_total: { '+gte': 900 } })).toEqual(['10001', '10002']);
    expect((await call(svc, 'GET', '/vm/stackscripts', { filter: { script: '#!' } })).status).toBe(400);
  });

  it('needs stackscripts:read_only when a token is sent, and a token for one script', async () => {
    const token = scopedToken(svc, 'vms-only-token-0000000000000', 'vms:read_only');
    expect((await call(svc, 'GET', '/vm/stackscripts', { token })).status).toBe(403);
    expect((await call(svc, 'GET', '/vm/stackscripts/10001', { token })).status).toBe(403);
    expect((await call(svc, 'GET', '/vm/stackscripts/10001', { token: null })).status).toBe(401);
    expect((await call(svc, 'GET', '/vm/stackscripts/99999')).status).toBe(404);
  });
});

describe('PUT /vm/stackscripts/{id}', () => {
  it('changes fields, re-parses the UDFs and emits the matching events', async () => {
    const id = (await create(VALID)).body.id;
    const relabel = await call(svc, 'PUT', `/vm/stackscripts/${id}`, { body: { label: 'bootstrap-2', rev_note: 'renamed' } });
    expect(relabel.status).toBe(200);
    expect(relabel.body).toMatchObject({ label: 'bootstrap-2', rev_note: 'renamed', script: SCRIPT });
    expect(actions().at(-1)).toBe('stackscript_update');
    const newScript = '#!/bin/bash\n# <UDF name="port" label="Port" default="8080"/>\n';
    const revised = await call(svc, 'PUT', `/vm/stackscripts/${id}`, { body: { script: newScript } });
    expect(revised.body.user_defined_fields).toEqual([{ name: 'port', label: 'Port', example: '', default: '8080' }]);
    expect(actions().at(-1)).toBe('stackscript_revise');
    const published = await call(svc, 'PUT', `/vm/stackscripts/${id}`, { body: { is_public: true } });
    expect(published.body.is_public).toBe(true);
    expect(actions().at(-1)).toBe('stackscript_publicize');
    expect((await call(svc, 'GET', '/vm/stackscripts', { token: null, filter: { label: 'bootstrap-2' } })).body.results).toBe(1);
  });

  it('never makes a public script private again', async () => {
    const id = (await create({ ...VALID, is_public: true })).body.id;
    const r = await call(svc, 'PUT', `/vm/stackscripts/${id}`, { body: { is_public: false, label: 'still public' } });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['is_public']);
    expect((await call(svc, 'GET', `/vm/stackscripts/${id}`)).body).toMatchObject({ is_public: true, label: 'bootstrap' });
    expect((await call(svc, 'PUT', `/vm/stackscripts/${id}`, { body: { is_public: true } })).status).toBe(200);
  });

  it("validates like create, and refuses the provider's scripts", async () => {
    const id = (await create(VALID)).body.id;
    const bad = await call(svc, 'PUT', `/vm/stackscripts/${id}`, { body: { images: [], script: 'no', username: 'x' } });
    expect(bad.status).toBe(400);
    expect(errorFields(bad).sort()).toEqual(['images', 'script']);
    const ref = await call(svc, 'PUT', '/vm/stackscripts/10001', { body: { label: 'taken over' } });
    expect(ref.status).toBe(403);
  });
});

describe('DELETE /vm/stackscripts/{id}', () => {
  it('deletes a private script', async () => {
    const id = (await create(VALID)).body.id;
    const r = await call(svc, 'DELETE', `/vm/stackscripts/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect((await call(svc, 'GET', `/vm/stackscripts/${id}`)).status).toBe(404);
    expect(actions()).toContain('stackscript_delete');
  });

  it('refuses public scripts: 400 for the account’s own, 403 for the provider’s', async () => {
    const id = (await create({ ...VALID, is_public: true })).body.id;
    const own = await call(svc, 'DELETE', `/vm/stackscripts/${id}`);
    expect(own.status).toBe(400);
    expect(own.body.errors[0].reason).toMatch(/public/i);
    expect((await call(svc, 'DELETE', '/vm/stackscripts/10002')).status).toBe(403);
    expect(svc.store.count('stackscript')).toBe(4);
  });
});

describe('scopes and grants', () => {
  it('needs stackscripts:read_write to write', async () => {
    const id = (await create(VALID)).body.id;
    const token = scopedToken(svc, 'ss-readonly-token-00000000000', 'stackscripts:read_only');
    expect((await create(VALID, token)).status).toBe(403);
    expect((await call(svc, 'PUT', `/vm/stackscripts/${id}`, { token, body: { label: 'abc' } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/vm/stackscripts/${id}`, { token })).status).toBe(403);
    expect((await call(svc, 'GET', `/vm/stackscripts/${id}`, { token })).status).toBe(200);
  });

  it('lets a restricted user with add_stackscripts own scripts; others stay hidden unless granted', async () => {
    const ownerScript = (await create(VALID)).body.id;
    expect((await create(VALID, RESTRICTED_TOKEN)).status).toBe(403);
    setGrants(svc, (g) => {
      g.global.add_stackscripts = true;
    });
    const made = await create({ ...VALID, label: 'ops script' }, RESTRICTED_TOKEN);
    expect(made.status).toBe(200);
    expect(made.body.username).toBe('demo-ops');
    const list = await call(svc, 'GET', '/vm/stackscripts', { token: RESTRICTED_TOKEN });
    expect(ids(list)).toEqual(['10001', '10002', '10003', made.body.id]);
    expect((await call(svc, 'GET', `/vm/stackscripts/${ownerScript}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'PUT', `/vm/stackscripts/${made.body.id}`, { token: RESTRICTED_TOKEN, body: { rev_note: 'v2' } })).status).toBe(200);
    // The unrestricted owner sees every script of the account.
    expect(ids(await call(svc, 'GET', '/vm/stackscripts'))).toEqual(['10001', '10002', '10003', ownerScript, made.body.id]);
    setGrants(svc, (g) => {
      g.stackscript.push({ id: ownerScript, permissions: 'read_only' });
    });
    expect((await call(svc, 'GET', `/vm/stackscripts/${ownerScript}`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'PUT', `/vm/stackscripts/${ownerScript}`, { token: RESTRICTED_TOKEN, body: { rev_note: 'x' } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `/vm/stackscripts/${ownerScript}`, { token: RESTRICTED_TOKEN })).status).toBe(403);
  });
});

describe('persistence', () => {
  it('keeps scripts and their ID sequence across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-scripts-'));
    const data = join(dir, 'state.db');
    try {
      await svc.close();
      svc = await startTestService({ data });
      const made = (await create(VALID)).body;
      await svc.close();
      svc = await startTestService({ data });
      expect((await call(svc, 'GET', `/vm/stackscripts/${made.id}`)).body).toEqual(made);
      expect((await create({ ...VALID, label: 'second' })).body.id).toBe('10005');
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
