import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { OWNER_TOKEN } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp({ seed: 'empty' });

function start(args: string[] = [], opts: { env?: Record<string, string>; cols?: number; rows?: number } = {}) {
  return built.start(['--api-url', built.svc.baseUrl, '--token', OWNER_TOKEN, ...args], opts);
}

describe('vmtui in a terminal', () => {
  it('starts on the home view, drills into regions, filters, shows a detail, goes back and quits cleanly', async () => {
    const app = start();
    await app.waitForScreen(/Regions\s+7[^]*Types\s+9/);
    expect(app.alternateScreen()).toBe(true);
    app.press(':');
    await app.waitForScreen(/^:$/m);
    app.press('regions');
    // Not ':regions' alone: the home view lists that too.
    await app.waitForScreen(/^:regions$/m);
    app.press(KEYS.enter);
    await app.waitForScreen('7 items');
    app.press('/');
    await app.waitForScreen(/^\//m);
    app.press('eu-');
    await app.waitForScreen('2 of 7');
    app.press(KEYS.enter);
    // The filter is kept; the list's own keys are back in the footer.
    await app.waitForScreen(/^\/eu-[^]*^\? help .*Enter open/m);
    app.press(KEYS.enter);
    // The detail reads the region from its own endpoint: a spinner, then the record.
    await app.waitForScreen(/home › regions › detail[^]*country +(uk|de)/);
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › regions$/m);
    app.press(KEYS.esc);
    await app.waitForScreen('7 items');
    app.press(KEYS.esc);
    await app.waitForScreen(/^home$/m);
    app.press('q');
    expect(await app.exited).toBe(0);
    expect(app.output()).toContain('\x1b[?1049h');
    expect(app.output()).toContain('\x1b[?1049l');
    await new Promise((r) => setTimeout(r, 50));
    expect(app.alternateScreen()).toBe(false);
  });

  it("has the first screen's requests on their way before it takes the terminal and draws its first frame", async () => {
    let firstConnectionAt: number | undefined;
    const onConnection = () => (firstConnectionAt ??= performance.now());
    built.svc.app.server.on('connection', onConnection);
    try {
      const app = start();
      const firstWriteAt = await app.firstWriteAt;
      await app.waitForScreen(/Regions\s+7/);
      expect(firstConnectionAt!).toBeLessThan(firstWriteAt);
      app.press('q');
      expect(await app.exited).toBe(0);
    } finally {
      built.svc.app.server.off('connection', onConnection);
    }
  });

  it('never draws more lines than the terminal has minus one, and re-lays out on resize', async () => {
    const app = start([], { cols: 100, rows: 30 });
    await app.waitForScreen(/Regions\s+7/);
    const lines = (await app.screen()).split('\n');
    expect(lines.at(-1)).toBe('');
    app.resize(80, 24);
    const small = await app.waitForScreen((/^\? help/m));
    const rows = small.split('\n');
    expect(rows).toHaveLength(24);
    expect(rows.findIndex((l) => l.startsWith('? help'))).toBeLessThanOrEqual(21);
    app.press('q');
    expect(await app.exited).toBe(0);
  });

  it('--read-only shows a badge; SIGTERM restores the terminal', async () => {
    const app = start(['--read-only']);
    await app.waitForScreen('[READ-ONLY]');
    app.kill();
    await app.exited;
    expect(app.output()).toContain('\x1b[?1049l');
  });

  // SGR sequences setting a foreground or background color.
  const COLOR = /\x1b\[(3[0-9]|4[0-9]|9[0-7])(;\d+)*m/;

  it('draws in color in a color terminal, and without any under NO_COLOR', async () => {
    const colored = start([]);
    await colored.waitForScreen(/Regions\s+7/);
    colored.press('q');
    await colored.exited;
    expect(colored.output()).toMatch(COLOR);

    const app = start([], { env: { NO_COLOR: '1' } });
    await app.waitForScreen(/Regions\s+7/);
    app.press('q');
    await app.exited;
    expect(app.output()).not.toMatch(COLOR);
  });
});

describe('vmtui outside a terminal', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [built.entry, ...args], { encoding: 'utf8', input: '', env: { ...process.env, CI: 'false' } });

  it('refuses to start without a TTY, with a clear message and exit code 2', () => {
    const r = run(['--api-url', built.svc.baseUrl, '--token', OWNER_TOKEN]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^vmtui: the terminal UI needs an interactive terminal/);
    expect(r.stderr).not.toContain(OWNER_TOKEN);
  });

  it('a bad flag exits 2 with the reason; --help and --version exit 0', () => {
    const bad = run(['--bogus']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("vmtui: unknown option --bogus\nRun 'vmtui --help' for usage.\n");
    const slow = run(['--refresh', '1']);
    expect(slow.status).toBe(2);
    expect(slow.stderr).toContain('--refresh must be at least 2 seconds');
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--api-url URL');
    expect(run(['--version']).stdout).toMatch(/^vmtui \d+\.\d+\.\d+\n$/);
  });
});
