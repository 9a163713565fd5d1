import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opensHomeAndQuits } from '../helpers/pty.js';
import { expectServesInstances } from '../helpers/serve-process.js';
import { OWNER_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';

/**
 * release/vmtui-linux-x64 (`npm run build:exe`) on a host without Node.js:
 * every run here has an empty PATH, so no `node` can be found, and the file
 * is run by its path.
 */
const work = mkdtempSync(join(tmpdir(), 'vmtui-exe-'));
const exe = join(work, 'vmtui-linux-x64');
const home = join(work, 'home');
/** What a host without Node.js gives the program: no PATH to find one on, a home of its own. */
const bare = { PATH: '', HOME: home, XDG_CACHE_HOME: join(home, 'cache'), XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), NODE_OPTIONS: undefined };
const bareEnv = () => Object.fromEntries(Object.entries({ ...process.env, ...bare }).filter((e): e is [string, string] => e[1] !== undefined));

let source: RunningService | undefined;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-exe.mjs', '--out', exe], { stdio: 'inherit' });
  source = await startTestService({ seed: 'demo' });
}, 180_000);
afterAll(async () => {
  await source?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the single executable, with no node on the PATH', { timeout: 60_000 }, () => {
  it('is one file that says its version', () => {
    expect(statSync(exe).mode & 0o111).not.toBe(0);
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: bareEnv() }).status).not.toBe(0);
    const r = spawnSync(exe, ['--version'], { encoding: 'utf8', env: bareEnv() });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, `vmtui ${(JSON.parse(execFileSync('git', ['show', 'HEAD:package.json'], { encoding: 'utf8' })) as { version: string }).version}\n`, '']);
  });

  it('serves the API (`serve --ready-json`)', async () => {
    await expectServesInstances(exe, ['serve', '--data', ':memory:', '--port', '0', '--seed', 'demo'], bareEnv());
  });

  it('imports an account (`import`) into a data file', async () => {
    const data = join(work, 'imported.sqlite');
    // Not spawnSync: the source answers from this process's event loop.
    const child = spawn(exe, ['import', '--from', source!.baseUrl, '--token', OWNER_TOKEN, '--data', data], { env: bareEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, err).toBe(0);
    expect(out).toMatch(/^Imported \d+ records from /);
    expect(statSync(data).size).toBeGreaterThan(0);
  });

  it('runs the terminal UI against a service, and on the embedded demo', async () => {
    for (const args of [['--api-url', source!.baseUrl, '--token', OWNER_TOKEN], []]) expect((await opensHomeAndQuits(args, { executable: exe, env: bare })).code).toBe(0);
  });
});
