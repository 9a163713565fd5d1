import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { DEMO_CERT, DEMO_KEY } from '../../../src/server/seed/demo-nodebalancers.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB, readsDone } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, seedBalancer, selectedRow, wait, type App } from './helpers.js';

const RIGHT = '\x1b[C';
const CTRL_U = '\x15';

let svc: RunningService;
let nb: number;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());
beforeEach(async () => {
  for (const b of (await call(svc, 'GET', '/nodebalancers')).body.data) await call(svc, 'DELETE', `/nodebalancers/${b.id}`);
  ({ nb } = await seedBalancer(svc));
});

const ports = async () => (await call(svc, 'GET', `/nodebalancers/${nb}/configs`)).body.data.map((c: { port: number }) => c.port).sort((a: number, b: number) => a - b);

async function openConfigs(rows = 30): Promise<App> {
  const r = app(svc, { rows });
  await jump(r, 'lb', 'shop-lb');
  await press(r, ENTER, /^home › load balancers › shop-lb › configs$/m);
  await wait(r, /› +80 http/);
  // The ports are drawn before their nodes: the delete confirm counts them, the rebuild starts from them.
  await readsDone(r);
  return r;
}

/** Focus moves down the form one field per Tab. */
const tabs = (r: App, n: number) => r.stdin.write(TAB.repeat(n));

describe('configs of a balancer', { timeout: 60_000 }, () => {
  it('creates a tcp config through the form', async () => {
    const r = await openConfigs();
    await press(r, 'c', 'New config (port)');
    r.stdin.write(CTRL_U);
    await press(r, '3306', /Port\s+3306/);
    tabs(r, 1);
    await press(r, RIGHT + RIGHT, /Protocol\s+◂ tcp ▸/);
    tabs(r, 1);
    await press(r, RIGHT, /Algorithm\s+◂ leastconn ▸/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Created port 3306 (tcp)');
    await wait(r, /3306 tcp\s+leastconn\s+none\s+none\s+no nodes/);
    expect(await ports()).toEqual([80, 3306]);
  });

  it('https without a certificate is rejected by the model as you type, and nothing is sent; a pasted PEM pair is accepted', async () => {
    const r = await openConfigs(40);
    await press(r, 'c', 'New config (port)');
    r.stdin.write(CTRL_U);
    await press(r, '443', /Port\s+443/);
    tabs(r, 1);
    // http → https: the cross-field rule speaks at once, beside the certificate and the key.
    const https = await press(r, RIGHT, /Protocol\s+◂ https ▸/);
    expect(https).toMatch(/SSL certificate\n\s+✗ is required when p/);
    expect(https).toMatch(/SSL private key\n\s+✗ is required when p/);
    r.stdin.write(CTRL_S);
    // Refused before sending: focus goes to the first field in error, whose whole reason is on the note line.
    await wait(r, /^SSL certificate is required when protocol is https$/m);
    expect(await ports()).toEqual([80]);

    // The field's own check, from the model, as soon as something is typed.
    await press(r, 'not a pem', 'must be a PEM certificate');
    r.stdin.write(CTRL_U);
    await press(r, DEMO_CERT, (f) => !f.includes('must be a PEM certificate') && f.includes('-----END CERTIFICATE-----'));
    tabs(r, 1);
    await press(r, DEMO_KEY, (f) => !f.includes('SSL private key is required'));
    // The key is a secret: masked.
    expect(r.lastFrame()).not.toContain('-----BEGIN PRIVATE KEY-----');
    r.stdin.write(CTRL_S);
    await wait(r, 'Created port 443 (https)');
    await wait(r, /443 https\s+roundrobin\s+table\s+none\s+no nodes\s+www\.example\.com/);
    const stored = (await call(svc, 'GET', `/nodebalancers/${nb}/configs`)).body.data.find((c: { port: number }) => c.port === 443);
    expect(stored.ssl_commonname).toBe('www.example.com');
  });

  it("shows the service's error beside the field: a port already configured", async () => {
    const r = await openConfigs();
    await press(r, 'c', 'New config (port)');
    // Port 80 is the default, and taken.
    r.stdin.write(CTRL_S);
    const frame = await wait(r, /^Port 80 is already configured on this load balancer$/m);
    expect(fieldLine(frame, 'Port')).toMatch(/Port\s+80\s+✗ Port 80 is already configured/);
    expect(await ports()).toEqual([80]);
  });

  it('edits a config; what was not changed stays', async () => {
    const r = await openConfigs();
    const form = await press(r, 'e', 'Edit port 80 (http)');
    expect(form).toMatch(/Check path\s+\/health/);
    tabs(r, 2);
    await press(r, RIGHT + RIGHT, /Algorithm\s+◂ source ▸/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Saved port 80 (http)');
    expect(selectedRow(await wait(r, /80 http\s+source/))).toMatch(/80 http\s+source\s+table\s+http/);
    const cfg = (await call(svc, 'GET', `/nodebalancers/${nb}/configs`)).body.data[0];
    expect(cfg).toMatchObject({ algorithm: 'source', check_path: '/health', check: 'http' });
  });

  it('deletes a config only after the confirm dialog, whose default is Cancel', async () => {
    const r = await openConfigs();
    const dialog = dialogText(await press(r, CTRL_D, '[ Cancel ]'));
    expect(dialog).toContain('Delete port 80 (http)? This also deletes its 2 nodes; the backend instances are untouched.');
    await press(r, ENTER, (f) => !f.includes('[ Cancel ]'));
    expect(await ports()).toEqual([80]);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'No configs: this balancer serves nothing yet');
    expect(await ports()).toEqual([]);
  });

  it('rebuilds the node list from JSON after confirming what changes', async () => {
    const r = await openConfigs(40);
    await press(r, 'a', 'Rebuild nodes');
    const form = await press(r, 'b', 'Nodes (JSON)');
    // Pretty-printed, a value per line, the cursor (and view) at the end.
    expect(form).toMatch(/"label": "app-b",\n\s+"address": "192\.168\.10\.2:8080"/);
    // Before the closing bracket: a new node without a label is caught by the model's rebuild rule.
    r.stdin.write('\x1b[D');
    await press(r, ',{"address":"192.168.10.3:8080"}', 'nodes.2.label is required for a new node');
    r.stdin.write('\x1b[D');
    await press(r, ',"label":"app-c"', (f) => !f.includes('is required for a new node'));
    const confirm = await press(r, CTRL_S, 'Proceed');
    expect(dialogText(confirm)).toContain('Rebuild the nodes of port 80 (http): 1 created, 2 updated, 0 deleted. Nodes left out of the list are removed');
    // Cancel (the default) goes back to the form; nothing is sent.
    await press(r, ENTER, 'Nodes (JSON)');
    const before = (await call(svc, 'GET', `/nodebalancers/${nb}/configs`)).body.data[0];
    expect((await call(svc, 'GET', `/nodebalancers/${nb}/configs/${before.id}/nodes`)).body.results).toBe(2);
    await press(r, CTRL_S, 'Proceed');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Rebuilt the nodes of port 80 (http)');
    const cfg = (await call(svc, 'GET', `/nodebalancers/${nb}/configs`)).body.data[0];
    const nodes = (await call(svc, 'GET', `/nodebalancers/${nb}/configs/${cfg.id}/nodes`)).body.data.map((n: { label: string }) => n.label);
    expect(nodes).toEqual(['app-a', 'app-b', 'app-c']);
    // The list shows the new node count.
    await press(r, DOWN, /80 http.*3 unknown|80 http.*0 up, 3 unknown/);
    await press(r, ESC, /^home › load balancers$/m);
  });
});
