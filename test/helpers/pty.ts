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
  /** Waits until the screen shows `match`, checked as each of the app's writes lands; the error shows the last screen. */
  waitForScreen(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** As waitForScreen, with the time (performance.now()) the write that made the screen match came from the app. */
  shown(match: string | RegExp, timeoutMs?: number): Promise<{ screen: string; at: number }>;
  press(keys: string): void;
  /** Everything the app wrote, escape sequences included. */
  output(): string;
  /** The time (performance.now()) the app's first write reached the terminal. */
  firstWriteAt: Promise<number>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  alternateScreen(): boolean;
  resize(cols: number, rows: number): void;
  kill(): void;
  /** The app's process id. */
  pid: number;
}

export interface SpawnOptions {
  /** A program to run with `args` instead of Node.js with the entry: the single executable. */
  executable?: string;
  cols?: number;
  rows?: number;
  /** Added to the environment; a variable set to undefined is removed from it. */
  env?: Record<string, string | undefined>;
  /** The script to run with node; default the built bundle. */
  entry?: string;
  /** Flags for node itself (profiling in benchmarks). */
  nodeArgs?: string[];
  /** The app's working folder (where an export lands); default this process's. */
  cwd?: string;
}

/** Runs the app in a real pseudo-terminal and keeps a headless xterm of what it draws. */
export function spawnApp(args: string[], opts: SpawnOptions = {}): PtyApp {
  const cols = opts.cols ?? 100;
  const rows = opts.rows ?? 30;
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const proc: IPty = spawn(opts.executable ?? process.execPath, opts.executable ? args : [...(opts.nodeArgs ?? []), opts.entry ?? 'dist/vmtui.js', ...args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: opts.cwd ?? process.cwd(),
    // CI=false lets Ink draw; with CI in the environment chalk would drop colors, so FORCE_COLOR gives the colors of a user's terminal.
    // Code caches of test builds stay out of the user's cache folder.
    env: Object.fromEntries(
      Object.entries({ ...process.env, CI: 'false', FORCE_COLOR: '1', TERM: 'xterm-256color', XDG_CACHE_HOME: join(tmpdir(), 'vmtui-test-cache'), ...opts.env }).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    ),
  });
  let raw = '';
  let pending = Promise.resolve();
  // Each watcher is checked after every write has landed in the terminal: no polling interval adds to what a benchmark reads.
  const watchers = new Set<(arrivedAt: number) => void>();
  let firstWrite!: (at: number) => void;
  const firstWriteAt = new Promise<number>((resolve) => (firstWrite = resolve));
  proc.onData((data) => {
    const arrivedAt = performance.now();
    if (raw === '') firstWrite(arrivedAt);
    raw += data;
    pending = pending.then(
      () =>
        new Promise<void>((resolve) =>
          term.write(data, () => {
            for (const check of watchers) check(arrivedAt);
            resolve();
          }),
        ),
    );
  });
  const exited = new Promise<number>((resolve) => proc.onExit(({ exitCode }) => resolve(exitCode)));

  const visible = () => {
    const buf = term.buffer.active;
    const lines: string[] = [];
    // An inverse space (the text cursor) is not trimmed by xterm: trim it here, as the reader sees it.
    for (let i = 0; i < term.rows; i++) lines.push((buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '').trimEnd());
    return lines.join('\n');
  };
  const screen = async () => {
    await pending;
    return visible();
  };

  const shown = async (match: string | RegExp, timeoutMs = 8000) => {
    const matches = (text: string) => (typeof match === 'string' ? text.includes(match) : match.test(text));
    await pending;
    const now = visible();
    if (matches(now)) return { screen: now, at: performance.now() };
    return new Promise<{ screen: string; at: number }>((resolve, reject) => {
      const check = (arrivedAt: number) => {
        const text = visible();
        if (!matches(text)) return;
        done();
        resolve({ screen: text, at: arrivedAt });
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`Timed out waiting for ${String(match)}; the screen was:\n${visible()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        watchers.delete(check);
      };
      watchers.add(check);
    });
  };

  return {
    screen,
    shown,
    waitForScreen: (match, timeoutMs) => shown(match, timeoutMs).then((r) => r.screen),
    press: (keys) => proc.write(keys),
    output: () => raw,
    firstWriteAt,
    exited,
    alternateScreen: () => term.buffer.active.type === 'alternate',
    resize: (c, r) => {
      proc.resize(c, r);
      term.resize(c, r);
    },
    pid: proc.pid,
    kill: () => {
      try {
        proc.kill();
      } catch {
        // already gone
      }
    },
  };
}

/** `:name` Enter, the way a user jumps to an area; with `shows`, waits for the screen that matches it and gives it. */
export async function jump(app: PtyApp, name: string, shows?: RegExp, timeoutMs?: number): Promise<string | undefined> {
  app.press(':');
  // The cursor after the text is a space drawn inverse.
  await app.waitForScreen(/^: ?$/m);
  app.press(name);
  await app.waitForScreen(new RegExp(`^:${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ?$`, 'm'));
  app.press(KEYS.enter);
  return shows && app.waitForScreen(shows, timeoutMs);
}

/**
 * Starts the app, waits for the home view's counts, runs `meanwhile` (more
 * keys, more waiting), quits with `q`: its exit code and all it wrote. The
 * process is killed whatever happens.
 */
export async function opensHomeAndQuits(args: string[], opts: SpawnOptions, meanwhile?: (app: PtyApp) => Promise<void>): Promise<{ code: number; output: string }> {
  const app = spawnApp(args, opts);
  try {
    await app.waitForScreen(/Instances\s+\d+[^]*Regions\s+\d+/, 30_000);
    await meanwhile?.(app);
    app.press('q');
    return { code: await app.exited, output: app.output() };
  } finally {
    app.kill();
  }
}
