import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { startService } from './service.js';
import { defaultDataFile } from './data-file.js';
import type { SeedKind } from './seed/index.js';
import type { Speed } from './sim.js';

export const SERVE_USAGE = `Usage: vmtui serve [--host 127.0.0.1] [--port N] [--data FILE|:memory:] [--seed demo|empty]
                   [--token T] [--restricted-token R] [--speed instant|realistic]

Runs the Account Infrastructure API 4.83.1 locally, in the foreground.
  --host              address to listen on (default 127.0.0.1, loopback only)
  --port              port (default 8484; 0 picks a free one)
  --data              SQLite file, or :memory: for a throwaway account
                      (default: service.sqlite in the user's data folder)
  --seed              demo (a lived-in account) or empty (reference data only);
                      applies when the data file is new
  --token             the owner's token (scope *); random when omitted
  --restricted-token  the restricted user's token; random when omitted
  --speed             instant (transitions complete at once) or realistic (seconds)`;

export class UsageError extends Error {}

const TOKEN = /^[\x21-\x7e]{1,256}$/;

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
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!/^\d{1,5}$/.test(values.port!) || Number(values.port) > 65535) throw new UsageError(`--port must be 0..65535, not "${values.port}"`);
  if (values.seed !== 'demo' && values.seed !== 'empty') throw new UsageError(`--seed must be demo or empty, not "${values.seed}"`);
  if (values.speed !== 'instant' && values.speed !== 'realistic') throw new UsageError(`--speed must be instant or realistic, not "${values.speed}"`);
  for (const flag of ['token', 'restricted-token'] as const) {
    const v = values[flag];
    if (v !== undefined && !TOKEN.test(v)) throw new UsageError(`--${flag} must be 1..256 printable characters without spaces`);
  }
  if (values.token !== undefined && values.token === values['restricted-token']) throw new UsageError('--token and --restricted-token must differ');
  return {
    help: values.help ?? false,
    host: values.host!,
    port: Number(values.port),
    data: values.data ?? defaultDataFile(),
    seed: values.seed as SeedKind,
    token: values.token,
    restrictedToken: values['restricted-token'],
    speed: values.speed as Speed,
  };
}

const mask = (t: string) => `${t.slice(0, 6)}…${t.slice(-4)}`;

/** `vmtui serve`: runs in the foreground until SIGINT or SIGTERM. */
export async function runServe(argv: string[]): Promise<number> {
  const opts = parseServeArgs(argv);
  if (opts.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  if (opts.data !== ':memory:') mkdirSync(dirname(opts.data), { recursive: true });
  // Listen for signals before announcing the roots: a supervisor may stop us the moment it reads them.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const svc = await startService(opts);
  const show = (value: string, chosen: boolean) => (chosen ? `${mask(value)} (as given)` : value);
  process.stdout.write(
    [
      `vmtui service: Account Infrastructure API 4.83.1`,
      `  base root:  ${svc.baseUrl}`,
      `  beta root:  ${svc.betaUrl}`,
      `  data:       ${opts.data}`,
      `  speed:      ${opts.speed}`,
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
