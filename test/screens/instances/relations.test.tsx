import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { ENTER, ESC } from '../../helpers/ink.js';
import { app, jump, press, select, wait, SLOW_TEST_MS, type App } from './helpers.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

async function overview(label: string, opts: Parameters<typeof app>[1] = {}): Promise<App> {
  const r = app(svc, { rows: 40, ...opts });
  await jump(r, 'instances', label);
  await select(r, label);
  await press(r, ENTER, new RegExp(`instances › ${label} › overview`));
  // Every relation in: none still reading.
  await wait(r, (f) => /^ {2}Tag /m.test(f) && !f.includes('reading…'));
  return r;
}

/** Moves the cursor to the overview line matching `line`, j by j. */
async function cursorTo(r: App, line: RegExp) {
  for (let i = 0; i < 20 && !new RegExp(`^› ${line.source}`, 'm').test(r.lastFrame()); i++) {
    const before = r.lastFrame();
    r.stdin.write('j');
    await wait(r, (f) => f !== before).catch(() => {
      throw new Error(`No line matches ${line}:\n${before}`);
    });
  }
  return wait(r, new RegExp(`^› ${line.source}`, 'm'));
}

describe("an instance's overview: what touches it", { timeout: SLOW_TEST_MS }, () => {
  it('lists firewalls, LB nodes with balancer and port, addresses, tags; Enter opens each, Esc comes back', async () => {
    const r = await overview('web-1');
    const frame = r.lastFrame();
    expect(frame).toMatch(/Firewall\s+enabled\s+web-public · 2 inbound rules/);
    expect(frame).toMatch(/Firewall\s+disabled\s+legacy-ftp/);
    expect(frame).toMatch(/LB node\s+UP\s+web-lb port 80 \(http\) → 192\.168\.128\.2:80 · node web-1/);
    expect(frame).toMatch(/Address\s+public\s+45\.79\.0\.2 · www\.shop\.example\.com/);
    expect(frame).toMatch(/Address\s+ipv6\/range\s+2600:3c00:e001::/);
    expect(frame).toMatch(/Tag\s+production/);
    expect(frame).toMatch(/Services\s+0\s+no managed service checks its addresses/);

    await cursorTo(r, /Firewall\s+enabled\s+web-public/);
    await press(r, ENTER, /web-1 › overview › web-public › firewall\n[\s\S]*Rules/);
    await press(r, ESC, /^› Firewall\s+enabled\s+web-public/m);

    // A node: its balancer's ports, then that port's nodes, the node selected, as if drilled by hand.
    await cursorTo(r, /LB node\s+UP\s+web-lb port 443/);
    const nodes = await press(r, ENTER, /overview › web-lb › configs › port 443 \(https\) › nodes\n/);
    await wait(r, /^› web-1\s+192\.168\.128\.2:80/m);
    expect(nodes).not.toContain('port 80 (http) › nodes');
    await press(r, ESC, /web-lb › configs\n/);
    await press(r, ESC, /^› LB node\s+UP\s+web-lb port 443/m);

    await cursorTo(r, /Address\s+public/);
    await press(r, ENTER, /overview › ip addresses\n[\s\S]*\b1 of \d+/);
    expect(r.lastFrame()).toMatch(/^› 45\.79\.0\.2/m);
    // Esc clears the filter first, as on any list; again goes back.
    await press(r, ESC, /\d+ items/);
    await press(r, ESC, /^› Address\s+public/m);

    await cursorTo(r, /Tag\s+production/);
    await press(r, ENTER, /overview › production › /);
    await wait(r, /web-1/);
    await press(r, ESC, /^› Tag\s+production/m);
  });

  it('lists the managed services checking its address and their open issues; Enter opens the issue and the service', async () => {
    const r = await overview('db-primary');
    expect(r.lastFrame()).toMatch(/Service\s+problem\s+postgres-primary · tcp 45\.79\.0\.7:5432 · 1 open issue/);
    // One number for the issue everywhere: the overview's line, y's title, the crumb, the heading.
    await cursorTo(r, /\s+Issue\s+open\s+#1 postgres-primary/);
    await press(r, 'y', /issue #1 · JSON/);
    expect(r.lastFrame()).not.toContain('db-primary · JSON');
    await press(r, ESC, /^› {3}Issue/m);
    await press(r, ENTER, /overview › #1 › issue\n/);
    await wait(r, /^ {2}#1 postgres-primary/m);
    await press(r, ESC, /^› {3}Issue/m);
    // Back on the issue: the service is the line above.
    await press(r, 'k', /^› Service\s+problem/m);
    await press(r, ENTER, /overview › services\n\/postgres-primary  1 of \d+/);
    expect(r.lastFrame()).toMatch(/^› postgres-primary/m);
  });

  it('a token without the scope of an area: that section says so, the rest shows', async () => {
    const token = (await call(svc, 'POST', '/profile/tokens', { body: { label: 'vms only', scopes: 'vms:read_only' } })).body.token as string;
    const r = await overview('web-1', { token });
    const frame = r.lastFrame();
    expect(frame).toMatch(/Instance\s+running\s+web-1/);
    expect(frame).toMatch(/Firewalls\s+no access\s+the token lacks firewall:read_only/);
    expect(frame).toMatch(/LB nodes\s+no access\s+the token lacks nodebalancers:read_only/);
    expect(frame).toMatch(/Services\s+no access\s+the token lacks account:read_only/);
    expect(frame).toMatch(/Tag\s+production/);
  });

  it('from a LB node: the instance behind its address, Enter opens it', async () => {
    const r = app(svc, { rows: 40 });
    await jump(r, 'nodebalancers', 'web-lb');
    await select(r, 'web-lb');
    await press(r, ENTER, /web-lb › configs/);
    await wait(r, /^› .*80/m);
    await press(r, ENTER, /port 80 \(http\) › nodes\n/);
    const frame = await wait(r, /web-1\s+192\.168\.128\.2:80.*\bweb-1\s*$/m);
    expect(frame).toMatch(/Instance/);
    await select(r, '192.168.128.2');
    await press(r, ENTER, /nodes › web-1 › overview\n[\s\S]*Instance\s+running\s+web-1/);
  });
});
