import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { OWNER_TOKEN } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();
const dir = mkdtempSync(join(tmpdir(), 'vmtui-e2e-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built CLI, run to its end; not spawnSync: the source service answers from this process. */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [built.entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'false', VM_TOKEN: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

describe('the built vmtui import', { timeout: 120_000 }, () => {
  it('copies an account into a file the built serve serves with the token it printed; bad arguments exit 2, an existing file 1', async () => {
    const file = join(dir, 'copy.sqlite');
    const done = await run(['import', '--from', built.svc.baseUrl, '--token', OWNER_TOKEN, '--data', file]);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/^instances 21\/21$/m);
    const token = /owner token \(scope \*\):\s+(\S+)/.exec(done.stdout)![1]!;

    const serve = spawn(process.execPath, [built.entry, 'serve', '--data', file, '--token', token, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        serve.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /base root:\s+(\S+)[\s\S]*Press Ctrl-C/.exec(out);
          if (m) resolve(m[1]!);
        });
        serve.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
      });
      const get = async (url: string, bearer: string) => (await (await request(url, { headers: { authorization: `Bearer ${bearer}` } })).body.json()) as unknown;
      expect(await get(`${base}/nodebalancers`, token)).toEqual(await get(`${built.svc.baseUrl}/nodebalancers`, OWNER_TOKEN));
    } finally {
      serve.kill('SIGTERM');
    }

    const bad = await run(['import', '--from', 'http://127.0.0.1:1/api', '--token', 't', '--data', join(dir, 'x.sqlite')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`vmtui: --from must be the API's base root, ending in /v4, not "http://127.0.0.1:1/api"\nRun 'vmtui import --help' for usage.\n`);
    const again = await run(['import', '--from', built.svc.baseUrl, '--token', OWNER_TOKEN, '--data', file]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists');
  });

  it(':requests says the narrowest token the session could have used', async () => {
    const app = built.start(undefined, { cols: 100, rows: 30 });
    await app.waitForScreen(/Load balancers\s+3/);
    app.press(':');
    await app.waitForScreen(/^: ?$/m);
    app.press('requests');
    app.press(KEYS.enter);
    await app.waitForScreen(/^Narrowest token for this session: \S*:read_/m);
  });
});
