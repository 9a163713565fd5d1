import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { readOptions, UsageError } from '../command-line.js';
import type { Accounts } from './accounts.js';
import { isIP } from 'node:net';
import { startService } from './service.js';
import { defaultDataFile, isDataFileError } from './data-file.js';
import type { SeedKind } from './accounts.js';
import type { Speed } from './sim.js';
import type { ClockState } from './clock.js';

export const SERVE_USAGE = `Usage: vmtui serve [--host 127.0.0.1] [--port N] [--data FILE|:memory:] [--seed demo|empty]
                   [--token T] [--restricted-token R] [--speed instant|realistic] [--strict]
                   [--ready-json] [--ready-file PATH] [--scopes-report FILE]

Runs the Account Infrastructure API 4.83.1 locally, in the foreground.
  --host              address to listen on (default 127.0.0.1, loopback only;
                      any other takes tokens of 32 characters or more)
  --port              port (default 8484; 0 picks a free one)
  --data              SQLite file, or :memory: for a throwaway account
                      (default: service.sqlite in the user's data folder); made
                      0600, its secrets sealed with the key in FILE.key beside it
  --seed              demo (a lived-in account) or empty (reference data only);
                      applies when the data file is new
  --token             the owner's token (scope *); random when omitted
  --restricted-token  the restricted user's token; random when omitted
  --speed             instant (transitions complete at once) or realistic (seconds)
  --strict            refuse request fields 4.83.1 does not define, and nulls it
                      does not allow (400), to prove a client speaks 4.83.1
                      exactly; by default they are ignored, as the real API
                      does, and named in the response header X-Ignored-Fields
  --ready-json        print only one JSON line once it answers requests:
                      {"base_url","beta_url","token","restricted_token","pid"}
  --ready-file PATH   write that JSON to PATH (0600, atomically) once it answers;
                      removed when the service stops
  --scopes-report     when the service stops, write to FILE what its requests
                      needed of their tokens' scopes, per account (JSON, as
                      GET /__control/scopes answers)

SIGINT and SIGTERM stop it cleanly (kill the "pid" of the JSON). Started by npm
(npx vmtui serve, npm run), it also stops when npm goes away.`;

/** What a token given to the service may be: printable, no spaces. */
export const TOKEN_FORMAT = /^[\x21-\x7e]{1,256}$/;

/** A token a service reachable from other machines accepts: short ones are guessable. */
export const MIN_EXPOSED_TOKEN_LENGTH = 32;

/** Whether only this machine can reach an address: localhost, 127.0.0.0/8, ::1 (also as ::ffff:127.x). */
export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (address === 'localhost') return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || /^(0{0,4}:){5}ffff:127\./.test(address.replace(/^::/, '0:0:0:0:0:'));
}

export function parseServeArgs(argv: string[]) {
  const values = readOptions(argv, {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8484' },
    data: { type: 'string' },
    seed: { type: 'string', default: 'demo' },
    token: { type: 'string' },
    'restricted-token': { type: 'string' },
    speed: { type: 'string', default: 'realistic' },
    strict: { type: 'boolean', default: false },
    'ready-json': { type: 'boolean', default: false },
    'ready-file': { type: 'string' },
    'scopes-report': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!/^\d{1,5}$/.test(values.port!) || Number(values.port) > 65535) throw new UsageError(`--port must be 0..65535, not "${values.port}"`);
  if (values.data !== undefined && values.data.trim() === '') throw new UsageError('--data must name a file, or be :memory:');
  if (values['scopes-report'] !== undefined && values['scopes-report'].trim() === '') throw new UsageError('--scopes-report must name a file');
  if (values.seed !== 'demo' && values.seed !== 'empty') throw new UsageError(`--seed must be demo or empty, not "${values.seed}"`);
  if (values.speed !== 'instant' && values.speed !== 'realistic') throw new UsageError(`--speed must be instant or realistic, not "${values.speed}"`);
  for (const flag of ['token', 'restricted-token'] as const) {
    const v = values[flag];
    if (v !== undefined && !TOKEN_FORMAT.test(v)) throw new UsageError(`--${flag} must be 1..256 printable characters without spaces`);
  }
  if (values['ready-file'] !== undefined && values['ready-file'].trim() === '') throw new UsageError('--ready-file must name a file');
  if (values.token !== undefined && values.token === values['restricted-token']) throw new UsageError('--token and --restricted-token must differ');
  if (!isLoopback(values.host!)) {
    for (const flag of ['token', 'restricted-token'] as const) {
      const v = values[flag];
      if (v !== undefined && v.length < MIN_EXPOSED_TOKEN_LENGTH) {
        throw new UsageError(`--${flag} must be at least ${MIN_EXPOSED_TOKEN_LENGTH} characters with --host ${values.host}, which other machines can reach (short tokens are for loopback only)`);
      }
    }
  }
  return {
    help: values.help ?? false,
    host: values.host!,
    port: Number(values.port),
    data: values.data ?? defaultDataFile(),
    seed: values.seed as SeedKind,
    token: values.token,
    restrictedToken: values['restricted-token'],
    speed: values.speed as Speed,
    strict: values.strict!,
    readyJson: values['ready-json']!,
    readyFile: values['ready-file'],
    scopesReport: values['scopes-report'],
  };
}

/** What a program in any language reads to call the service: one JSON line. */
function readyLine(svc: { baseUrl: string; betaUrl: string; token: string; restrictedToken: string }): string {
  return `${JSON.stringify({ base_url: svc.baseUrl, beta_url: svc.betaUrl, token: svc.token, restricted_token: svc.restrictedToken, pid: process.pid })}\n`;
}

/**
 * Writes the ready file as a whole or not at all: a poller sees no file, or
 * all of it. It holds the tokens, so it is the owner's alone from its first byte.
 */
function writeReadyFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}

const PARENT_CHECK_MS = 500;

/**
 * Under npm (`npx vmtui serve`, `npm run serve`) the service is npm's child,
 * and npm does not pass a SIGTERM on: `npx vmtui serve & … kill $!` would
 * leave it running with no one to stop it. Its parent going away stops it.
 * Any other parent may mean to leave it running (nohup, a double fork).
 */
function stopWithNpm(stop: () => void): void {
  if (process.env.npm_execpath === undefined) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, PARENT_CHECK_MS).unref();
}

const mask = (t: string) => `${t.slice(0, 6)}…${t.slice(-4)}`;

/** The account's clock, when a data file brought one that is not the machine's: a frozen fixture would otherwise puzzle whoever waits on it. */
function clockLine(clock: ClockState): string {
  const offset = Math.round(clock.offset_seconds);
  if (!clock.frozen && offset === 0) return '';
  const against = offset === 0 ? 'at' : `${Math.abs(offset)} s ${offset > 0 ? 'ahead of' : 'behind'}`;
  return `  clock:      ${clock.now}, ${clock.frozen ? 'frozen' : 'running'} ${against} this machine's (see POST /__control/clock)`;
}

/** What each account's requests needed of their tokens' scopes, by account id: the `--scopes-report` file. */
function scopesReport(accounts: Accounts) {
  return Object.fromEntries(accounts.list().map((a) => [String(a.id), a.scopes.report()]));
}

/** `vmtui serve`: runs in the foreground until SIGINT or SIGTERM. */
export async function runServe(argv: string[]): Promise<number> {
  const opts = parseServeArgs(argv);
  if (opts.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  if (!isLoopback(opts.host)) {
    process.stderr.write(
      `vmtui serve: warning: --host ${opts.host} lets other machines reach the service. It speaks plain HTTP: tokens and data cross the network unencrypted, and whoever holds the owner token controls the account. Put it behind a TLS proxy, or keep it on loopback.\n`,
    );
  }
  // Listen for signals before announcing the roots: a supervisor may stop us the moment it reads them.
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  stopWithNpm(stop);
  // A ready file left by a run that was killed must not pass for this one's.
  if (opts.readyFile !== undefined) rmSync(opts.readyFile, { force: true });
  if (opts.scopesReport !== undefined) {
    // Written now, so a path that cannot be written is said at start, not lost at the end of a run.
    try {
      writeFileSync(opts.scopesReport, '{}\n');
    } catch (err) {
      process.stderr.write(`vmtui serve: cannot write the scopes report ${opts.scopesReport}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  let svc: Awaited<ReturnType<typeof startService>>;
  try {
    svc = await startService(opts);
  } catch (err) {
    if (!isDataFileError(err)) throw err;
    const remedy = err.startOver ? '\nTo start over, move the file aside (with its -wal, -shm and .key files) or pass another --data file.' : '';
    process.stderr.write(`vmtui serve: ${err.message}.${remedy}\n`);
    return 1;
  }
  if (opts.readyFile !== undefined) {
    try {
      writeReadyFile(opts.readyFile, readyLine(svc));
    } catch (err) {
      await svc.close();
      process.stderr.write(`vmtui serve: cannot write the ready file ${opts.readyFile}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  const show = (value: string, chosen: boolean) => (chosen ? `${mask(value)} (as given)` : value);
  const banner =
    [
      `vmtui service: Account Infrastructure API 4.83.1`,
      `  base root:  ${svc.baseUrl}`,
      `  beta root:  ${svc.betaUrl}`,
      `  data:       ${opts.data}`,
      `  speed:      ${opts.speed}`,
      `  reading:    ${opts.strict ? 'strict (fields 4.83.1 does not define are refused)' : 'tolerant (fields 4.83.1 does not define are ignored, named in X-Ignored-Fields)'}`,
      clockLine(svc.store.clock.state()),
      `  owner token (scope *):  ${show(svc.token, opts.token !== undefined)}`,
      `  restricted user token:  ${show(svc.restrictedToken, opts.restrictedToken !== undefined)}`,
      svc.generatedTokens ? '  The generated tokens are shown only now; they are stored hashed.' : '',
      'Press Ctrl-C to stop.',
      '',
    ]
      .filter((l) => l !== '')
      .join('\n') + '\n';
  process.stdout.write(opts.readyJson ? readyLine(svc) : banner);
  await stopped;
  if (opts.scopesReport !== undefined) writeFileSync(opts.scopesReport, `${JSON.stringify(scopesReport(svc.accounts), null, 2)}\n`);
  await svc.close();
  // The tokens it holds end with this run (generated ones are revoked), and a poller must not take it for the next run's.
  if (opts.readyFile !== undefined) rmSync(opts.readyFile, { force: true });
  if (!opts.readyJson) process.stdout.write('vmtui service stopped.\n');
  return 0;
}
