import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bytes a terminal sends for keys. Esc is sent alone: Ink waits a tick before deciding it is not a sequence. */
export const KEYS = {
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageDown: '\x1b[6~',
  backspace: '\x7f',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlS: '\x13',
} as const;

export interface PtyApp {
  /** The visible screen as text, one line per row, trailing spaces trimmed. */
  screen(): Promise<string>;
  /** Polls the screen until it shows `match`; the error shows the last screen. */
  waitForScreen(match: string | RegExp, timeoutMs?: number): Promise<string>;
  press(keys: string): void;
  /** Everything the app wrote, escape sequences included. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  alternateScreen(): boolean;
  resize(cols: number, rows: number): void;
  kill(): void;
}

export interface SpawnOptions {
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  /** The script to run with node; default the built bundle. */
  entry?: string;
  /** Flags for node itself (profiling in benchmarks). */
  nodeArgs?: string[];
}

/** Runs the app in a real pseudo-terminal and keeps a headless xterm of what it draws. */
export function spawnApp(args: string[], opts: SpawnOptions = {}): PtyApp {
  const cols = opts.cols ?? 100;
  const rows = opts.rows ?? 30;
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const proc: IPty = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.entry ?? 'dist/vmtui.js', ...args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: process.cwd(),
    // CI=false lets Ink draw; with CI in the environment chalk would drop colors, so FORCE_COLOR gives the colors of a user's terminal.
    // Code caches of test builds stay out of the user's cache folder.
    env: { ...(process.env as Record<string, string>), CI: 'false', FORCE_COLOR: '1', TERM: 'xterm-256color', XDG_CACHE_HOME: join(tmpdir(), 'vmtui-test-cache'), ...opts.env },
  });
  let raw = '';
  let pending = Promise.resolve();
  proc.onData((data) => {
    raw += data;
    pending = pending.then(() => new Promise<void>((resolve) => term.write(data, resolve)));
  });
  const exited = new Promise<number>((resolve) => proc.onExit(({ exitCode }) => resolve(exitCode)));

  const screen = async () => {
    await pending;
    const buf = term.buffer.active;
    const lines: string[] = [];
    // An inverse space (the text cursor) is not trimmed by xterm: trim it here, as the reader sees it.
    for (let i = 0; i < term.rows; i++) lines.push((buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '').trimEnd());
    return lines.join('\n');
  };

  return {
    screen,
    async waitForScreen(match, timeoutMs = 8000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = await screen();
        if (typeof match === 'string' ? last.includes(match) : match.test(last)) return last;
        await new Promise((r) => setTimeout(r, 15));
      }
      throw new Error(`Timed out waiting for ${String(match)}; the screen was:\n${last}`);
    },
    press: (keys) => proc.write(keys),
    output: () => raw,
    exited,
    alternateScreen: () => term.buffer.active.type === 'alternate',
    resize: (c, r) => {
      proc.resize(c, r);
      term.resize(c, r);
    },
    kill: () => {
      try {
        proc.kill();
      } catch {
        // already gone
      }
    },
  };
}
