import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyToClipboard } from '../../src/app/clipboard.js';
import { spawn } from '@lydell/node-pty';

const sink = () => {
  const writes: string[] = [];
  return { writes, out: { write: (d: string) => writes.push(d) } };
};

/** A folder with a `tmux` that records its arguments and stdin, and exits with `code`. */
function fakeTmux(code: number) {
  const dir = mkdtempSync(join(tmpdir(), 'vmtui-tmux-'));
  const script = join(dir, 'tmux');
  writeFileSync(script, `#!/bin/sh\necho "$@" > "${dir}/args"\ncat > "${dir}/stdin"\nexit ${code}\n`);
  chmodSync(script, 0o755);
  return { dir, env: { ...process.env, TMUX: '/tmp/tmux-1000/default,1,0', PATH: `${dir}:${process.env.PATH}` } };
}

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

describe('copyToClipboard', () => {
  it('outside tmux writes OSC 52 with the text in base64', async () => {
    const { writes, out } = sink();
    expect(await copyToClipboard('héllo', out, { TMUX: '' })).toBe('OSC 52');
    expect(writes).toEqual([`\x1b]52;c;${Buffer.from('héllo').toString('base64')}\x07`]);
  });

  it('inside tmux gives the text to tmux load-buffer -w, which reaches the outer terminal whatever set-clipboard says', async () => {
    const { dir, env } = fakeTmux(0);
    const { writes, out } = sink();
    expect(await copyToClipboard('web-1', out, env)).toBe('tmux buffer and OSC 52');
    expect(readFileSync(join(dir, 'args'), 'utf8').trim()).toBe('load-buffer -w -');
    expect(readFileSync(join(dir, 'stdin'), 'utf8')).toBe('web-1');
    expect(writes).toEqual([]);
  });

  it('when tmux refuses, writes OSC 52 and says what tmux needs', async () => {
    const { env } = fakeTmux(1);
    const { writes, out } = sink();
    expect(await copyToClipboard('web-1', out, env)).toBe('OSC 52; in tmux it needs set -g set-clipboard on');
    expect(writes).toEqual([`\x1b]52;c;${Buffer.from('web-1').toString('base64')}\x07`]);
  });

  it.skipIf(!hasTmux)('a real tmux with its default options sends the copy on to the terminal outside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-tmux-'));
    writeFileSync(join(dir, 'tmux.conf'), '');
    const module = join(process.cwd(), 'src/app/clipboard.ts');
    writeFileSync(join(dir, 'copy.mjs'), `const m = await import(${JSON.stringify(module)});\nawait m.copyToClipboard('copied-in-tmux');\n`);
    // The outer terminal is this pty: what tmux sends it is what a user's terminal would get.
    const term = spawn('tmux', ['-L', `vmtui-test-${process.pid}`, '-f', join(dir, 'tmux.conf'), 'new-session', `${process.execPath} --import tsx ${join(dir, 'copy.mjs')}; sleep 0.5`], {
      name: 'xterm-256color',
      cols: 80,
      rows: 24,
      cwd: process.cwd(),
      env: Object.fromEntries(Object.entries({ ...process.env, TERM: 'xterm-256color' }).filter(([k]) => k !== 'TMUX')) as Record<string, string>,
    });
    let seen = '';
    term.onData((d) => (seen += d));
    await new Promise<void>((resolve) => term.onExit(() => resolve()));
    const sent = [...seen.matchAll(/\x1b\]52;[a-z]*;([A-Za-z0-9+/=]+)/g)].map((m) => Buffer.from(m[1]!, 'base64').toString());
    expect(sent).toContain('copied-in-tmux');
  }, 30_000);
});
