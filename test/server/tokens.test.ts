import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { issueToken, newTokenValue, type TokenRecord } from '../../src/server/auth.js';
import { isoSeconds } from '../../src/model/time.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

function mint(scopes: string, user_id = 1, client?: string): { value: string; id: number } {
  const value = newTokenValue();
  const record = svc.store.tx(() => issueToken(svc.store, value, { user_id, label: 'minted', scopes, client }));
  return { value, id: record.id };
}

const lastEvent = () => svc.store.all<{ action: string; username: string; entity: Record<string, unknown> }>('event').at(-1);
const HOUR = 3_600_000;

describe('creating a personal access token', () => {
  it('returns the full value only in the creation response; later reads show 16 characters', async () => {
    const expiry = isoSeconds(Date.now() + 24 * HOUR);
    const r = await call(svc, 'POST', '/profile/tokens', { body: { label: 'ci', scopes: 'vms:read_only account:read_only', expiry } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(Number), label: 'ci', scopes: 'vms:read_only account:read_only', created: expect.any(String), expiry, token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(lastEvent()).toMatchObject({ action: 'token_create', username: 'demo-owner', entity: { id: r.body.id, label: 'ci', type: 'token', url: `/v4/profile/tokens/${r.body.id}` } });

    const full: string = r.body.token;
    const one = await call(svc, 'GET', `/profile/tokens/${r.body.id}`);
    expect(one.body).toEqual({ ...r.body, token: full.slice(0, 16) });
    const list = await call(svc, 'GET', '/profile/tokens');
    expect(list.body.data.find((t: { id: number }) => t.id === r.body.id)).toEqual(one.body);
    expect(JSON.stringify(list.body)).not.toContain(full);

    expect((await call(svc, 'GET', '/profile/tokens', { token: full })).status).toBe(200);
    const write = await call(svc, 'POST', '/profile/tokens', { token: full, body: {} });
    expect(write.status).toBe(403);
    expect(write.body.errors[0].reason).toContain('account:read_write');
  });

  it('defaults the label, the scopes to the acting token’s, and the expiry to never', async () => {
    const acting = mint('account:read_write vms:read_only');
    const r = await call(svc, 'POST', '/profile/tokens', { token: acting.value });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ label: `token-${r.body.id}`, scopes: 'account:read_write vms:read_only', expiry: null });
    const z = await call(svc, 'POST', '/profile/tokens', { body: { expiry: '2999-01-02T03:04:05Z' } });
    expect(z.body).toMatchObject({ scopes: '*', expiry: '2999-01-02T03:04:05' });
  });

  it('rejects every bad field at once', async () => {
    const r = await call(svc, 'POST', '/profile/tokens', { body: { label: '', scopes: 'root:everything', expiry: 'tomorrow', token: 'mine', colour: 'red' } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['expiry', 'label', 'scopes']);
    expect(r.headers['x-ignored-fields']).toBe('colour');
    expect(errorFields(await call(svc, 'POST', '/profile/tokens', { body: { label: 'x'.repeat(101) } }))).toEqual(['label']);
    expect((await call(svc, 'POST', '/profile/tokens', { body: { label: 'x'.repeat(100) } })).status).toBe(200);
    const past = await call(svc, 'POST', '/profile/tokens', { body: { expiry: isoSeconds(Date.now() - 60_000) } });
    expect(errorFields(past)).toEqual(['expiry']);
    expect(past.body.errors[0].reason).toMatch(/future/);
  });

  it('never exceeds the scopes of the token making the request', async () => {
    const acting = mint('account:read_write vms:read_only');
    for (const scopes of ['*', 'vms:read_write', 'account:read_write images:read_only']) {
      const r = await call(svc, 'POST', '/profile/tokens', { token: acting.value, body: { scopes } });
      expect(r.status, scopes).toBe(400);
      expect(r.body.errors).toEqual([{ field: 'scopes', reason: expect.stringMatching(/exceed those of the token making the request/) }]);
    }
    const narrower = await call(svc, 'POST', '/profile/tokens', { token: acting.value, body: { scopes: 'account:read_only,vms:read_only' } });
    expect(narrower.status).toBe(200);

    const ops = mint('account:read_write', 2);
    expect((await call(svc, 'POST', '/profile/tokens', { token: ops.value, body: { scopes: '*' } })).status).toBe(400);
    const opsToken = await call(svc, 'POST', '/profile/tokens', { token: RESTRICTED_TOKEN, body: { label: 'ops', scopes: 'vms:read_only' } });
    expect(opsToken.status).toBe(200);
    expect((await call(svc, 'GET', '/profile', { token: opsToken.body.token })).body.username).toBe('demo-ops');
  });

  it('an expired token gets 401', async () => {
    const r = await call(svc, 'POST', '/profile/tokens', { body: { label: 'short', expiry: isoSeconds(Date.now() + HOUR) } });
    const row = svc.store.get<TokenRecord>('token', r.body.id)!;
    svc.store.tx(() => svc.store.put('token', r.body.id, { ...row, expiry: isoSeconds(Date.now() - 1000) }));
    expect((await call(svc, 'GET', '/profile', { token: r.body.token })).status).toBe(401);
  });
});

describe('reading, renaming and revoking tokens', () => {
  it('filters the list on label and created, and refuses other fields', async () => {
    await call(svc, 'POST', '/profile/tokens', { body: { label: 'filter-me' } });
    const byLabel = await call(svc, 'GET', '/profile/tokens', { filter: { label: 'filter-me' } });
    expect(byLabel.body.data.map((t: { label: string }) => t.label)).toEqual(['filter-me']);
    const recent = await call(svc, 'GET', '/profile/tokens', { filter: { created: { '+gte': isoSeconds(Date.now() - HOUR) }, '+order_by': 'label', '+order': 'desc' } });
    const labels = recent.body.data.map((t: { label: string }) => t.label);
    expect(labels).toContain('filter-me');
    expect(labels).toEqual([...labels].sort().reverse());
    expect((await call(svc, 'GET', '/profile/tokens', { filter: { scopes: '*' } })).status).toBe(400);
  });

  it('renames a token; scopes and expiry are fixed at creation', async () => {
    const { body: t } = await call(svc, 'POST', '/profile/tokens', { body: { label: 'old', scopes: 'vms:read_only' } });
    const r = await call(svc, 'PUT', `/profile/tokens/${t.id}`, { body: { label: 'new' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...t, label: 'new', token: t.token.slice(0, 16) });
    expect(lastEvent()).toMatchObject({ action: 'token_update', entity: { id: t.id, label: 'new' } });
    const fixed = await call(svc, 'PUT', `/profile/tokens/${t.id}`, { body: { scopes: '*', expiry: '2999-01-01T00:00:00', label: '' } });
    expect(fixed.status).toBe(400);
    expect(errorFields(fixed).sort()).toEqual(['expiry', 'label', 'scopes']);
    expect((await call(svc, 'PUT', `/profile/tokens/${t.id}`, { body: { scopes: 'vms:read_only', expiry: null, label: 'same' } })).status).toBe(200);
  });

  it('revoking a token rejects it with 401 at once', async () => {
    const { body: t } = await call(svc, 'POST', '/profile/tokens', { body: { label: 'doomed' } });
    expect((await call(svc, 'GET', '/profile', { token: t.token })).status).toBe(200);
    const del = await call(svc, 'DELETE', `/profile/tokens/${t.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect(lastEvent()).toMatchObject({ action: 'token_delete', entity: { id: t.id, label: 'doomed', type: 'token' } });
    expect((await call(svc, 'GET', '/profile', { token: t.token })).status).toBe(401);
    expect((await call(svc, 'GET', `/profile/tokens/${t.id}`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `/profile/tokens/${t.id}`)).status).toBe(404);
  });

  it('a token may revoke itself', async () => {
    const { body: t } = await call(svc, 'POST', '/profile/tokens', { body: { label: 'self', scopes: 'account:read_write' } });
    const del = await call(svc, 'DELETE', `/profile/tokens/${t.id}`, { token: t.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    const after = await call(svc, 'GET', '/profile', { token: t.token });
    expect(after.status).toBe(401);
  });

  it('users see only their own personal tokens; app tokens are not listed', async () => {
    const { body: mine } = await call(svc, 'POST', '/profile/tokens', { body: { label: 'owner-only' } });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await call(svc, method, `/profile/tokens/${mine.id}`, { token: RESTRICTED_TOKEN, body: method === 'PUT' ? { label: 'stolen' } : undefined });
      expect(r.status, method).toBe(404);
    }
    const theirs = await call(svc, 'GET', '/profile/tokens', { token: RESTRICTED_TOKEN });
    expect(theirs.body.data.map((t: { label: string }) => t.label)).not.toContain('owner-only');
    expect((await call(svc, 'GET', '/profile', { token: mine.token })).status).toBe(200);

    const app = mint('vms:read_only', 1, 'oauth-grafana');
    const list = await call(svc, 'GET', '/profile/tokens');
    expect(list.body.data.map((t: { id: number }) => t.id)).not.toContain(app.id);
    expect((await call(svc, 'GET', `/profile/tokens/${app.id}`)).status).toBe(404);
  });
});

describe('persistence', () => {
  it('a created token still works after a restart, and only its hash and prefix are stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-tokens-'));
    const data = join(dir, 'state.db');
    try {
      let s = await startTestService({ data });
      const { body: t } = await call(s, 'POST', '/profile/tokens', { body: { label: 'durable', scopes: 'account:read_only' } });
      const rows = s.store.db.prepare("SELECT key, data FROM rows WHERE kind = 'token'").all() as { key: string; data: string }[];
      const row = rows.find((r) => JSON.parse(r.data).id === t.id)!;
      expect(row.data).not.toContain(t.token);
      expect(row.key).not.toContain(t.token);
      expect(JSON.parse(row.data).token).toBe(t.token.slice(0, 16));
      await s.close();

      for (const file of [data, `${data}-wal`]) {
        if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(t.token))).toBe(false);
      }

      s = await startTestService({ data });
      try {
        const me = await call(s, 'GET', '/profile/tokens', { token: t.token });
        expect(me.status).toBe(200);
        expect(me.body.data.map((x: { label: string }) => x.label)).toContain('durable');
        await call(s, 'DELETE', `/profile/tokens/${t.id}`);
      } finally {
        await s.close();
      }
      s = await startTestService({ data });
      try {
        expect((await call(s, 'GET', '/profile', { token: t.token })).status).toBe(401);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
