import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { KEYS, spawnApp, type PtyApp } from '../helpers/pty.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';
import { buildApp } from './build.js';

let entry: string;
let svc: RunningService;
const running: PtyApp[] = [];
const ids: Record<string, number> = {};

beforeAll(async () => {
  entry = buildApp();
  svc = await startTestService();
  for (const label of ['box-1', 'box-2', 'box-3', 'box-4']) {
    const res = await call(svc, 'POST', '/vm/instances', { body: { label, region: 'us-east', type: 'g6-nanode-1' } });
    ids[label] = res.body.id;
  }
}, 120_000);

afterAll(async () => {
  for (const app of running) app.kill();
  await svc?.close();
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
});

describe('marks, bulk delete and export in a terminal', { timeout: 120_000 }, () => {
  it('marks three instances with Space, deletes them with one confirm (the count typed), then Ctrl-S saves what is left in the working folder', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vmtui-e2e-export-'));
    const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], { entry, cols: 100, rows: 30, cwd });
    running.push(app);
    await app.waitForScreen(/Instances\s+4/);
    app.press(':');
    await app.waitForScreen(/^: ?$/m);
    app.press('instances');
    await app.waitForScreen(/^:instances ?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^› box-1/m);

    app.press(' ');
    await app.waitForScreen('1 marked');
    app.press('  ');
    const marked = await app.waitForScreen('3 marked');
    for (const label of ['box-1', 'box-2', 'box-3']) expect(marked).toMatch(new RegExp(`^ ● ${label}`, 'm'));
    expect(marked).toMatch(/^› {2}box-4/m);

    app.press(KEYS.ctrlD);
    const confirm = await app.waitForScreen('Type 3 to confirm');
    for (const label of ['box-1', 'box-2', 'box-3']) expect(confirm).toContain(`• ${label}`);
    app.press('3');
    await app.waitForScreen(/\[ Delete \]/);
    app.press(KEYS.enter);
    const after = await app.waitForScreen(/Delete: 3 of 3 succeeded/);
    const list = await app.waitForScreen(/^1 item$/m);
    expect(list).not.toMatch(/box-[123]/);
    expect(after + list).not.toContain('marked');
    for (const label of ['box-1', 'box-2', 'box-3']) expect((await call(svc, 'GET', `/vm/instances/${ids[label]}`)).status).toBe(404);

    app.press(KEYS.ctrlS);
    await app.waitForScreen(/Exported 1 item to/);
    const files = readdirSync(cwd).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^instances-\d{8}-\d{6}\.csv$/);
    expect(readFileSync(join(cwd, files[0]!), 'utf8')).toMatch(/^Label,Status,Region,Type,IPv4,Tags,Created\r\nbox-4,offline,us-east,/);
    expect(JSON.parse(readFileSync(join(cwd, files[1]!), 'utf8'))).toMatchObject([{ id: ids['box-4'], label: 'box-4' }]);

    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
