import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { call, startTestService } from '../helpers/service.js';
import { ENTER, jumpTo, press, renderApp, select, wait } from '../helpers/ink.js';

let svc: RunningService;
const dir = mkdtempSync(join(tmpdir(), 'vmtui-ssh-'));
/** The stand-in for ssh: writes its arguments to a file and exits 0. */
const standIn = join(dir, 'ssh');
writeFileSync(standIn, `#!/bin/sh\necho "$@" > "${dir}/argv"\n`);
chmodSync(standIn, 0o755);

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => {
  vi.unstubAllEnvs();
  return svc.close();
});

async function instances(label: string) {
  const r = renderApp({ svc, rows: 30, cols: 120 });
  await jumpTo(r, 'instances', label);
  await select(r, label);
  return r;
}

describe('s: ssh into an instance', () => {
  it("runs VMTUI_SSH with the instance's public IPv4 as root, and says so when it ends", async () => {
    vi.stubEnv('VMTUI_SSH', standIn);
    const r = await instances('web-1');
    await press(r, 's', 'Back from ssh root@45.79.0.2');
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim()).toBe('root@45.79.0.2');
    // The terminal was lent and taken back: the normal screen, then the alternate one again.
    const out = r.frames.join('');
    expect(out.indexOf('\x1b[?1049l')).toBeGreaterThanOrEqual(0);
    expect(out.lastIndexOf('\x1b[?1049h')).toBeGreaterThan(out.indexOf('\x1b[?1049l'));
  });

  it('takes the user and port of the managed SSH access settings, from the overview too', async () => {
    vi.stubEnv('VMTUI_SSH', standIn);
    const vm = (await call(svc, 'GET', '/vm/instances', { filter: { label: 'web-2' } })).body.data[0];
    expect((await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { user: 'deploy', port: 2222 } } })).status).toBe(200);
    const r = await instances('web-2');
    await press(r, ENTER, /web-2 › overview[\s\S]*Instance\s+running/);
    await press(r, 's', 'Back from ssh -p 2222 deploy@45.79.0.3');
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim()).toBe('-p 2222 deploy@45.79.0.3');
  });

  it('an instance that is not running is a message, nothing runs', async () => {
    vi.stubEnv('VMTUI_SSH', join(dir, 'must-not-run'));
    const r = await instances('worker-2');
    await press(r, 's', 'worker-2 is offline: ssh needs it running');
  });

  it('a program that is not there is a message', async () => {
    vi.stubEnv('VMTUI_SSH', join(dir, 'no-such-ssh'));
    const r = await instances('web-3');
    await press(r, 's', `${join(dir, 'no-such-ssh')} was not found (VMTUI_SSH names another program)`);
    await wait(r, /^› web-3/m);
  });

  it('stays under --read-only: it changes nothing through the API', async () => {
    vi.stubEnv('VMTUI_SSH', standIn);
    const r = renderApp({ svc, rows: 30, cols: 120, session: { readOnly: true } });
    await jumpTo(r, 'instances', 'web-1');
    await select(r, 'web-1');
    expect(r.lastFrame()).toContain('s ssh');
    await press(r, 's', 'Back from ssh root@45.79.0.2');
  });
});
