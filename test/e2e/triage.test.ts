import { afterEach, describe, expect, it } from 'vitest';
import { IDLE_MS } from '../../src/store/live.js';
import { KEYS } from '../helpers/pty.js';
import { call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * The on-call path in the built app, in a real terminal, on the demo account
 * (two services in problem): from start to everything needed to act in at
 * most three key presses, and a service breaking shown without any.
 */

const built = useBuiltApp();

afterEach(() => built.killAll());

function start() {
  return built.start(undefined, { cols: 100, rows: 30 });
}

/** One poll at the idle pace, and the time to draw it. */
const ONE_POLL_MS = IDLE_MS + 3000;

describe('managed-issue triage in a terminal', () => {
  it('reaches the affected service, its contacts, credentials and instance access in at most three key presses from start', async () => {
    const app = start();
    // Start: the header says it, on whatever view is open.
    await app.waitForScreen(/⚠ 2 problem services \(! triage\)/, 10_000);
    let presses = 0;
    const press = (key: string) => {
      presses++;
      app.press(key);
    };

    press('!');
    const triage = await app.waitForScreen(/^home › triage$[^]*^› 4m ago/m);
    expect(triage).toMatch(/^› 4m ago +#2 +api-gateway: HTTP 502/m);
    // The older issue is one j away; take it, its service runs on an instance of the account.
    press('j');
    await app.waitForScreen(/^› 17m ago +#1/m);
    press(KEYS.enter);
    const issue = await app.waitForScreen(/Instance access · 45\.79\.0\.7\n.*db-primary +running/);
    expect(presses).toBeLessThanOrEqual(3);
    expect(issue).toMatch(/✗ PROBLEM +postgres-primary +tcp +45\.79\.0\.7:5432/);
    expect(issue).toMatch(/timeout 5s · any response counts/);
    expect(issue).toMatch(/Contacts · engineering\n.*Priya Raman +priya\.raman@example\.com +\+44 20 7946 0321/);
    expect(issue).toMatch(/Credentials \(labels; the secrets are write-only\)\n.*prod-db root/);
    expect(issue).toMatch(/db-primary +running +ssh deploy@45\.79\.0\.7 -p 2222/);
    expect(issue).toContain('ticket /support/tickets/21400');
  });

  it('shows a service turning problem within one poll, without a key press', async () => {
    const app = start();
    await app.waitForScreen(/⚠ 2 problem services/, 10_000);
    app.press('!');
    await app.waitForScreen(/^home › triage$/m);
    // Let the poller settle at its idle pace: the change must not depend on a fresh start.
    await new Promise((r) => setTimeout(r, 4000));

    const opened = await call(built.svc, 'POST', '/__control/managed/issues', { body: { services: [1], label: 'shop frontend: TLS handshake timeout' } });
    expect(opened.status).toBe(200);
    // Header and message line together: a frame can reach the terminal in more than one read.
    await app.waitForScreen(/⚠ 3 problem[^]*✗ shop frontend is in problem \(! opens triage\)/, ONE_POLL_MS);
    // The triage view on screen shows the new issue too, newest first.
    const triage = await app.waitForScreen(/^› just now +#\d+ +shop frontend: TLS handshake timeout\n.*✗ PROBLEM +shop frontend +url/m, ONE_POLL_MS);
    expect(triage).toContain('3 open issues · 3 problem services');

    await call(built.svc, 'POST', `/__control/managed/issues/${opened.body.id}/resolve`, { body: {} });
    await app.waitForScreen(/⚠ 2 problem/, ONE_POLL_MS);
  }, 60_000);
});
