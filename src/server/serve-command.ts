import { parseArgs } from 'node:util';
import { isIP } from 'node:net';
import { startService } from './service.js';
import { defaultDataFile, isDataFileError } from './data-file.js';
import { isNativeModuleError } from './native-module.js';
import type { SeedKind } from './seed/index.js';
import type { Speed } from './sim.js';
import type { ClockState } from './clock.js';

export const SERVE_USAGE = `Usage: vmtui serve [--host 127.0.0.1] [--port N] [--data FILE|:memory:] [--seed demo|empty]
                   [--token T] [--restricted-token R] [--speed instant|realistic] [--strict]

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
                      does, and named in the response header X-Ignored-Fields`;

export class UsageError extends Error {}

const TOKEN = /^[\x21-\x7e]{1,256}$/;

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
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8484' },
      data: { type: 'string' },
      seed: { type: 'string', default: 'demo' },
      token: { type: 'string' },
      'restricted-token': { type: 'string' },
      speed: { type: 'string', default: 'realistic' },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!/^\d{1,5}$/.test(values.port!) || Number(values.port) > 65535) throw new UsageError(`--port must be 0..65535, not "${values.port}"`);
  if (values.data !== undefined && values.data.trim() === '') throw new UsageError('--data must name a file, or be :memory:');
  if (values.seed !== 'demo' && values.seed !== 'empty') throw new UsageError(`--seed must be demo or empty, not "${values.seed}"`);
  if (values.speed !== 'instant' && values.speed !== 'realistic') throw new UsageError(`--speed must be instant or realistic, not "${values.speed}"`);
  for (const flag of ['token', 'restricted-token'] as const) {
    const v = values[flag];
    if (v !== undefined && !TOKEN.test(v)) throw new UsageError(`--${flag} must be 1..256 printable characters without spaces`);
  }
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
  };
}

const mask = (t: string) => `${t.slice(0, 6)}…${t.slice(-4)}`;

/** The account's clock, when a data file brought one that is not the machine's: a frozen fixture would otherwise puzzle whoever waits on it. */
function clockLine(clock: ClockState): string {
  const offset = Math.round(clock.offset_seconds);
  if (!clock.frozen && offset === 0) return '';
  const against = offset === 0 ? 'at' : `${Math.abs(offset)} s ${offset > 0 ? 'ahead of' : 'behind'}`;
  return `  clock:      ${clock.now}, ${clock.frozen ? 'frozen' : 'running'} ${against} this machine's (see POST /__control/clock)`;
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
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  let svc: Awaited<ReturnType<typeof startService>>;
  try {
    svc = await startService(opts);
  } catch (err) {
    if (isNativeModuleError(err)) {
      process.stderr.write(`vmtui serve: ${err.message}\n`);
      return 1;
    }
    if (!isDataFileError(err)) throw err;
    const remedy = err.startOver ? '\nTo start over, move the file aside (with its -wal, -shm and .key files) or pass another --data file.' : '';
    process.stderr.write(`vmtui serve: ${err.message}.${remedy}\n`);
    return 1;
  }
  const show = (value: string, chosen: boolean) => (chosen ? `${mask(value)} (as given)` : value);
  process.stdout.write(
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
      .join('\n') + '\n',
  );
  await stopped;
  await svc.close();
  process.stdout.write('vmtui service stopped.\n');
  return 0;
}
