import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { sshKey } from '../../src/model/formats.js';
import { addInstance, ownerTokenWith, setRestrictedGrants } from './managed-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const contactBody = { name: 'Maria Alvarez', email: 'maria@example.com', phone: { primary: '+1 (215) 555-0142', secondary: null }, group: 'on-call' };

describe('managed contacts', () => {
  it('creates a contact and returns exactly the contact fields', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', { body: contactBody });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(Number), ...contactBody, updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
  });

  it('marks no field required: an empty body makes an empty contact', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', { body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: null, email: null, phone: { primary: null, secondary: null }, group: null });
  });

  it('reports every rule violation at once', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', {
      body: { name: 'M', email: 'not-an-email', phone: { primary: 'call me', secondary: '1'.repeat(33) }, group: 'x', extra: 1 },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['email', 'group', 'name', 'phone.primary', 'phone.secondary']);
    expect(r.headers['x-ignored-fields']).toBe('extra');
  });

  it('checks name length and characters and group length', async () => {
    const tooLong = await call(svc, 'POST', '/managed/contacts', { body: { name: 'a'.repeat(65), group: 'g'.repeat(51) } });
    expect(errorFields(tooLong).sort()).toEqual(['group', 'name']);
    const chars = await call(svc, 'POST', '/managed/contacts', { body: { name: 'Maria.Alvarez' } });
    expect(errorFields(chars)).toEqual(['name']);
    const edges = await call(svc, 'POST', '/managed/contacts', { body: { name: 'a'.repeat(64), group: 'g'.repeat(50) } });
    expect(edges.status).toBe(200);
  });

  it('lists contacts as a page and filters by group only', async () => {
    await call(svc, 'POST', '/managed/contacts', { body: { name: 'Jonas Becker', group: 'engineering' } });
    const all = await call(svc, 'GET', '/managed/contacts');
    expect(all.body).toMatchObject({ page: 1, pages: 1, results: all.body.data.length });
    const onCall = await call(svc, 'GET', '/managed/contacts', { filter: { group: 'on-call' } });
    expect(onCall.body.data.length).toBeGreaterThan(0);
    expect(onCall.body.data.every((c: { group: string }) => c.group === 'on-call')).toBe(true);
    expect((await call(svc, 'GET', '/managed/contacts', { filter: { name: 'Jonas Becker' } })).status).toBe(400);
  });

  it('updates with merge (phone fields kept), then deletes', async () => {
    const { body: c } = await call(svc, 'POST', '/managed/contacts', { body: contactBody });
    const put = await call(svc, 'PUT', `/managed/contacts/${c.id}`, { body: { phone: { secondary: '+1 215 555 0199' }, group: null } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Maria Alvarez', phone: { primary: '+1 (215) 555-0142', secondary: '+1 215 555 0199' }, group: null });
    expect((await call(svc, 'GET', `/managed/contacts/${c.id}`)).body).toEqual(put.body);
    expect((await call(svc, 'PUT', `/managed/contacts/${c.id}`, { body: { email: 'nope' } })).status).toBe(400);
    const del = await call(svc, 'DELETE', `/managed/contacts/${c.id}`);
    expect(del).toMatchObject({ status: 200, body: {} });
    expect((await call(svc, 'GET', `/managed/contacts/${c.id}`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `/managed/contacts/${c.id}`)).status).toBe(404);
  });

  it('keeps the seed scopes: viewing one contact needs account:read_write, the list read_only', async () => {
    const readOnly = ownerTokenWith(svc, 'account:read_only');
    const { body: c } = await call(svc, 'POST', '/managed/contacts', { body: contactBody });
    expect((await call(svc, 'GET', '/managed/contacts', { token: readOnly })).status).toBe(200);
    expect((await call(svc, 'GET', `/managed/contacts/${c.id}`, { token: readOnly })).status).toBe(403);
    expect((await call(svc, 'POST', '/managed/contacts', { token: readOnly, body: {} })).status).toBe(403);
    expect((await call(svc, 'GET', '/managed/contacts', { token: ownerTokenWith(svc, 'vms:read_write') })).status).toBe(403);
  });
});

describe('managed credentials', () => {
  it('creates a credential; username and password are never returned nor stored in clear', async () => {
    const r = await call(svc, 'POST', '/managed/credentials', { body: { label: 'prod-db root', username: 'postgres', password: 'hunter2-secret' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(Number), label: 'prod-db root', last_decrypted: null });
    const stored = JSON.stringify(svc.store.get('managed_credential', r.body.id));
    expect(stored).not.toContain('hunter2-secret');
    const list = await call(svc, 'GET', '/managed/credentials');
    expect(JSON.stringify(list.body)).not.toMatch(/password|username|postgres/);
  });

  it('requires the password; checks label length, characters and uniqueness, and username length', async () => {
    const missing = await call(svc, 'POST', '/managed/credentials', { body: { label: 'no-password' } });
    expect(errorFields(missing)).toEqual(['password']);
    const bad = await call(svc, 'POST', '/managed/credentials', { body: { label: 'x', username: 'u'.repeat(5001), password: 'p' } });
    expect(errorFields(bad).sort()).toEqual(['label', 'username']);
    expect(errorFields(await call(svc, 'POST', '/managed/credentials', { body: { label: 'a'.repeat(76), password: 'p' } }))).toEqual(['label']);
    expect(errorFields(await call(svc, 'POST', '/managed/credentials', { body: { label: 'bad/label', password: 'p' } }))).toEqual(['label']);
    await call(svc, 'POST', '/managed/credentials', { body: { label: 'shared', password: 'p' } });
    const dup = await call(svc, 'POST', '/managed/credentials', { body: { label: 'shared', password: 'p' } });
    expect(dup.status).toBe(400);
    expect(errorFields(dup)).toEqual(['label']);
  });

  it('gives an omitted label a unique default', async () => {
    const a = await call(svc, 'POST', '/managed/credentials', { body: { password: 'p' } });
    expect(a.status).toBe(200);
    expect(a.body.label).toBe(`credential-${a.body.id}`);
  });

  it('changes only the label with PUT (unique), and the secret through /update', async () => {
    const { body: c } = await call(svc, 'POST', '/managed/credentials', { body: { label: 'web.deploy', password: 'p1' } });
    await call(svc, 'POST', '/managed/credentials', { body: { label: 'taken', password: 'p' } });
    const put = await call(svc, 'PUT', `/managed/credentials/${c.id}`, { body: { label: 'web.deploy v2' } });
    expect(put.body).toEqual({ id: c.id, label: 'web.deploy v2', last_decrypted: null });
    expect((await call(svc, 'PUT', `/managed/credentials/${c.id}`, { body: { label: 'web.deploy v2' } })).status).toBe(200);
    expect(errorFields(await call(svc, 'PUT', `/managed/credentials/${c.id}`, { body: { label: 'taken' } }))).toEqual(['label']);
    expect(errorFields(await call(svc, 'PUT', `/managed/credentials/${c.id}`, { body: { password: 'x' } }))).toEqual(['password']);
    // The old label is free again.
    expect((await call(svc, 'POST', '/managed/credentials', { body: { label: 'web.deploy', password: 'p' } })).status).toBe(200);

    const before = JSON.stringify(svc.store.get('managed_credential', c.id));
    expect(errorFields(await call(svc, 'POST', `/managed/credentials/${c.id}/update`, { body: { username: 'deploy' } }))).toEqual(['password']);
    const upd = await call(svc, 'POST', `/managed/credentials/${c.id}/update`, { body: { username: 'deploy', password: 'p2' } });
    expect(upd).toMatchObject({ status: 200, body: {} });
    expect(JSON.stringify(svc.store.get('managed_credential', c.id))).not.toBe(before);
    expect((await call(svc, 'POST', '/managed/credentials/99999/update', { body: { password: 'p' } })).status).toBe(404);
  });

  it('deletes a credential (seed path) and drops it from services', async () => {
    const { body: c } = await call(svc, 'POST', '/managed/credentials', { body: { label: 'to-delete', password: 'p' } });
    const { body: s } = await call(svc, 'POST', '/managed/services', {
      body: { label: 'uses-cred', service_type: 'url', address: 'https://example.com', timeout: 10, credentials: [c.id] },
    });
    expect(s.credentials).toEqual([c.id]);
    expect(await call(svc, 'DELETE', `/managed/credentials/${c.id}`)).toMatchObject({ status: 200, body: {} });
    expect((await call(svc, 'GET', `/managed/credentials/${c.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', `/managed/services/${s.id}`)).body.credentials).toEqual([]);
  });

  it('serves one well-formed managed SSH key, the same every time', async () => {
    const a = await call(svc, 'GET', '/managed/credentials/sshkey');
    expect(a.status).toBe(200);
    expect(Object.keys(a.body)).toEqual(['ssh_key']);
    expect(a.body.ssh_key).toMatch(/^ssh-rsa AAAAB3NzaC1yc2E\S+ managedservices@vmcloud$/);
    expect(sshKey(a.body.ssh_key)).toBeNull();
    expect((await call(svc, 'GET', '/managed/credentials/sshkey')).body).toEqual(a.body);
  });
});

describe('managed stats', () => {
  it('returns five series of 288 five-minute points ending now', async () => {
    const r = await call(svc, 'GET', '/managed/stats');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['cpu', 'disk', 'net_in', 'net_out', 'swap']);
    for (const series of Object.values(r.body.data) as { x: number; y: number }[][]) {
      expect(series).toHaveLength(288);
      for (let i = 1; i < series.length; i++) expect(series[i]!.x - series[i - 1]!.x).toBe(300_000);
      expect(Date.now() - series.at(-1)!.x).toBeLessThan(300_000 + 5_000);
      expect(series.every((p) => Object.keys(p).join() === 'x,y' && typeof p.y === 'number' && p.y >= 0)).toBe(true);
    }
    const again = await call(svc, 'GET', '/managed/stats');
    const byX = new Map((again.body.data.cpu as { x: number; y: number }[]).map((p) => [p.x, p.y]));
    const shared = (r.body.data.cpu as { x: number; y: number }[]).filter((p) => byX.has(p.x));
    expect(shared.length).toBeGreaterThan(280);
    expect(shared.every((p) => byX.get(p.x) === p.y)).toBe(true);
  });

  it('is smooth: neighbouring cpu points differ far less than the daily range', async () => {
    const cpu = (await call(svc, 'GET', '/managed/stats')).body.data.cpu as { y: number }[];
    const ys = cpu.map((p) => p.y);
    const range = Math.max(...ys) - Math.min(...ys);
    const maxStep = Math.max(...ys.slice(1).map((y, i) => Math.abs(y - ys[i]!)));
    expect(range).toBeGreaterThan(5);
    expect(maxStep).toBeLessThan(range / 5);
  });
});

describe('restricted users and managed', () => {
  it('needs account_access: none → 403, read_only → reads only, read_write → writes', async () => {
    setRestrictedGrants(svc, () => {});
    expect((await call(svc, 'GET', '/managed/services', { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect((await call(svc, 'GET', '/managed/stats', { token: RESTRICTED_TOKEN })).status).toBe(403);
    setRestrictedGrants(svc, (g) => {
      g.global.account_access = 'read_only';
    });
    expect((await call(svc, 'GET', '/managed/contacts', { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'GET', '/managed/credentials/sshkey', { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'POST', '/managed/contacts', { token: RESTRICTED_TOKEN, body: {} })).status).toBe(403);
    setRestrictedGrants(svc, (g) => {
      g.global.account_access = 'read_write';
    });
    expect((await call(svc, 'POST', '/managed/contacts', { token: RESTRICTED_TOKEN, body: {} })).status).toBe(200);
  });
});

describe('managed persistence', () => {
  it('keeps contacts, credentials, services, settings and the ssh key across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-managed-'));
    const data = join(dir, 'store.sqlite');
    try {
      const first = await startTestService({ data });
      const { id: vmId } = addInstance(first, 'web-1');
      const contact = (await call(first, 'POST', '/managed/contacts', { body: contactBody })).body;
      const cred = (await call(first, 'POST', '/managed/credentials', { body: { label: 'kept', password: 'p' } })).body;
      const service = (await call(first, 'POST', '/managed/services', { body: { label: 'kept svc', service_type: 'tcp', address: 'db.example.com:5432', timeout: 5 } })).body;
      await call(first, 'PUT', `/managed/vm-settings/${vmId}`, { body: { ssh: { port: 2222 } } });
      const key = (await call(first, 'GET', '/managed/credentials/sshkey')).body;
      const stats = (await call(first, 'GET', '/managed/stats')).body.data.cpu[0];
      await first.close();

      const second = await startTestService({ data });
      try {
        expect((await call(second, 'GET', `/managed/contacts/${contact.id}`)).body).toEqual(contact);
        expect((await call(second, 'GET', `/managed/credentials/${cred.id}`)).body).toEqual(cred);
        expect((await call(second, 'GET', `/managed/services/${service.id}`)).body).toMatchObject({ label: 'kept svc', status: 'ok' });
        expect((await call(second, 'GET', `/managed/vm-settings/${vmId}`)).body.ssh.port).toBe(2222);
        expect((await call(second, 'GET', '/managed/credentials/sshkey')).body).toEqual(key);
        const cpu = (await call(second, 'GET', '/managed/stats')).body.data.cpu as { x: number; y: number }[];
        const same = cpu.find((p) => p.x === stats.x);
        if (same) expect(same.y).toBe(stats.y);
        expect(errorFields(await call(second, 'POST', '/managed/credentials', { body: { label: 'kept', password: 'p' } }))).toEqual(['label']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
