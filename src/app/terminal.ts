import { spawn } from 'node:child_process';
import { describeError } from '../api/errors.js';
import { visible } from './visible.js';

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
    process.stderr.write(`vmtui crashed: ${visible(text, true)}\n`);
    process.exit(1);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((signal) => {
    // Ctrl-C typed to a program the terminal is lent to reaches this process too: it is that program's.
    const handler = () => {
      if (!(lent && signal === 'SIGINT')) onSignal(signal);
    };
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

let lent = false;

/**
 * Stops reading the terminal at once; returns what starts it again. A paused
 * stdin still reads ahead into its buffer (libuv goes on until the buffer is
 * full), so a line typed to the program the terminal is lent to would reach
 * this process instead (measured with a stand-in that reads a line). This is
 * what net.Socket#pause does for a socket it reads itself.
 */
function stopReading(stdin: NodeJS.ReadStream): () => void {
  const handle = (stdin as unknown as { _handle?: { reading?: boolean; readStop?: () => number; readStart?: () => number } })._handle;
  if (!handle?.reading || !handle.readStop || !handle.readStart) return () => {};
  handle.reading = false;
  handle.readStop();
  return () => {
    handle.reading = true;
    handle.readStart!();
  };
}

/**
 * Lends the terminal to another program for as long as `run` takes: the
 * normal screen with its cursor and autowrap back, Ctrl-C and Ctrl-\ left to
 * that program; then the alternate screen again, and a SIGWINCH so the frame
 * is drawn whole at the terminal's size now (the screen writer and Node's own
 * size check both listen for it). Cooked input while it runs: the program
 * gets lines and its own Ctrl-C, as from a shell.
 */
export async function lendTerminal<T>(stdout: { write(data: string): unknown }, run: () => Promise<T>): Promise<T> {
  const keep = () => {};
  lent = true;
  const raw = process.stdin.isTTY && process.stdin.isRaw;
  if (raw) process.stdin.setRawMode(false);
  const readAgain = stopReading(process.stdin);
  process.on('SIGQUIT', keep);
  stdout.write(LEAVE);
  try {
    return await run();
  } finally {
    lent = false;
    if (raw) process.stdin.setRawMode(true);
    readAgain();
    process.off('SIGQUIT', keep);
    stdout.write(ENTER);
    if (process.stdout.isTTY) {
      // Handled before the caller goes on: the frame drawn next is drawn whole.
      const seen = new Promise((resolve) => process.once('SIGWINCH', resolve));
      process.kill(process.pid, 'SIGWINCH');
      await seen;
    }
  }
}

export const SIGNAL_EXIT_CODES: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** How a program run on the lent terminal ended: never a rejection, a message for the message line. */
export interface Ended {
  ok: boolean;
  /** The program was not there to run (ENOENT). */
  missing?: boolean;
  text: string;
}

/** Runs `program` on the terminal (stdio inherited), for lendTerminal. */
export function runInherited(program: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: 'inherit', ...(env ? { env } : {}) });
    child.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ENOENT' ? { ok: false, missing: true, text: `${program} was not found` } : { ok: false, text: `${program} could not start: ${describeError(err)}` }),
    );
    child.on('exit', (code, signal) => resolve({ ok: code === 0, text: signal ? `ended by ${signal}` : `exited with ${code}` }));
  });
}
