import { describe, expect, it } from 'vitest';
import { KEYS, jump, type PtyApp } from '../helpers/pty.js';
import { call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();

function start() {
  // The harness sets CI=false (for Ink), which makes chalk's detection turn colors off; a user's terminal has them.
  return built.start(undefined, { cols: 100, rows: 30, env: { FORCE_COLOR: '1' } });
}


/** The row the cursor is on. */
const selected = (screen: string) => screen.split('\n').find((l) => l.startsWith('› ')) ?? '';

const stagingNodes = async () => {
  const nb = (await call(built.svc, 'GET', '/nodebalancers')).body.data.find((b: { label: string }) => b.label === 'staging-lb');
  const cfg = (await call(built.svc, 'GET', `/nodebalancers/${nb.id}/configs`)).body.data[0];
  return (await call(built.svc, 'GET', `/nodebalancers/${nb.id}/configs/${cfg.id}/nodes`)).body.data.map((n: { label: string }) => n.label) as string[];
};

describe('load balancers in a terminal', { timeout: 120_000 }, () => {
  it('drills balancer → config → nodes and back with Esc; adds a node and deletes it through the confirm dialog', async () => {
    const app = start();
    await app.waitForScreen(/Load balancers\s+3/);
    await jump(app, 'lb');
    const list = await app.waitForScreen(/staging-lb\s+eu-central/);
    expect(list).toMatch(/^home › load balancers$/m);
    expect(selected(list)).toMatch(/web-lb\s+us-east\s+139\.162\.0\.2\s+10\/s\s+47\.1 GB/);

    app.press(KEYS.enter);
    const configs = await app.waitForScreen(/443 https\s+roundrobin\s+http_cookie/);
    expect(configs).toMatch(/^home › load balancers › web-lb › configs$/m);
    expect(selected(configs)).toMatch(/80 http\s+roundrobin\s+table\s+http\s+3 up/);

    app.press(KEYS.enter);
    const nodes = await app.waitForScreen(/web-3\s+192\.168\.128\.4:80\s+UP\s+backup/);
    expect(nodes).toMatch(/^home › load balancers › web-lb › configs › port 80 \(http\) › nodes$/m);
    // Status is colored: UP in green.
    expect(app.output()).toMatch(/\x1b\[32mUP/);

    app.press(KEYS.esc);
    await app.waitForScreen(/^home › load balancers › web-lb › configs$/m);
    app.press(KEYS.esc);
    const back = await app.waitForScreen(/^home › load balancers$/m);
    expect(selected(back)).toMatch(/web-lb/);

    // staging-lb, its one config, its nodes.
    app.press('G');
    await app.waitForScreen(/^› staging-lb/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^home › load balancers › staging-lb › configs$/m);
    await app.waitForScreen(/› +80 http/);
    app.press(KEYS.enter);
    await app.waitForScreen(/^home › load balancers › staging-lb › configs › port 80 \(http\) › nodes$/m);
    await app.waitForScreen(/1 item/);

    app.press('c');
    await app.waitForScreen('New backend node');
    app.press('e2e-node');
    app.press(KEYS.tab);
    app.press('192.168.200.9:8080');
    await app.waitForScreen(/Address \*\s+192\.168\.200\.9:8080/);
    app.press(KEYS.ctrlS);
    await app.waitForScreen('Added node e2e-node (192.168.200.9:8080)');
    await app.waitForScreen(/e2e-node\s+192\.168\.200\.9:8080\s+unknown\s+accept\s+50/);
    expect(await stagingNodes()).toContain('e2e-node');

    app.press('G');
    await app.waitForScreen(/^› e2e-node/m);
    app.press(KEYS.ctrlD);
    const dialog = await app.waitForScreen('[ Cancel ]');
    expect(dialog).toContain('Remove node e2e-node (192.168.200.9:8080) from this port?');
    // Enter on the default button cancels.
    app.press(KEYS.enter);
    // The dialog takes the list's place: the row is back once it is closed.
    await app.waitForScreen(/^› e2e-node/m);
    expect(await stagingNodes()).toContain('e2e-node');

    app.press(KEYS.ctrlD);
    await app.waitForScreen('[ Cancel ]');
    app.press(KEYS.right);
    app.press(KEYS.enter);
    await app.waitForScreen('Remove e2e-node: done');
    const after = await app.waitForScreen(/^1 item/m);
    expect(after).not.toMatch(/^[› ] e2e-node/m);
    expect(await stagingNodes()).not.toContain('e2e-node');

    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
