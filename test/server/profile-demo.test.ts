import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { seedProfileDemo } from '../../src/server/seed/demo-profile.js';
import { sshKey } from '../../src/model/formats.js';
import { parseApiTime } from '../../src/model/time.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
  // What the earlier demo steps leave behind, reduced to what the profile step reads.
  svc.store.tx(() => {
    for (let id = 101; id <= 106; id++) svc.store.insert('vm', id, { id, label: `app-${id}` });
    svc.store.insert('nodebalancer', 201, { id: 201, label: 'edge' });
    svc.store.insert('image', 'private/301', { id: 'private/301', label: 'golden-web', is_public: false });
    svc.store.insert('stackscript', '20001', { id: '20001', label: 'bootstrap', is_public: false, username: 'demo-owner' });
    seedProfileDemo(svc.store, svc.sim);
  });
});
afterAll(() => svc.close());

const DAY = 86_400_000;

describe('profile demo data', () => {
  it('gives the owner keys, tokens, apps, devices, logins and preferences', async () => {
    const keys = (await call(svc, 'GET', '/profile/sshkeys')).body.data as { ssh_key: string }[];
    expect(keys).toHaveLength(2);
    expect(keys.map((k) => k.ssh_key.split(' ')[0])).toEqual(['ssh-ed25519', 'ssh-rsa']);
    for (const k of keys) expect(sshKey(k.ssh_key)).toBeNull();

    const tokens = (await call(svc, 'GET', '/profile/tokens')).body;
    expect(tokens.results).toBe(4);
    const demo = (tokens.data as { label: string; scopes: string; expiry: string | null }[]).filter((t) => !t.label.startsWith('serve'));
    expect(new Set(demo.map((t) => t.scopes)).size).toBe(3);
    expect(new Set(demo.map((t) => t.expiry === null)).size).toBe(2);

    expect((await call(svc, 'GET', '/profile/apps')).body.results).toBe(2);
    const devices = (await call(svc, 'GET', '/profile/devices')).body.data as { expiry: string }[];
    expect(devices).toHaveLength(2);
    expect(devices.some((d) => parseApiTime(d.expiry) - Date.now() < 3 * DAY)).toBe(true);

    const logins = (await call(svc, 'GET', '/profile/logins')).body.data as { datetime: string; ip: string }[];
    expect(logins).toHaveLength(15);
    expect(logins.every((l) => Date.now() - parseApiTime(l.datetime) < 61 * DAY)).toBe(true);
    expect(new Set(logins.map((l) => l.ip)).size).toBe(3);

    expect((await call(svc, 'GET', '/profile/preferences')).body.theme).toBe('dark');
    expect((await call(svc, 'GET', '/profile')).body).toMatchObject({ timezone: 'America/New_York', authorized_keys: [keys[0]!.ssh_key] });
  });

  it('gives demo-ops grants on existing entities and a short login history', async () => {
    const g = (await call(svc, 'GET', '/profile/grants', { token: RESTRICTED_TOKEN })).body;
    expect(g.global).toMatchObject({ account_access: 'read_only', add_vms: false, add_nodebalancers: false });
    expect(g.vm.map((e: { permissions: string }) => e.permissions)).toEqual(['read_write', 'read_write', 'read_write', 'read_only', 'read_only']);
    expect(g.vm[0]).toEqual({ id: 101, label: 'app-101', permissions: 'read_write' });
    expect(g.nodebalancer).toEqual([{ id: 201, label: 'edge', permissions: 'read_only' }]);
    expect(g.image).toEqual([{ id: 301, label: 'golden-web', permissions: 'read_only' }]);
    expect(g.stackscript).toEqual([{ id: 20001, label: 'bootstrap', permissions: 'read_write' }]);
    const logins = (await call(svc, 'GET', '/profile/logins', { token: RESTRICTED_TOKEN })).body.data;
    expect(logins.length).toBeGreaterThan(1);
    expect(logins.every((l: { username: string; restricted: boolean }) => l.username === 'demo-ops' && l.restricted)).toBe(true);
  });
});
