import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, defaultConfigFile, readConfig, saveColumns, type LoadedConfig } from '../config/config.js';
import { resolveTarget, type Target } from '../config/target.js';
import { parseTuiArgs, USAGE, type TuiOptions } from './args.js';
import { UsageError } from '../command-line.js';
import { defaultDataFile, moveAside } from '../server/data-file.js';
import { startEmbedded } from '../server/embedded.js';
import { loadApp } from '../boot/parts.js';
import { visible } from './visible.js';

/** Set by the build from package.json: a bundle may run where no package.json is beside it (the single executable). */
declare const VMTUI_VERSION: string | undefined;

function version(): string {
  if (typeof VMTUI_VERSION === 'string') return VMTUI_VERSION;
  // From the sources (tsx): the checkout's package.json, two folders up.
  return (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
}

const fail = (message: string, code = 2) => {
  process.stderr.write(`vmtui: ${visible(message, true)}\n`);
  return code;
};

/**
 * The embedded demo service: a loopback port, a fresh token per run, revoked
 * when the run ends (another window's run keeps its own). Its thread starts
 * before the app's own code is loaded. `--fresh` starts the account over and
 * keeps the old data file aside, never deletes it: it may be the only copy of
 * what someone wants back from a damaged file.
 */
async function embedded(fresh: boolean, kept: (aside: string) => void) {
  const data = defaultDataFile();
  const aside = fresh ? moveAside(data) : undefined;
  if (aside) kept(aside);
  return startEmbedded(data);
}

/** `vmtui [options]`: arguments, configuration and the service; then the full-screen terminal UI. */
export async function runTui(argv: string[]): Promise<number> {
  let opts: TuiOptions;
  let target: Target;
  let loaded: LoadedConfig;
  let configFile: string;
  try {
    opts = parseTuiArgs(argv);
    if (opts.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (opts.version) {
      process.stdout.write(`vmtui ${version()}\n`);
      return 0;
    }
    configFile = defaultConfigFile();
    // A bad entry costs itself: the app starts with the rest and says what it left out.
    loaded = readConfig(configFile);
    target = resolveTarget(opts, process.env, configFile, loaded);
  } catch (err) {
    if (err instanceof UsageError) return fail(`${err.message}\nRun 'vmtui --help' for usage.`);
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  if (!process.stdin.isTTY || typeof process.stdin.setRawMode !== 'function' || !process.stdout.isTTY) {
    return fail('the terminal UI needs an interactive terminal (stdin and stdout must be a TTY); to script the API, use `vmtui serve` and any HTTP client');
  }
  // chalk decides on colors when Ink is first imported, and it ignores NO_COLOR.
  if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
  // Ink draws nothing when it thinks it runs in CI; here a person is at a terminal.
  if (process.env.CI !== undefined) process.env.CI = 'false';
  // The embedded service starts while the app loads and draws; its first requests wait for it.
  let keptAside: string | undefined;
  const svc = target.kind === 'embedded' ? embedded(target.fresh, (aside) => (keptAside = aside)) : undefined;
  svc?.catch(() => {});
  // Started on a profile, the demo account starts only when :ctx switches to it.
  let demo = svc;
  const demoAccount = {
    connect: async () => {
      demo ??= embedded(false, () => {});
      try {
        const c = await demo;
        await c.started;
        return c;
      } catch (err) {
        // A later :ctx tries again.
        if (demo !== svc) demo = undefined;
        throw err;
      }
    },
    running: () => demo !== undefined,
  };
  const { startApp } = await loadApp();
  try {
    return await startApp({
      connection: target.kind === 'remote' ? { baseUrl: target.apiUrl, betaUrl: target.betaUrl, token: target.token } : svc!,
      session: {
        endpoint: target.kind === 'remote' ? target.apiUrl : 'starting…',
        embedded: svc !== undefined,
        profileName: target.kind === 'remote' ? target.profileName : undefined,
        readOnly: opts.readOnly,
        refreshSeconds: opts.refreshSeconds,
        // The flag, then the config file; else the current folder.
        exportDir: opts.exportDir ?? loaded.config.exportDir,
      },
      settings: { aliases: loaded.config.aliases, plugins: loaded.config.plugins, history: loaded.config.history, alerts: loaded.config.alerts, columns: loaded.config.columns },
      notices: loaded.problems,
      profiles: loaded.config.profiles,
      demo: demoAccount,
      configFile,
      saveColumns: (view, columns) => saveColumns(configFile, view, columns),
    });
  } finally {
    await (await demo?.catch(() => undefined))?.close();
    // Said once the terminal is back: the full-screen app would cover it.
    if (keptAside) process.stderr.write(`vmtui: --fresh started the demo account over; the previous data is kept as ${keptAside}\n`);
  }
}
