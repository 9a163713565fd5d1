import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `vmtui serve` for programs in any language: --ready-json, --ready-file, the signals that stop it, and its npm parent. */

const children: ChildProcess[] = [];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vmtui-ready-'));
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Ready {
  base_url: string;
  beta_url: string;
  token: string;
  restricted_token: string;
  pid: number;
}

const SERVE = [process.execPath, '--import', 'tsx', 'src/cli.ts', 'serve', '--data', ':memory:', '--seed', 'empty', '--speed', 'instant', '--port', '0'];

function serve(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(SERVE[0]!, [...SERVE.slice(1), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function poll<T>(read: () => T | undefined, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a process runs: an orphan that exited may stay a zombie until its new parent reaps it (on Linux, state Z). */
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
};

describe('vmtui serve --ready-json', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('prints one JSON line once it answers, and nothing else; %s stops it cleanly', async (signal) => {
    const svc = serve(['--ready-json']);
    const line = await poll(() => (svc.out().includes('\n') ? svc.out() : undefined));
    expect(line.split('\n')).toHaveLength(2);
    const ready = JSON.parse(line) as Ready;
    expect(Object.keys(ready)).toEqual(['base_url', 'beta_url', 'token', 'restricted_token', 'pid']);
    expect(ready).toMatchObject({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v4$/), beta_url: expect.stringMatching(/\/v4beta$/), pid: svc.child.pid });
    const origin = new URL(ready.base_url).origin;
    // Answering already: no retry needed.
    expect(await (await fetch(`${origin}/__control/health`)).json()).toEqual({ ok: true });
    const regions = await fetch(`${ready.base_url}/regions`, { headers: { authorization: `Bearer ${ready.token}` } });
    expect(regions.status).toBe(200);
    const profile = await fetch(`${ready.base_url}/profile`, { headers: { authorization: `Bearer ${ready.restricted_token}` } });
    expect(((await profile.json()) as { restricted: boolean }).restricted).toBe(true);
    process.kill(ready.pid, signal);
    expect(await svc.exited).toBe(0);
    expect(svc.out()).toBe(line);
    expect(svc.err()).toBe('');
  });
});

describe('vmtui serve --ready-file', () => {
  it('writes the same JSON, 0600, whole, once it answers; removes it when stopped; a stale one never passes for it', async () => {
    const file = join(dir, 'ready.json');
    writeFileSync(file, '{"base_url": "stale"}');
    const svc = serve(['--ready-file', file]);
    const text = await poll(() => {
      const content = existsSync(file) ? readFileSync(file, 'utf8') : '';
      return content.includes('stale') || content === '' ? undefined : content;
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const ready = JSON.parse(text) as Ready;
    expect(ready.pid).toBe(svc.child.pid);
    expect(text).toBe(`${JSON.stringify(ready)}\n`);
    expect((await fetch(`${ready.base_url}/regions`, { headers: { authorization: `Bearer ${ready.token}` } })).status).toBe(200);
    // The banner still goes to stdout, for whoever watches.
    expect(svc.out()).toContain('Press Ctrl-C to stop.');
    process.kill(ready.pid, 'SIGTERM');
    expect(await svc.exited).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('says so, and stops, when it cannot write the file', async () => {
    const svc = serve(['--ready-file', join(dir, 'no-such-folder', 'ready.json')]);
    expect(await svc.exited).toBe(1);
    expect(svc.err()).toMatch(/^vmtui serve: cannot write the ready file .*no-such-folder\/ready\.json: ENOENT/);
    expect(svc.err()).not.toMatch(/\n\s+at /);
    const empty = serve(['--ready-file', ' ']);
    expect(await empty.exited).toBe(2);
    expect(empty.err()).toContain('--ready-file must name a file');
  });
});

describe('vmtui serve under npm', () => {
  it('stops when npm, its parent, goes away (npx vmtui serve & … kill $!)', async () => {
    const file = join(dir, 'npm-ready.json');
    // Stands in for npm: the parent that started serve and dies without passing on a signal.
    const parent = spawn(process.execPath, ['-e', `require('node:child_process').spawn(${JSON.stringify(SERVE[0])}, ${JSON.stringify([...SERVE.slice(1), '--ready-file', file])}, { stdio: 'ignore' }); setInterval(() => {}, 1000);`], {
      stdio: 'ignore',
      env: { ...process.env, npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' },
    });
    children.push(parent);
    const ready = JSON.parse(await poll(() => (existsSync(file) ? readFileSync(file, 'utf8') : undefined))) as Ready;
    expect(isAlive(ready.pid)).toBe(true);
    parent.kill('SIGKILL');
    try {
      await poll(() => (isAlive(ready.pid) ? undefined : true), 5000);
    } finally {
      // Not left running when it did not stop.
      if (isAlive(ready.pid)) process.kill(ready.pid, 'SIGKILL');
    }
    // It stopped cleanly: the ready file went with it.
    expect(existsSync(file)).toBe(false);
  });

  it('keeps running when another parent goes away (nohup, a double fork)', async () => {
    const file = join(dir, 'plain-ready.json');
    const env = { ...process.env };
    delete env.npm_execpath;
    const parent = spawn(process.execPath, ['-e', `require('node:child_process').spawn(${JSON.stringify(SERVE[0])}, ${JSON.stringify([...SERVE.slice(1), '--ready-file', file])}, { stdio: 'ignore' }); setInterval(() => {}, 1000);`], {
      stdio: 'ignore',
      env,
    });
    children.push(parent);
    const ready = JSON.parse(await poll(() => (existsSync(file) ? readFileSync(file, 'utf8') : undefined))) as Ready;
    parent.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 1500));
    const alive = isAlive(ready.pid);
    if (alive) process.kill(ready.pid, 'SIGTERM');
    expect(alive).toBe(true);
    await poll(() => (isAlive(ready.pid) ? undefined : true), 5000);
  });
});
