import { render } from 'ink';
import { ApiClient } from '../api/client.js';
import { screens } from '../screens/index.js';
import { startLivePoller } from '../store/live.js';
import type { SessionInit } from '../store/session.js';
import { App } from './App.js';
import { createAppContext } from './context.js';
import { SIGNAL_EXIT_CODES, takeTerminal } from './terminal.js';

export interface StartOptions {
  baseUrl: string;
  betaUrl: string;
  token: string;
  session: SessionInit;
}

/** Renders the app full-screen until q, Ctrl-C or a signal; resolves with the exit code. */
export async function startApp(opts: StartOptions): Promise<number> {
  const stdout = process.stdout;
  const client = new ApiClient({ baseUrl: opts.baseUrl, betaUrl: opts.betaUrl, token: opts.token });
  let exitCode = 0;
  const ctx = createAppContext({
    client,
    session: opts.session,
    screens,
    rows: stdout.rows,
    cols: stdout.columns,
    quit: () => instance.unmount(),
  });
  const release = takeTerminal(stdout, (signal) => {
    exitCode = SIGNAL_EXIT_CODES[signal] ?? 1;
    instance.unmount();
  });
  const onResize = () => ctx.ui.getState().resize(stdout.rows, stdout.columns);
  stdout.on('resize', onResize);
  const instance = render(<App ctx={ctx} />, { exitOnCtrlC: false, patchConsole: false, maxFps: 60 });
  // Events, problem services and refetches of what they touch, without a key press.
  const live = startLivePoller({ client, data: ctx.data, session: ctx.session });
  try {
    await instance.waitUntilExit();
  } catch (err) {
    release();
    process.stderr.write(`vmtui crashed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    live.stop();
    stdout.off('resize', onResize);
    release();
  }
  return exitCode;
}
