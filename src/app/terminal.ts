// Autowrap is off while the app draws: a line too wide for the screen (a frame drawn for the width before a resize) is cut, not wrapped onto the next row.
const ENTER = '\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?7l';
const LEAVE = '\x1b[?7h\x1b[?25h\x1b[?1049l';

/**
 * Switches to the alternate screen and makes sure the terminal is given back
 * however the process ends: normal exit, a signal, or a crash (the error is
 * printed after the screen is restored, so it stays readable).
 */
export function takeTerminal(stdout: NodeJS.WriteStream, onSignal: (signal: NodeJS.Signals) => void): () => void {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (process.stdin.isTTY) process.stdin.setRawMode?.(false);
    stdout.write(LEAVE);
  };
  const crash = (err: unknown) => {
    restore();
    const text = err instanceof Error ? err.message : String(err);
    process.stderr.write(`vmtui crashed: ${text}\n`);
    process.exit(1);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((signal) => {
    const handler = () => onSignal(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  process.on('exit', restore);
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  stdout.write(ENTER);
  return () => {
    restore();
    for (const [signal, handler] of handlers) process.off(signal, handler);
    process.off('exit', restore);
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
  };
}

export const SIGNAL_EXIT_CODES: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Gives the terminal to a program run by `run` (synchronously, so the app
 * reads no key meanwhile): the normal screen, cooked input, the cursor; the
 * app's screen is taken back after, for the caller to redraw whole.
 */
export function lendTerminal<T>(stdout: NodeJS.WriteStream, run: () => T): T {
  const raw = process.stdin.isTTY && process.stdin.isRaw;
  stdout.write(LEAVE);
  if (raw) process.stdin.setRawMode(false);
  try {
    return run();
  } finally {
    if (raw) process.stdin.setRawMode(true);
    stdout.write(ENTER);
  }
}
