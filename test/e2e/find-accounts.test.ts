import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, jump, spawnApp, type PtyApp } from '../helpers/pty.js';
import { spawnServe } from '../helpers/service.js';
import { buildApp } from './build.js';

const TOKEN = 'find-accounts-owner-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'vmtui-find-'));
const children: ChildProcess[] = [];
const running: PtyApp[] = [];
let entry: string;
let east: string;
let west: string;

async function instance(base: string, label: string) {
  const res = await request(`${base}/vm/instances`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ region: 'us-east', type: 'g6-standard-1', label }),
  });
  const body = (await res.body.json()) as { id: number };
  if (res.statusCode !== 200) throw new Error(JSON.stringify(body));
  return body.id;
}

/** A config folder holding `config` as config.json (the app reads $XDG_CONFIG_HOME/vmtui/config.json). */
function configHome(name: string, config: string): string {
  const home = join(dir, name);
  mkdirSync(join(home, 'vmtui'), { recursive: true });
  writeFileSync(join(home, 'vmtui', 'config.json'), config, { mode: 0o600 });
  return home;
}

beforeAll(async () => {
  entry = buildApp();
  [east, west] = (await Promise.all([spawnServe(join(dir, 'east.sqlite'), TOKEN, children), spawnServe(join(dir, 'west.sqlite'), TOKEN, children)])).map((s) => s.base);
  await Promise.all([instance(east, 'east-web-1'), instance(east, 'east-db-1'), instance(west, 'west-web-1')]);
}, 180_000);

afterAll(() => {
  for (const app of running) app.kill();
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
});

const profiles = () => ({
  east: { apiUrl: east, token: TOKEN },
  west: { apiUrl: west, token: TOKEN },
  gone: { apiUrl: 'http://127.0.0.1:9/v4', token: TOKEN },
});

function start(args: string[], config: string) {
  const home = configHome(`home-${running.length}`, config);
  // The embedded demo's data file goes to a folder of the test's own.
  const app = spawnApp(args, { entry, cols: 120, rows: 30, env: { XDG_CONFIG_HOME: home, XDG_DATA_HOME: join(home, 'data') } });
  running.push(app);
  return app;
}

const header = (screen: string) => screen.split('\n')[0] ?? '';

describe('find and accounts in a terminal', { timeout: 180_000 }, () => {
  it(':search finds an instance by label and Enter opens its overview, breadcrumbs as if drilled', async () => {
    const app = start(['--profile', 'east'], JSON.stringify({ profiles: profiles() }));
    await app.waitForScreen(/\? help/);
    await jump(app, 'search east-db');
    await app.waitForScreen(/› Instances\s+east-db-1\s+\d+\s+label east-db-1/);
    app.press(KEYS.enter);
    await app.waitForScreen(/^home › instances › east-db-1/m);
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › instances$/m);
  });

  it(':ctx switches between two vmtui serve processes without restarting; the header and the data follow', async () => {
    const app = start(['--profile', 'east'], JSON.stringify({ profiles: profiles() }));
    await app.waitForScreen(/profile east/);
    await jump(app, 'vm');
    await app.waitForScreen(/east-web-1/);
    await jump(app, 'ctx');
    await app.waitForScreen(/● east\s.*current/);
    app.press('/');
    app.press('west');
    await app.waitForScreen(/^›\s+west\s/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/Enter open/);
    app.press(KEYS.enter);
    const switched = await app.waitForScreen(/Now on west/);
    expect(header(switched)).toMatch(/profile west/);
    await jump(app, 'vm');
    const list = await app.waitForScreen(/west-web-1/);
    expect(list).not.toMatch(/east-web-1/);
  });

  it(':all instances lists both accounts side by side, the dead one failing on its own row', async () => {
    const app = start(['--profile', 'east'], JSON.stringify({ profiles: profiles() }));
    await app.waitForScreen(/\? help/);
    await jump(app, 'all instances');
    const screen = await app.waitForScreen(/3 items · 3 accounts · 1 failed/);
    expect(screen).toMatch(/east\s+east-db-1/);
    expect(screen).toMatch(/east\s+east-web-1/);
    expect(screen).toMatch(/west\s+west-web-1/);
    expect(screen).toMatch(/gone\s+could not load: /);
  });

  it('a config file that does not parse says where, and the app still starts', async () => {
    const app = start(['--api-url', east, '--token', TOKEN], '{\n  "aliases": {"pg": "services postgres",}\n}\n');
    const screen = await app.waitForScreen(/not valid JSON at line 2:41/);
    expect(screen).toMatch(/\? help/);
    await jump(app, 'vm');
    await app.waitForScreen(/east-web-1/);
  });

  it('a foreground plugin gets the terminal (normal screen, the item in VM_*), and the app comes back whole after it', async () => {
    const plugins = { hello: { key: 'o', description: 'say hello', screens: ['instances'], command: 'echo "PLUGIN-RAN-$VM_LABEL-$VM_ID"; sleep 1' } };
    const app = start(['--profile', 'east'], JSON.stringify({ profiles: profiles(), plugins }));
    await app.waitForScreen(/\? help/);
    await jump(app, 'vm');
    // The key is offered as the view opens; the item it runs on comes with the list.
    await app.waitForScreen(/o hello/);
    await app.waitForScreen(/^› east-web-1/m);
    app.press('o');
    const during = await app.waitForScreen(/PLUGIN-RAN-east-\w+-1-\d+/);
    expect(app.alternateScreen()).toBe(false);
    expect(during).not.toMatch(/\? help/);
    const after = await app.waitForScreen(/hello on east-\w+-1 finished/);
    expect(app.alternateScreen()).toBe(true);
    expect(after).toMatch(/^home › instances$/m);
    expect(after).toMatch(/east-web-1/);
  });

  it(':ctx starts the embedded demo when it is chosen, and switches to it', async () => {
    const app = start(['--profile', 'west'], JSON.stringify({ profiles: profiles() }));
    await app.waitForScreen(/profile west/);
    await jump(app, 'ctx');
    await app.waitForScreen(/demo\s+embedded demo\s+starts when chosen/);
    app.press('/');
    app.press('demo');
    await app.waitForScreen(/^›\s+demo\s/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/Enter open/);
    app.press(KEYS.enter);
    const switched = await app.waitForScreen(/Now on demo/, 60_000);
    expect(header(switched)).toMatch(/embedded demo/);
    expect(header(switched)).not.toMatch(/profile west/);
    await jump(app, 'vm');
    await app.waitForScreen(/web-1/);
  });
});
