import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { isLoopback, parseServeArgs } from '../../src/server/serve-command.js';
import { UsageError } from '../../src/command-line.js';
import { startService } from '../../src/server/service.js';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** `vmtui serve` with these flags, from source, as its own process; resolves once it printed its banner. */
function serve(args: string[]): Promise<{ child: ChildProcess; out: () => string; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /base root:\s+(\S+)[\s\S]*Press Ctrl-C/.exec(out);
      if (m) resolve({ child, out: () => out, base: m[1]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
  });
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('vmtui serve', () => {
  it("says when the data file's clock is not the machine's: how far ahead, and whether it is frozen", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-serve-clock-'));
    try {
      const data = join(dir, 'fixture.sqlite');
      const fixture = await startService({ data, seed: 'empty', speed: 'instant', token: 'T', port: 0 });
      fixture.store.tx(() => {
        fixture.sim.advance(86_400_000);
        fixture.store.clock.setFrozen(true);
      });
      const frozenAt = new Date(fixture.store.clock.now()).toISOString();
      await fixture.close();
      const svc = await serve(['--data', data, '--token', 'T', '--port', '0']);
      const line = /clock:\s+(\S+), frozen (\d+) s ahead of this machine's/.exec(svc.out());
      expect(line?.[1]).toBe(frozenAt);
      // A day, less the time this machine took to start it.
      expect(Number(line?.[2])).toBeGreaterThan(86_400 - 120);
      expect(Number(line?.[2])).toBeLessThanOrEqual(86_400);
      svc.child.kill('SIGINT');
      await exitOf(svc.child);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the command of docs/service.md: any client holding T uses the API; the roots and tokens are printed; SIGINT stops it cleanly', async () => {
    const svc = await serve(['--data', ':memory:', '--seed', 'empty', '--token', 'T', '--port', '0']);
    expect(svc.out()).toMatch(/beta root:\s+http:\/\/127\.0\.0\.1:\d+\/v4beta/);
    expect(svc.out()).toMatch(/restricted user token:\s+[0-9a-f]{64}\n/);
    expect(svc.out()).toMatch(/reading:\s+tolerant/);
    // A new account's clock is the machine's: nothing to say about it.
    expect(svc.out()).not.toMatch(/clock:/);
    const ok = await request(`${svc.base}/regions`, { headers: { authorization: 'Bearer T' } });
    expect(ok.statusCode).toBe(200);
    expect(((await ok.body.json()) as { results: number }).results).toBeGreaterThan(0);
    const bad = await request(`${svc.base}/profile`, { headers: { authorization: 'Bearer X' } });
    expect(bad.statusCode).toBe(401);
    await bad.body.dump();
    const exit = exitOf(svc.child);
    svc.child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(svc.out()).toContain('vmtui service stopped.');
    expect(svc.out()).not.toMatch(/Error|at .*\.ts:\d+/);
  }, 30_000);

  it('refuses bad flags with a reason', () => {
    const reason = (args: string[]) => {
      try {
        parseServeArgs(args);
        return 'accepted';
      } catch (err) {
        return err instanceof UsageError ? (err as Error).message : `crash: ${String(err)}`;
      }
    };
    expect(reason(['--port', '70000'])).toBe('--port must be 0..65535, not "70000"');
    expect(reason(['--seed', 'full'])).toBe('--seed must be demo or empty, not "full"');
    expect(reason(['--speed', 'fast'])).toBe('--speed must be instant or realistic, not "fast"');
    expect(reason(['--token', 'has space'])).toBe('--token must be 1..256 printable characters without spaces');
    expect(reason(['--token', 'same', '--restricted-token', 'same'])).toBe('--token and --restricted-token must differ');
    expect(reason(['--data', ''])).toBe('--data must name a file, or be :memory:');
    expect(reason(['--bogus'])).toBe('unknown option --bogus');
    expect(reason(['--token', 'T', '--data', ':memory:'])).toBe('accepted');
    expect(reason(['--strict=yes'])).toBe('option --strict takes no value');
  });

  it('reads tolerantly unless --strict', () => {
    expect(parseServeArgs([]).strict).toBe(false);
    expect(parseServeArgs(['--strict']).strict).toBe(true);
  });

  it('off loopback, takes only tokens of 32 characters or more; on loopback short ones stay allowed for tests', () => {
    const reason = (args: string[]) => {
      try {
        parseServeArgs(args);
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    const long = 'x'.repeat(32);
    expect(reason(['--host', '0.0.0.0', '--token', 'short'])).toBe(
      '--token must be at least 32 characters with --host 0.0.0.0, which other machines can reach (short tokens are for loopback only)',
    );
    expect(reason(['--host', '192.168.1.20', '--token', long, '--restricted-token', 'y'.repeat(31)])).toMatch(/^--restricted-token must be at least 32 characters/);
    expect(reason(['--host', '::', '--token', long])).toBe('accepted');
    expect(reason(['--host', '0.0.0.0'])).toBe('accepted');
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect([host, isLoopback(host)]).toEqual([host, true]);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', 'example.com']) expect([host, isLoopback(host)]).toEqual([host, false]);
    for (const host of ['127.0.0.1', 'localhost', '::1']) expect(reason(['--host', host, '--token', 'T'])).toBe('accepted');
  });

  it('warns on stderr when it listens beyond loopback', async () => {
    const svc = await serve(['--host', '0.0.0.0', '--data', ':memory:', '--seed', 'empty', '--port', '0']);
    expect(svc.out()).toContain('vmtui serve: warning: --host 0.0.0.0 lets other machines reach the service. It speaks plain HTTP');
    const exit = exitOf(svc.child);
    svc.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});
