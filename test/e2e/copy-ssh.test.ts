import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { KEYS, spawnApp, type PtyApp } from '../helpers/pty.js';
import { OWNER_TOKEN, startTestService } from '../helpers/service.js';
import { buildApp } from './build.js';

let entry: string;
let svc: RunningService;
const running: PtyApp[] = [];
const dir = mkdtempSync(join(tmpdir(), 'vmtui-e2e-ssh-'));
/** The stand-in for ssh: prints its arguments, reads a line from the terminal and answers it, then exits. */
const standIn = join(dir, 'ssh');
writeFileSync(standIn, '#!/bin/sh\necho "stand-in ssh $*"\nread line\necho "got $line"\nsleep 0.3\n');
chmodSync(standIn, 0o755);

beforeAll(async () => {
  entry = buildApp();
  svc = await startTestService({ seed: 'demo' });
}, 120_000);

afterAll(async () => {
  for (const app of running) app.kill();
  await svc?.close();
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

function start() {
  // Outside tmux, whatever runs the tests: the app writes OSC 52 itself.
  const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], { entry, cols: 100, rows: 30, env: { TMUX: undefined, VMTUI_SSH: standIn } });
  running.push(app);
  return app;
}

/** The instances list, filtered to one instance and on it. */
async function onInstance(app: PtyApp, label: string) {
  await app.waitForScreen(/Instances\s+21/);
  app.press(':');
  await app.waitForScreen(/^: ?$/m);
  app.press(`vm ${label}`);
  await app.waitForScreen(new RegExp(`^:vm ${label} ?$`, 'm'));
  app.press(KEYS.enter);
  return app.waitForScreen(new RegExp(`^› ${label}\\s+running`, 'm'));
}

describe('copy and ssh in a terminal', { timeout: 120_000 }, () => {
  it('Y then l writes the label to the clipboard as an OSC 52 sequence', async () => {
    const app = start();
    await onInstance(app, 'web-1');
    app.press('Y');
    await app.waitForScreen(/Copy: web-1[\s\S]*l label\s+web-1/);
    app.press('l');
    await app.waitForScreen('Copied the label (OSC 52)');
    expect(app.output()).toContain(`\x1b]52;c;${Buffer.from('web-1').toString('base64')}\x07`);
    app.press('q');
    expect(await app.exited).toBe(0);
  });

  it('s gives the terminal to ssh (the stand-in) on the main screen, keys and all, then the same view comes back', async () => {
    const app = start();
    await onInstance(app, 'web-1');
    app.press('s');
    const main = await app.waitForScreen('stand-in ssh root@45.79.0.2');
    expect(app.alternateScreen()).toBe(false);
    expect(main).not.toContain('home › instances');
    // Typed keys reach ssh, not the app (e would open the edit form, d the detail).
    app.press('hello\r');
    await app.waitForScreen('got hello');
    const back = await app.waitForScreen(/^› web-1\s+running[\s\S]*Back from ssh root@45\.79\.0\.2/m);
    expect(app.alternateScreen()).toBe(true);
    expect(back).toMatch(/^home › instances$/m);
    expect(back).toMatch(/^› web-1\s+running/m);
    expect(back).not.toContain('stand-in ssh');
    expect(back).not.toMatch(/Edit web-1|hello/);
    // Keys are the app's again.
    app.press('d');
    await app.waitForScreen(/web-1 › detail|Specs \(memory and disk in MB\)/);
    app.press('q');
    app.press(KEYS.esc);
    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
