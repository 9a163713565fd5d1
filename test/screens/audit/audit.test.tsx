import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ENTER, ESC, jumpTo, press, renderApp, wait, type App } from '../../helpers/ink.js';
import { DEMO_CERT, DEMO_KEY } from '../../../src/server/seed/demo-nodebalancers.js';

const RIGHT = '\x1b[C';
const SLOW_TEST_MS = 60_000;

let svc: RunningService;
const vms: Record<string, number> = {};

beforeAll(async () => {
  svc = await startTestService();
  for (const label of ['web-1', 'web-2']) {
    const made = await call(svc, 'POST', '/vm/instances', { body: { label, region: 'us-east', type: 'g6-standard-2', image: 'vm/alpine3.20', root_pass: 'Correct-Horse-Battery-42', booted: true } });
    vms[label] = made.body.id;
  }
  // Running, as the rules about running instances need.
  for (let i = 0; i < 50; i++) {
    const list = (await call(svc, 'GET', '/vm/instances')).body.data as { status: string }[];
    if (list.every((vm) => vm.status === 'running')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(() => svc.close());

const app = (opts: Parameters<typeof renderApp>[0] = {}): App => renderApp({ svc, rows: 30, cols: 160, ...opts });
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A finding's line: its severity, item and the start of why. */
const line = (severity: string, item: string, why: string) => new RegExp(`^.\\s?${severity}\\s+${escape(item)}\\s+${escape(why)}`, 'm');

describe(':audit', { timeout: SLOW_TEST_MS }, () => {
  it('lists the findings most severe first, each on a line with its severity; the header counts the high ones', async () => {
    const r = app();
    const frame = await jumpTo(r, 'audit', /Running instance without backups/);
    expect(frame).toMatch(line('high', 'profile demo-owner', 'Two-factor authentication off'));
    // The test's own token: * scopes, no expiry, and the one in use.
    expect(frame).toMatch(/high\s+token \[this\] .*Personal access token with \* scopes and no expiry/);
    expect(frame).toMatch(line('medium', 'instance web-1', 'Running instance no enabled firewall protects'));
    expect(frame).toMatch(line('medium', 'instance web-2', 'Running instance without backups'));
    expect(frame).toMatch(/note\s+Buckets' ACL and CORS\s+Buckets' ACL and CORS not checked/);
    const severities = [...frame.matchAll(/^.\s?(high|medium|low|note)\s/gm)].map((m) => m[1]);
    expect(severities).toEqual([...severities].sort((a, b) => ['high', 'medium', 'low', 'note'].indexOf(a!) - ['high', 'medium', 'low', 'note'].indexOf(b!)));
    await wait(r, /⚠ 2 high findings \(:audit\)/);
  });

  it('a fixes a finding through its confirm, which says what it adds to the bill; the finding goes', async () => {
    const r = app();
    await jumpTo(r, 'audit', /Running instance without backups/);
    await press(r, '/', /Enter keep/);
    await press(r, 'without backups', /2 of \d+/);
    await press(r, ENTER, /^› .*instance web-1/m);
    await press(r, 'a', /Actions: web-1[\s\S]*Enable backups/);
    await press(r, 'b', /Enable the backup service for web-1\?[\s\S]*This adds \$5\.00\/month, \$0\.007\/hour\./);
    await press(r, RIGHT, /Enable backups/);
    await press(r, ENTER, /Backups enabled for web-1/);
    await wait(r, (f) => !/instance web-1\s+Running instance without backups/.test(f));
    expect((await call(svc, 'GET', `/vm/instances/${vms['web-1']}`)).body.backups.enabled).toBe(true);
  });

  it('marks take a bulk fix, one confirm summing the cost; Ctrl-S exports the findings', async () => {
    await call(svc, 'PUT', `/vm/instances/${vms['web-1']}`, { body: { watchdog_enabled: false } });
    await call(svc, 'PUT', `/vm/instances/${vms['web-2']}`, { body: { watchdog_enabled: false } });
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-audit-'));
    const r = app({ session: { exportDir: dir } });
    await jumpTo(r, 'audit', /Watchdog off/);
    await press(r, '/', /Enter keep/);
    await press(r, 'watchdog', /2 of \d+/);
    await press(r, ENTER, /^› .*instance web-1/m);
    await press(r, ' ', /1 marked/);
    await press(r, ' ', /2 marked/);
    await press(r, CTRL_S, /Exported 2 items/);
    const files = readdirSync(dir);
    expect(files.filter((f) => /^audit-\d{8}-\d{6}\.(csv|json)$/.test(f))).toHaveLength(2);
    const csv = readFileSync(join(dir, files.find((f) => f.endsWith('.csv'))!), 'utf8');
    expect(csv).toMatch(/^Severity,Item,Finding,Fix/);
    expect(csv).toContain('low,instance web-1,Watchdog off');
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    await press(r, 'a', /Actions: 2 marked items[\s\S]*Enable the watchdog/);
    await press(r, 'w', /For these 2 items:[\s\S]*web-1[\s\S]*web-2/);
    await press(r, RIGHT, /For these 2 items/);
    await press(r, ENTER, /2 of 2 succeeded/);
    await wait(r, (f) => !f.includes('Watchdog off'));
    for (const label of ['web-1', 'web-2']) expect((await call(svc, 'GET', `/vm/instances/${vms[label]}`)).body.watchdog_enabled).toBe(true);
  });

  it('a bulk fix that adds to the bill sums it in its one confirm', async () => {
    await call(svc, 'POST', '/vm/instances', { body: { label: 'db-1', region: 'us-east', type: 'g6-nanode-1', image: 'vm/alpine3.20', root_pass: 'Correct-Horse-Battery-42', booted: true } });
    await call(svc, 'POST', `/vm/instances/${vms['web-1']}/backups/cancel`, { body: {} });
    const r = app();
    await jumpTo(r, 'audit', /instance db-1\s+Running instance without backups/);
    await press(r, '/', /Enter keep/);
    await press(r, 'without backups', /3 of \d+/);
    await press(r, ENTER, /^› .*instance web-1/m);
    for (const n of [1, 2, 3]) await press(r, ' ', new RegExp(`${n} marked`));
    await press(r, 'a', /Actions: 3 marked items/);
    // web-1 and web-2 (g6-standard-2: $5.00, $0.007 each) and db-1 (g6-nanode-1: $1.25, $0.002).
    await press(r, 'b', /This adds \$11\.25\/month, \$0\.016\/hour for the 3\./);
    await press(r, ESC, (f) => !f.includes('This adds'));
  });

  it('Enter goes to the item, drilled as by hand', async () => {
    const r = app();
    await jumpTo(r, 'audit', /instance web-1\s+Running instance no enabled firewall/);
    await press(r, '/', /Enter keep/);
    await press(r, 'firewall protects', /\d+ of \d+/);
    await press(r, ENTER, /^› .*instance web-1/m);
    await press(r, ENTER, /audit › web-1/);
    await wait(r, /Disks/);
  });

  it('an https port on legacy ciphers is switched to recommended by its fix; a port with no node up is high', async () => {
    const nb = (await call(svc, 'POST', '/nodebalancers', { body: { label: 'lb-audit', region: 'us-east' } })).body;
    const cfg = await call(svc, 'POST', `/nodebalancers/${nb.id}/configs`, { body: { port: 443, protocol: 'https', cipher_suite: 'legacy', ssl_cert: DEMO_CERT, ssl_key: DEMO_KEY } });
    expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
    const r = app();
    const frame = await jumpTo(r, 'audit', /LB port lb-audit:443\s+Load balancer https port with the legacy cipher suite/);
    expect(frame).toMatch(/high\s+LB port lb-audit:443\s+Load balancer port with no node in accept that is up/);
    await press(r, '/', /Enter keep/);
    await press(r, 'legacy cipher', /1 of \d+/);
    await press(r, ENTER, /^› .*LB port lb-audit:443/m);
    await press(r, 'a', /Actions: lb-audit:443[\s\S]*Switch to the recommended cipher suite/);
    await press(r, 'c', /Switch lb-audit:443 to the recommended cipher suite\?/);
    await press(r, RIGHT, /Switch to the recommended/);
    await press(r, ENTER, /lb-audit:443: recommended cipher suite/);
    await wait(r, /Nothing matches "legacy cipher"/);
    expect((await call(svc, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.body.id}`)).body.cipher_suite).toBe('recommended');
  });

  it('a token with * scopes and no expiry is revoked by its fix, its label typed', async () => {
    const made = (await call(svc, 'POST', '/profile/tokens', { body: { label: 'old-ci', scopes: '*' } })).body;
    expect(made.expiry).toBeNull();
    const r = app();
    await jumpTo(r, 'audit', /high\s+token old-ci\s+Personal access token with \* scopes and no expiry/);
    await press(r, '/', /Enter keep/);
    await press(r, 'token old-ci', /1 of \d+/);
    await press(r, ENTER, /^› .*token old-ci/m);
    await press(r, 'a', /Actions: old-ci[\s\S]*Revoke the token/);
    await press(r, 'x', /Type old-ci to confirm/);
    await press(r, 'old-ci', /\[ Revoke the token \]/);
    await press(r, ENTER, /Revoked old-ci/);
    await wait(r, /Nothing matches "token old-ci"/);
    expect((await call(svc, 'GET', `/profile/tokens/${made.id}`)).status).toBe(404);
  });

  it('what the token may not read is a finding of its own; the other areas are still checked', async () => {
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'vms-only', scopes: 'vms:read_write account:read_write' } });
    const r = app({ token: made.body.token });
    await jumpTo(r, 'audit', /firewalls not checked: needs firewall:read_only/);
    expect(r.lastFrame()).toMatch(/note\s+load balancers\s+load balancers not checked: needs nodebalancers:read_only/);
    expect(r.lastFrame()).toMatch(/instance web-1/);
  });
});
