import { afterEach, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { OWNER_TOKEN, call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * Alerts in the built app, in a real terminal at 80×24 without colour: what
 * happens on the account while the operator looks at another view reaches the
 * header and the terminal (bell, OSC 9), `:alerts` lists it newest first, and
 * Enter goes to the item.
 */

const built = useBuiltApp();

afterEach(() => built.killAll());

describe('alerts in a terminal', { timeout: 120_000 }, () => {
  it('an instance stopped and an issue opened elsewhere → header count, bell and OSC 9, :alerts newest first, Enter to the instance', async () => {
    const svc = built.svc;
    const app = built.start(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN, '--refresh', '2'], {
      cols: 80,
      rows: 24,
      env: { NO_COLOR: '1', FORCE_COLOR: undefined },
    });
    app.press(':');
    await app.waitForScreen(/^:[ ▏]?$/m, 10_000);
    app.press('vm');
    await app.waitForScreen(/^:vm[ ▏]?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/web-1 +running/, 10_000);
    const web1 = (await call(svc, 'GET', '/vm/instances?page_size=100')).body.data.find((v: { label: string }) => v.label === 'web-1');
    // Stopped by someone else: the list on screen reads it at its next refresh.
    expect((await call(svc, 'POST', `/__control/vm/instances/${web1.id}/status`, { body: { status: 'offline' } })).status).toBe(200);
    await app.waitForScreen(/● 1 (new )?alert/, 20_000);
    const opened = await call(svc, 'POST', '/__control/managed/issues', { body: { services: [1], label: 'shop frontend: TLS handshake timeout' } });
    expect(opened.status).toBe(200);
    // The issue and its service turning to problem: two more, whatever view is open.
    const header = await app.waitForScreen(/● 3 (new )?alerts/, 30_000);
    expect(header.split('\n')[0]!.length).toBeLessThanOrEqual(80);
    expect(app.output()).toContain('\x1b]9;web-1 went offline (not from this app)\x07');
    // One bell and one notice per batch: the issue and its service come with the same poll, or with two.
    expect(app.output()).toMatch(/\x1b\]9;(New managed issue: shop frontend: TLS handshake timeout|Service shop frontend is in problem)( \(\+1 more: :alerts\))?\x07\x07/);
    expect(app.output().split('\x07\x07').length - 1).toBeLessThanOrEqual(3);
    // NO_COLOR: not one colour sequence.
    expect(app.output()).not.toMatch(/\x1b\[3[0-9]m/);

    app.press(':');
    await app.waitForScreen(/^:[ ▏]?$/m);
    app.press('alerts');
    await app.waitForScreen(/^:alerts[ ▏]?$/m);
    app.press(KEYS.enter);
    const list = await app.waitForScreen(/3 alerts this session/);
    // Newest first; seen here, they are read.
    const rows = list.split('\n').filter((l) => /\d\d:\d\d:\d\d +(issue|problem|down)/.test(l));
    expect(rows.map((l) => l.match(/(issue|problem|down)/)![1]).slice(-1)).toEqual(['down']);
    expect(rows).toHaveLength(3);
    await app.waitForScreen(/^vmtui[^\n●]*$/m);
    app.press('G');
    await app.waitForScreen(/^[›>] .*down +web-1 went offline/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/alerts › web-1/);
    await call(svc, 'POST', `/__control/managed/issues/${opened.body.id}/resolve`, {});
  });
});
