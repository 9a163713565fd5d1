import { describe, expect, it } from 'vitest';
import { KEYS, jump, type PtyApp } from '../helpers/pty.js';
import { OWNER_TOKEN, call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();

/** The requests the service answered after entry `since` of its journal. */
async function journal(since: number): Promise<{ method: string; path: string }[]> {
  return (await call(built.svc, 'GET', `/__control/requests?since=${since}&limit=1000`)).body.data;
}
const latest = async () => (await call(built.svc, 'GET', '/__control/requests?limit=1')).body.latest as number;

/** The home view with the counts of the lists these tests open in. */
const homeCounted = (app: PtyApp) => app.waitForScreen(/^(?=[\s\S]*Instances {2,}\d+)(?=[\s\S]*Load balancers {2,}\d+)(?=[\s\S]*Firewalls {2,}\d+)(?=[\s\S]*IP addresses {2,}\d+)/);

describe('reads over a slow link', { timeout: 120_000 }, () => {
  it("an instance's overview draws its own parts while a relation is held back by a slow answer, then the relation", async () => {
    const held = await call(built.svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4beta/networking/firewalls/*/devices', action: 'latency', latency_ms: 4000 } });
    try {
      const app = built.start(['--api-url', built.svc.baseUrl, '--token', OWNER_TOKEN], { cols: 120, rows: 40 });
      await homeCounted(app);
      await jump(app, 'vm web-1');
      await app.waitForScreen(/^› web-1\s/m);
      app.press(KEYS.enter);
      const own = await app.waitForScreen(/Instance\s+running\s+web-1/);
      // The parts of its own are in, the firewalls still on their way; the other relations drawn as they came.
      expect(own).toMatch(/Disks\s+\d+\s+\d/);
      expect(own).toMatch(/Firewalls\s+…\s+reading…/);
      expect(own).not.toMatch(/Firewall\s+enabled/);
      const whole = await app.waitForScreen(/Firewall\s+enabled\s+web-public/, 15_000);
      expect(whole).not.toMatch(/reading…/);
      expect(whole).toMatch(/LB node\s+UP\s+web-lb port 80/);
    } finally {
      await call(built.svc, 'DELETE', `/__control/faults/${held.body.id}`);
      built.killAll();
    }
  });

  it('sends no read for a list fresher than the refresh interval: the list the home view counted opens from the cache; r reads it', async () => {
    const app = built.start(['--api-url', built.svc.baseUrl, '--token', OWNER_TOKEN, '--refresh', '60'], { cols: 120, rows: 40 });
    await homeCounted(app);
    const since = await latest();
    await jump(app, 'instances');
    await app.waitForScreen(/^home › instances$/m);
    await app.waitForScreen(/web-1\s/);
    // Back home and in again: still nothing to read.
    app.press(KEYS.esc);
    await homeCounted(app);
    await jump(app, 'lb');
    await app.waitForScreen(/web-lb\s+us-east/);
    const lists = (await journal(since)).filter((e) => e.method === 'GET' && (e.path === '/v4/vm/instances' || e.path === '/v4/nodebalancers'));
    expect(lists).toEqual([]);
    app.press('r');
    await expect.poll(async () => (await journal(since)).filter((e) => e.path === '/v4/nodebalancers').length, { timeout: 10_000 }).toBe(1);
    built.killAll();
  });

  it('the firewalls and addresses open from the lists the home view counted: only the devices are read, the firewalls drawn before them', async () => {
    const held = await call(built.svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4beta/networking/firewalls/*/devices', action: 'latency', latency_ms: 3000 } });
    try {
      const app = built.start(['--api-url', built.svc.baseUrl, '--token', OWNER_TOKEN, '--refresh', '60'], { cols: 120, rows: 40 });
      await homeCounted(app);
      const since = await latest();
      await jump(app, 'fw');
      // Drawn from the cache while every firewall's devices are on their way (held 3 s): their counts follow.
      const drawn = await app.waitForScreen(/web-public\s+enabled\s+\d+\s+\d+\s+…/, 2000);
      expect(drawn).not.toMatch(/web-public\s+enabled\s+\d+\s+\d+\s+\d+\s/);
      await app.waitForScreen(/web-public\s+enabled\s+\d+\s+\d+\s+\d+\s/, 10_000);
      await jump(app, 'ips');
      await app.waitForScreen(/^home › firewalls › ip addresses$/im);
      await app.waitForScreen(/ipv4\s+yes\s+\S+\s+web-1\s/);
      const reads = (await journal(since)).filter((e) => e.method === 'GET').map((e) => e.path.replace(/\/\d+/g, '/N'));
      // Not read again: the lists these two views start from (the refreshes of the home view's other parts may run meanwhile).
      expect(reads.filter((p) => ['/v4beta/networking/firewalls', '/v4/networking/ips', '/v4/vm/instances'].includes(p))).toEqual([]);
      expect(reads).toContain('/v4beta/networking/firewalls/N/devices');
    } finally {
      await call(built.svc, 'DELETE', `/__control/faults/${held.body.id}`);
      built.killAll();
    }
  });

  it("a balancer's ports are drawn before their nodes arrive, which follow", async () => {
    const held = await call(built.svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4/nodebalancers/*/configs/*/nodes', action: 'latency', latency_ms: 3000 } });
    try {
      const app = built.start(['--api-url', built.svc.baseUrl, '--token', OWNER_TOKEN], { cols: 120, rows: 40 });
      await homeCounted(app);
      await jump(app, 'lb api-lb');
      await app.waitForScreen(/^› api-lb\s/m);
      app.press(KEYS.enter);
      await app.waitForScreen(/8443 tcp\s+leastconn/, 2000);
      // Still reading the nodes: the rebuild, which starts from them, waits for them.
      await app.waitForScreen(/reading the rest…/, 3000);
      app.press('a');
      await app.waitForScreen(/Rebuild nodes \(replace the node list\) +\(its nodes are/);
      app.press(KEYS.esc);
      await app.waitForScreen(/^(?![\s\S]*reading the rest…)(?![\s\S]*Rebuild nodes)[\s\S]*8443 tcp/, 10_000);
      app.press(KEYS.enter);
      await app.waitForScreen(/:8443\s+(UP|DOWN|unknown)/);
    } finally {
      await call(built.svc, 'DELETE', `/__control/faults/${held.body.id}`);
      built.killAll();
    }
  });
});
