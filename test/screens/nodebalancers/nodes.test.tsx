import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { BACKSPACE, CTRL_D, CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, seedBalancer, selectedRow, wait, type App } from './helpers.js';

const RIGHT = '\x1b[C';
const CTRL_U = '\x15';

let svc: RunningService;
let nb: number;
let config: number;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());
beforeEach(async () => {
  for (const b of (await call(svc, 'GET', '/nodebalancers')).body.data) await call(svc, 'DELETE', `/nodebalancers/${b.id}`);
  ({ nb, config } = await seedBalancer(svc));
});

const nodeLabels = async () => (await call(svc, 'GET', `/nodebalancers/${nb}/configs/${config}/nodes`)).body.data.map((n: { label: string }) => n.label);

async function openNodes(): Promise<App> {
  const r = app(svc);
  await jump(r, 'lb', 'shop-lb');
  await press(r, ENTER, /› +80 http/);
  await press(r, ENTER, /^home › load balancers › shop-lb › configs › port 80 \(http\) › nodes$/m);
  await wait(r, /› app-a\s+192\.168\.10\.1:8080\s+unknown\s+accept\s+100/);
  return r;
}

describe('nodes of a config', { timeout: 60_000 }, () => {
  it('adds a node: the address must be private, checked as you type; the config counts it', async () => {
    const r = await openNodes();
    await press(r, 'c', 'New backend node');
    await press(r, 'app-c', /Label \*\s+app-c/);
    r.stdin.write(TAB);
    const bad = await press(r, '8.8.8.8:80', /Address \*\s+8\.8\.8\.8:80/);
    expect(fieldLine(bad, 'Address')).toMatch(/✗ must be a private IP address/);
    r.stdin.write(CTRL_S);
    await wait(r, /^Address must be a private IP address$/m);
    expect(await nodeLabels()).toEqual(['app-a', 'app-b']);
    r.stdin.write(CTRL_U);
    await press(r, '192.168.10.3:8080', (f) => !f.includes('private IP'));
    r.stdin.write(TAB + TAB);
    await press(r, RIGHT, /Mode\s+◂ reject ▸/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Added node app-c (192.168.10.3:8080)');
    await wait(r, /app-c\s+192\.168\.10\.3:8080\s+unknown\s+reject\s+50/);
    expect(await nodeLabels()).toEqual(['app-a', 'app-b', 'app-c']);
    // Back on the configs, the node count follows.
    await press(r, ESC, /› +80 http\s+roundrobin\s+table\s+http\s+0 up, 3 unknown/);
  });

  it('edits a node: weight out of range is refused as you type', async () => {
    const r = await openNodes();
    await press(r, 'e', 'Edit app-a');
    r.stdin.write(TAB + TAB);
    await wait(r, /› Weight\s+100/);
    r.stdin.write(BACKSPACE.repeat(3));
    const over = await press(r, '300', /Weight\s+300/);
    expect(fieldLine(over, 'Weight')).toMatch(/✗ must be between 1 and 255/);
    r.stdin.write(BACKSPACE.repeat(3));
    await press(r, '200', (f) => !f.includes('between 1 and 255'));
    r.stdin.write(CTRL_S);
    await wait(r, 'Saved app-a');
    expect(selectedRow(await wait(r, /app-a\s+192\.168\.10\.1:8080\s+unknown\s+accept\s+200/))).toContain('app-a');
    const stored = (await call(svc, 'GET', `/nodebalancers/${nb}/configs/${config}/nodes`)).body.data[0];
    expect(stored).toMatchObject({ label: 'app-a', weight: 200, mode: 'accept', address: '192.168.10.1:8080' });
  });

  it('removes a node after the confirm dialog; Cancel (the default) keeps it', async () => {
    const r = await openNodes();
    const dialog = dialogText(await press(r, CTRL_D, '[ Cancel ]'));
    expect(dialog).toContain('Remove node app-a (192.168.10.1:8080) from this port? The balancer stops sending it traffic; the backend itself is untouched.');
    await press(r, ENTER, (f) => !f.includes('[ Cancel ]'));
    expect(await nodeLabels()).toEqual(['app-a', 'app-b']);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Remove app-a: done');
    await wait(r, (f) => !f.includes('192.168.10.1:8080') && f.includes('› app-b'));
    expect(await nodeLabels()).toEqual(['app-b']);
  });
});
