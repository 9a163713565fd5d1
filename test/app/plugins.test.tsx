import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plugin } from '../../src/config/config.js';
import type { RunningService } from '../../src/server/service.js';
import { jumpTo, press, renderApp, select, wait, type App } from '../helpers/ink.js';
import { addInstance } from '../helpers/networking.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';

let svc: RunningService;
let dir: string;
beforeAll(async () => {
  svc = await startTestService();
  addInstance(svc, { label: 'web-1' });
  addInstance(svc, { label: 'db-1' });
  dir = mkdtempSync(join(tmpdir(), 'vmtui-plugins-'));
});
const apps: App[] = [];
afterAll(async () => {
  apps.forEach((r) => r.unmount());
  await svc.close();
});

const plugin = (p: Partial<Plugin> & Pick<Plugin, 'name' | 'key' | 'command'>): Plugin => ({
  description: `${p.name} the instance`,
  screens: ['instances'],
  dangerous: false,
  background: true,
  token: false,
  ...p,
});

const open = (plugins: Plugin[], readOnly = false) => {
  const r = renderApp({ svc, rows: 24, cols: 140, session: { readOnly }, settings: { aliases: new Map([['web', 'instances web']]), plugins } });
  apps.push(r);
  return r;
};

/** The stand-in: a script that writes the environment it was given to a file. */
const envDump = (file: string) => `env > ${file}; echo "dumped $VM_LABEL"`;
const readEnv = (file: string) => new Map(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

describe('plugins', { timeout: 60_000 }, () => {
  it('runs with the selected item in VM_* variables, never the token unless asked; shown in the footer and ?', async () => {
    const file = join(dir, 'env-1');
    const r = open([plugin({ name: 'dump', key: 'p', command: envDump(file) })]);
    process.env.VM_TOKEN = 'a-token-from-the-shell';
    try {
      await jumpTo(r, 'instances', /web-1/);
      await wait(r, /p dump/);
      await select(r, 'web-1');
      await press(r, 'p', /dump on web-1: dumped web-1/);
    } finally {
      delete process.env.VM_TOKEN;
    }
    const vm = (await call(svc, 'GET', '/vm/instances')).body.data.find((v: { label: string }) => v.label === 'web-1');
    const env = readEnv(file);
    expect(env.get('VM_ID')).toBe(String(vm.id));
    expect(env.get('VM_LABEL')).toBe('web-1');
    expect(env.get('VM_IPV4')).toBe(vm.ipv4[0]);
    expect(env.get('VM_REGION')).toBe(vm.region);
    expect(env.get('VM_STATUS')).toBe(vm.status);
    expect(env.get('VM_TYPE')).toBe(vm.type);
    expect(env.get('VM_API_URL')).toBe(svc.baseUrl);
    expect(env.has('VM_TOKEN')).toBe(false);
    await press(r, '?', /^Help/m);
    await press(r, 'G', /^p\s+dump the instance \(plugin, in the background\)/m);
  });

  it('gets VM_TOKEN only when it asks for it', async () => {
    const file = join(dir, 'env-2');
    // A capital is a sort key: a plugin takes a key no view binds.
    const r = open([plugin({ name: 'api', key: 'ctrl+t', command: envDump(file), token: true })]);
    await jumpTo(r, 'instances', /web-1/);
    await press(r, '\x14', /api on \S+: dumped/);
    expect(readEnv(file).get('VM_TOKEN')).toBe(OWNER_TOKEN);
  });

  it('a failing plugin says so with its output; a dangerous one is hidden and refused under --read-only', async () => {
    const file = join(dir, 'env-3');
    const plugins = [plugin({ name: 'broken', key: 'b', command: 'echo "no route to host" >&2; exit 3' }), plugin({ name: 'wipe', key: 'w', command: `touch ${file}`, dangerous: true })];
    const r = open(plugins, true);
    await jumpTo(r, 'instances', /web-1/);
    await wait(r, /b broken/);
    expect(r.lastFrame()).not.toMatch(/w wipe/);
    await press(r, 'b', /broken on \S+ ended with exit code 3: no route to host/);
    await press(r, 'w', /Read-only mode: wipe is disabled/);
    expect(existsSync(file)).toBe(false);
  });

  it("a plugin's output in the message line is drawn through the gate: its escape sequences show, none is sent", async () => {
    const r = open([plugin({ name: 'noisy', key: 'p', command: "printf 'a\\033]0;TITLE\\007b\\033[2Jc\\342\\200\\256d'" })]);
    await jumpTo(r, 'instances', /web-1/);
    const frame = await press(r, 'p', /noisy on \S+: a␛\]0;TITLE␇b␛\[2Jc<U\+202E>d/);
    expect(frame).not.toMatch(/[\x07\u202e]|\x1b[\]P]|\x1b\[2J/);
  });

  it('applies only to the views it names', async () => {
    const r = open([plugin({ name: 'dump', key: 'p', command: 'true' })]);
    await jumpTo(r, 'nodebalancers', /No load balancers|Label/);
    expect(r.lastFrame()).not.toMatch(/p dump/);
  });
});

describe('aliases', { timeout: 60_000 }, () => {
  it('an alias opens its area filtered by its words', async () => {
    const r = open([]);
    await jumpTo(r, 'web', (f) => /web-1/.test(f) && !/db-1/.test(f) && /^\/web/m.test(f));
  });
});
