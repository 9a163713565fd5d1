import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticator } from 'otplib';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { issueToken, newTokenValue, type User } from '../../src/server/auth.js';
import { isoSeconds, parseApiTime } from '../../src/model/time.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKRPkNJHGt48HmaTyFyyGPCaRhcS7l9jT9HWjdCmTn18 owner@laptop';
const RSA_NO_COMMENT = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDbJoT8wcEzpIJnsPvzfYEbAt32+eGBq5dXFnGgyAVZKWsvyin/vstmpd90GM0Nyw52E/XzqFdzY0FUbchhadBT7R37TPjiU+eJO4pkBo7h4uI89pZ2VRtkfQdfIh1sAc8pvrbiVkRpMLMNmTW6b53teZRr3YJbb7MIJly7F2S8SQ==';

const user = (id: number) => svc.store.get<User>('user', id)!;
const actions = () => svc.store.all<{ action: string; entity: Record<string, unknown> }>('event').map((e) => e.action);

function mint(scopes: string): string {
  const value = newTokenValue();
  svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: 'limited', scopes }));
  return value;
}

describe('profile SSH keys', () => {
  it('adds a key, lists and shows it, and records user_ssh_key_add', async () => {
    const r = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'laptop', ssh_key: ED25519 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(Number), label: 'laptop', ssh_key: ED25519, created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) });
    const list = await call(svc, 'GET', '/profile/sshkeys');
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 1, data: [r.body] });
    expect((await call(svc, 'GET', `/profile/sshkeys/${r.body.id}`)).body).toEqual(r.body);
    const event = svc.store.all<{ action: string; entity: Record<string, unknown>; username: string }>('event').at(-1)!;
    expect(event).toMatchObject({ action: 'user_ssh_key_add', username: 'demo-owner', entity: { id: r.body.id, label: 'laptop', type: 'user_ssh_key', url: `/v4/profile/sshkeys/${r.body.id}` } });
  });

  it('names an unlabelled key by its comment, else by its type', async () => {
    expect((await call(svc, 'POST', '/profile/sshkeys', { body: { ssh_key: ED25519 } })).body.label).toBe('owner@laptop');
    expect((await call(svc, 'POST', '/profile/sshkeys', { body: { ssh_key: RSA_NO_COMMENT } })).body.label).toBe('ssh-rsa');
  });

  it('rejects every bad field of a new key at once', async () => {
    const r = await call(svc, 'POST', '/profile/sshkeys', { body: { label: '', color: 'red' } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['label', 'ssh_key']);
    expect(r.headers['x-ignored-fields']).toBe('color');
    const bad = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'x'.repeat(65), ssh_key: 'ed25519 AAAAC3NzaC1lZDI1NTE5' } });
    expect(errorFields(bad).sort()).toEqual(['label', 'ssh_key']);
    expect((await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'x'.repeat(64), ssh_key: ED25519 } })).status).toBe(200);
  });

  it('updates only the label (0..64); the key itself is immutable', async () => {
    const { body: key } = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'ci', ssh_key: RSA_NO_COMMENT } });
    const renamed = await call(svc, 'PUT', `/profile/sshkeys/${key.id}`, { body: { label: 'ci-runner' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...key, label: 'ci-runner' });
    expect(actions().at(-1)).toBe('user_ssh_key_update');
    expect((await call(svc, 'PUT', `/profile/sshkeys/${key.id}`, { body: { label: '' } })).body.label).toBe('');
    expect(errorFields(await call(svc, 'PUT', `/profile/sshkeys/${key.id}`, { body: { label: 'y'.repeat(65) } }))).toEqual(['label']);
    const swap = await call(svc, 'PUT', `/profile/sshkeys/${key.id}`, { body: { ssh_key: ED25519 } });
    expect(swap.status).toBe(400);
    expect(errorFields(swap)).toEqual(['ssh_key']);
    expect((await call(svc, 'PUT', `/profile/sshkeys/${key.id}`, { body: { ssh_key: RSA_NO_COMMENT, label: 'same key' } })).status).toBe(200);
    expect((await call(svc, 'GET', `/profile/sshkeys/${key.id}`)).body.ssh_key).toBe(RSA_NO_COMMENT);
  });

  it('deletes a key from the profile only, and keeps users apart', async () => {
    const { body: key } = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'temp', ssh_key: ED25519 } });
    expect((await call(svc, 'GET', `/profile/sshkeys/${key.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'DELETE', `/profile/sshkeys/${key.id}`, { token: RESTRICTED_TOKEN })).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/sshkeys', { token: RESTRICTED_TOKEN })).body.results).toBe(0);
    const del = await call(svc, 'DELETE', `/profile/sshkeys/${key.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect(actions().at(-1)).toBe('user_ssh_key_delete');
    expect((await call(svc, 'GET', `/profile/sshkeys/${key.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', '/profile/sshkeys/999999')).status).toBe(404);
  });

  it('needs account scopes', async () => {
    const readOnly = mint('account:read_only');
    expect((await call(svc, 'GET', '/profile/sshkeys', { token: readOnly })).status).toBe(200);
    const r = await call(svc, 'POST', '/profile/sshkeys', { token: readOnly, body: { ssh_key: ED25519 } });
    expect(r.status).toBe(403);
    expect(r.body.errors[0].reason).toContain('account:read_write');
    expect((await call(svc, 'GET', '/profile/sshkeys', { token: mint('vms:read_write') })).status).toBe(403);
  });
});

describe('two-factor authentication', () => {
  it('enables with a real time-based code, hands out a scratch code, then disables', async () => {
    const enable = await call(svc, 'POST', '/profile/tfa-enable');
    expect(enable.status).toBe(200);
    expect(enable.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{16,}$/), expiry: expect.any(String) });
    const ttl = parseApiTime(enable.body.expiry) - Date.now();
    expect(ttl).toBeGreaterThan(55 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
    expect((await call(svc, 'GET', '/profile')).body.two_factor_auth).toBe(false);

    const code = authenticator.generate(enable.body.secret);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: wrong } });
    expect(refused.status).toBe(400);
    expect(errorFields(refused)).toEqual(['tfa_code']);
    expect((await call(svc, 'GET', '/profile')).body.two_factor_auth).toBe(false);

    const confirmed = await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: code } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ scratch: expect.stringMatching(/^[A-Z2-7]{20}$/) });
    expect((await call(svc, 'GET', '/profile')).body.two_factor_auth).toBe(true);
    expect(actions()).toContain('tfa_enabled');
    expect(JSON.stringify(user(1))).not.toContain(confirmed.body.scratch);

    const again = await call(svc, 'POST', '/profile/tfa-enable');
    expect(again.status).toBe(400);
    expect(again.body.errors[0].reason).toMatch(/already enabled/);
    expect((await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: code } })).status).toBe(400);

    const disable = await call(svc, 'POST', '/profile/tfa-disable');
    expect(disable.status).toBe(200);
    expect(disable.body).toEqual({});
    expect((await call(svc, 'GET', '/profile')).body.two_factor_auth).toBe(false);
    expect(actions().at(-1)).toBe('tfa_disabled');
    expect(user(1)._tfa_secret).toBeUndefined();

    const disabledAgain = await call(svc, 'POST', '/profile/tfa-disable');
    expect(disabledAgain.body).toEqual({});
    expect(actions().at(-1)).toBe('tfa_disabled');
    expect(actions().filter((a) => a === 'tfa_disabled')).toHaveLength(1);
  });

  it('refuses confirmation without a pending, unexpired secret', async () => {
    const none = await call(svc, 'POST', '/profile/tfa-enable-confirm', { token: RESTRICTED_TOKEN, body: { tfa_code: '123456' } });
    expect(none.status).toBe(400);
    expect(errorFields(none)).toEqual(['tfa_code']);
    expect(none.body.errors[0].reason).toMatch(/tfa-enable/);

    const { body } = await call(svc, 'POST', '/profile/tfa-enable', { token: RESTRICTED_TOKEN });
    const stale = { ...user(2), _tfa_pending: { secret: body.secret, expiry: isoSeconds(Date.now() - 1000) } };
    svc.store.tx(() => svc.store.put('user', 2, stale));
    const expired = await call(svc, 'POST', '/profile/tfa-enable-confirm', { token: RESTRICTED_TOKEN, body: { tfa_code: authenticator.generate(body.secret) } });
    expect(expired.status).toBe(400);
    expect(errorFields(expired)).toEqual(['tfa_code']);
    expect(user(2).two_factor_auth).toBe(false);
  });

  it('validates the confirmation body; a field sent to a no-body action is ignored and named, never used', async () => {
    expect(errorFields(await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: {} }))).toEqual(['tfa_code']);
    expect(errorFields(await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: '12ab56' } }))).toEqual(['tfa_code']);
    expect(errorFields(await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: 123456 } }))).toEqual(['tfa_code']);
    const chosen = await call(svc, 'POST', '/profile/tfa-enable', { body: { secret: 'MINE' } });
    expect(chosen.status).toBe(200);
    expect(chosen.headers['x-ignored-fields']).toBe('secret');
    expect(chosen.body.secret).not.toBe('MINE');
    expect((await call(svc, 'POST', '/profile/tfa-disable', { token: mint('account:read_only') })).status).toBe(403);
  });
});
