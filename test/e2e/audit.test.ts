import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { KEYS, spawnApp, type PtyApp } from '../helpers/pty.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';
import { buildApp } from './build.js';

let entry: string;
let svc: RunningService;
let vmId: number;
const running: PtyApp[] = [];

beforeAll(async () => {
  entry = buildApp();
  svc = await startTestService();
  const made = await call(svc, 'POST', '/vm/instances', { body: { label: 'web-1', region: 'us-east', type: 'g6-standard-2', image: 'vm/alpine3.20', root_pass: 'Correct-Horse-Battery-42', booted: true } });
  vmId = made.body.id;
  for (let i = 0; i < 50 && (await call(svc, 'GET', `/vm/instances/${vmId}`)).body.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
}, 120_000);

afterAll(async () => {
  for (const app of running) app.kill();
  await svc?.close();
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
});

describe(':audit in a terminal', { timeout: 120_000 }, () => {
  it(':audit, Enter on a finding opens its instance, Esc comes back, a fixes it through the confirm that says the cost', async () => {
    const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], { entry, cols: 140, rows: 30 });
    running.push(app);
    await app.waitForScreen(/Instances\s+1/);
    app.press(':');
    await app.waitForScreen(/^: ?$/m);
    app.press('audit');
    await app.waitForScreen(/^:audit ?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/instance web-1\s+Running instance without backups/);
    await app.waitForScreen(/high findings? \(:audit\)/);

    app.press('/');
    await app.waitForScreen(/Enter keep/);
    app.press('without backups');
    await app.waitForScreen(/1 of \d+/);
    app.press(KEYS.enter);
    await app.waitForScreen(/^› .*instance web-1\s+Running instance without backups/m);

    app.press(KEYS.enter);
    await app.waitForScreen(/audit › web-1/);
    await app.waitForScreen(/Disks/);
    app.press(KEYS.esc);
    await app.waitForScreen(/^› .*instance web-1\s+Running instance without backups/m);

    app.press('a');
    await app.waitForScreen(/Actions: web-1[\s\S]*Enable backups/);
    app.press('b');
    const confirm = await app.waitForScreen(/This adds \$5\.00\/month, \$0\.007\/hour\./);
    expect(confirm).toContain('Enable the backup service for web-1?');
    app.press(KEYS.right);
    app.press(KEYS.enter);
    await app.waitForScreen(/Backups enabled for web-1/);
    // The audit is computed again: the filter that showed the finding now shows nothing.
    await app.waitForScreen(/Nothing matches "without backups"/);
    expect((await call(svc, 'GET', `/vm/instances/${vmId}`)).body.backups.enabled).toBe(true);

    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
