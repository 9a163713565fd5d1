import { afterEach, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * The xray in the built app, in a real terminal at 80×24 without colour: `x`
 * on an instance shows what it touches both ways, → opens a branch in place
 * (from the cache: no request), Enter drills there as by hand, Esc comes back
 * to the tree as it was.
 */

const built = useBuiltApp();

afterEach(() => built.killAll());

const journalSince = async (since: number) => ((await call(built.svc, 'GET', `/__control/requests?since=${since}&limit=1000`)).body.data as { method: string; path: string }[]).map((e) => `${e.method} ${e.path}`);
const latest = async () => (await call(built.svc, 'GET', '/__control/requests?limit=1')).body.latest as number;

describe('the xray in a terminal', { timeout: 120_000 }, () => {
  it('x on an instance → its disks, configs, addresses, firewalls and the balancer nodes sending to it; → opens node → port → balancer from the cache; Enter drills; Esc returns', async () => {
    const app = built.start(undefined, { cols: 80, rows: 24, env: { NO_COLOR: '1', FORCE_COLOR: undefined } });
    app.press(':');
    await app.waitForScreen(/^:[ ▏]?$/m, 10_000);
    app.press('vm web-1');
    await app.waitForScreen(/^:vm web-1[ ▏]?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^> web-1 +running/m, 10_000);
    app.press('x');
    const tree = await app.waitForScreen(/▸ LB node: .*\n/, 10_000);
    await app.waitForScreen(/Firewall: /);
    expect(tree).toMatch(/^home › instances › web-1 › xray$/m);
    expect(tree).toMatch(/· Disk: Debian 12 Disk +ready/);
    expect(tree).toMatch(/Backups: no backups/);
    expect(tree).toMatch(/▸ Firewall: web-public/);

    // The balancer node sending to it: its port above, the balancer above that, from what the tree read already.
    const before = await latest();
    app.press('G');
    await app.waitForScreen(/^> +▸ LB node: web-lb port 443/m);
    app.press(KEYS.right);
    await app.waitForScreen(/^> +▾ LB node: web-lb port 443[^]*\n +▸ Port: port 443 \(https\)/m);
    app.press('j');
    app.press(KEYS.right);
    const opened = await app.waitForScreen(/▾ Port: port 443 \(https\)[^]*\n +▸ Balancer: web-lb/);
    expect(opened).not.toMatch(/reading/);
    expect(await journalSince(before)).toEqual([]);

    // Enter drills as by hand: the balancer's ports; Esc finds the tree as it was.
    app.press('j');
    await app.waitForScreen(/^> +▸ Balancer: web-lb/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^home › instances › web-1 › xray › web-lb › configs/im, 10_000);
    app.press(KEYS.esc);
    await app.waitForScreen(/^> +▸ Balancer: web-lb/m);
    // ← on a closed line goes to its parent; again closes it.
    app.press(KEYS.left);
    await app.waitForScreen(/^> +▾ Port: port 443/m);
    app.press(KEYS.left);
    const closed = await app.waitForScreen(/^> +▸ Port: port 443/m);
    expect(closed).not.toMatch(/Balancer: web-lb/);
  });
});
