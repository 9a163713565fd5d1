import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TmuxApp {
  /** The visible pane as text, one line per row, trailing spaces trimmed (tmux's capture-pane). */
  screen(): string;
  /** Sends keys by tmux's names ('j', 'Down', 'NPage', 'Escape'); literal text with `literal`. */
  press(keys: string[], literal?: boolean): void;
  resize(cols: number, rows: number): void;
  /** The app's process id (the pane runs it without a shell). */
  pid: number;
  /** Ends the session and its tmux server. */
  kill(): void;
}

/** Why the tmux comparisons cannot run here, or '' when tmux is installed (CI installs it: `.ci/run`). */
export const tmuxMissing = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return '';
  } catch {
    return 'tmux is not installed (apt-get install tmux)';
  }
})();

let sessions = 0;

/**
 * The built app in a pane of a tmux server of its own (its own socket, no
 * configuration file, Esc passed at once): tmux reads what the app writes as
 * a terminal of its own, unlike xterm.js, and keeps its own screen of it.
 */
export function tmuxApp(entry: string, args: string[], { cols = 100, rows = 30, env = {} }: { cols?: number; rows?: number; env?: Record<string, string> } = {}): TmuxApp {
  const socket = `vmtui-test-${process.pid}-${sessions++}`;
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...a], { encoding: 'utf8' });
  const vars = { CI: 'false', FORCE_COLOR: '1', XDG_CACHE_HOME: join(tmpdir(), 'vmtui-test-cache'), ...env };
  tmux(
    'new-session',
    '-d',
    '-s',
    'app',
    '-x',
    String(cols),
    '-y',
    String(rows),
    ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    process.execPath,
    entry,
    ...args,
    ';',
    'set',
    '-g',
    'escape-time',
    '0',
  );
  const [pid, socketPath] = tmux('display-message', '-p', '-t', 'app', '#{pane_pid} #{socket_path}').trim().split(' ');
  return {
    screen: () => tmux('capture-pane', '-p', '-t', 'app').replace(/\n$/, ''),
    press: (keys, literal = false) => {
      tmux('send-keys', '-t', 'app', ...(literal ? ['-l'] : []), ...keys);
    },
    resize: (c, r) => {
      tmux('resize-window', '-t', 'app', '-x', String(c), '-y', String(r));
    },
    pid: Number(pid),
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      // tmux leaves its socket file behind when its server is killed.
      if (socketPath) rmSync(socketPath, { force: true });
    },
  };
}
