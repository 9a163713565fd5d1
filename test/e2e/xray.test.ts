import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, jump } from '../helpers/pty.js';
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

  it('Esc back from an xray after a change elsewhere shows the list at once, the change read in behind it, never an empty list', async () => {
    const app = built.start(undefined, { cols: 80, rows: 24, env: { NO_COLOR: '1', FORCE_COLOR: undefined } });
    await jump(app, 'vm', /^> \S+ +running/m, 10_000);
    app.press('x');
    await app.waitForScreen(/^home › instances › \S+ › xray$/m, 10_000);
    // Someone renames web-2 while the xray is open: the poller reads the event, and the list under the xray is out of date.
    const web2 = ((await call(built.svc, 'GET', '/vm/instances')).body.data as { id: number; label: string }[]).find((vm) => vm.label === 'web-2')!;
    const since = await latest();
    expect((await call(built.svc, 'PUT', `/vm/instances/${web2.id}`, { body: { label: 'web-2-renamed' } })).status).toBe(200);
    const polled = Date.now() + 30_000;
    while (!(await journalSince(since)).some((r) => r.startsWith('GET /v4/account/events'))) {
      expect(Date.now()).toBeLessThan(polled);
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 300));
    const shownBefore = app.output().length;
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › instances$/m);
    await app.waitForScreen(/^ +web-2-renamed +running/m, 10_000);
    expect(app.output().slice(shownBefore)).not.toMatch(/loading Instances/);
  });
});
