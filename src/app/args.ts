import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readOptions, UsageError } from '../command-line.js';

export const USAGE = `Usage: vmtui [--api-url URL --token T | --profile NAME] [options]
       vmtui serve [options]     run the API service (vmtui serve --help)
       vmtui import [options]    copy an account into a data file serve serves (vmtui import --help)

Full-screen terminal UI for one account of the Account Infrastructure API 4.83.1.
Without --api-url or --profile it runs on the embedded demo account: a local
service on a loopback port, its data in the user's data folder.

  --api-url URL        the API's base root, ending in /v4     (env VM_API_URL)
  --beta-url URL       the beta root (default: the base root with /v4beta)
  --token T            the access token                       (env VM_TOKEN)
  --profile NAME       a named profile from the config file
  --save-profile NAME  save --api-url, --beta-url and --token as a profile, then run
  --read-only          hide and refuse every change
  --refresh SECONDS    background refresh of the visible view (default 5, at least 2)
  --fresh              embedded demo: start again from a new data file
  --export-dir DIR     where Ctrl-S saves a list (default: the current folder)
  -h, --help           show this help
  -v, --version        show the version

Inside: ? lists the keys of the current view, : jumps to an area, q quits.`;

export interface TuiOptions {
  help: boolean;
  version: boolean;
  apiUrl?: string;
  betaUrl?: string;
  token?: string;
  profile?: string;
  saveProfile?: string;
  readOnly: boolean;
  refreshSeconds: number;
  fresh: boolean;
  /** An existing folder, absolute. */
  exportDir?: string;
}

export const MIN_REFRESH_SECONDS = 2;

export function parseTuiArgs(argv: string[]): TuiOptions {
  const values = readOptions(argv, {
    'api-url': { type: 'string' },
    'beta-url': { type: 'string' },
    token: { type: 'string' },
    profile: { type: 'string' },
    'save-profile': { type: 'string' },
    'read-only': { type: 'boolean' },
    refresh: { type: 'string' },
    fresh: { type: 'boolean' },
    'export-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  });
  let refreshSeconds = 5;
  if (values.refresh !== undefined) {
    refreshSeconds = Number(values.refresh);
    if (!/^\d+(\.\d+)?$/.test(values.refresh) || !Number.isFinite(refreshSeconds)) throw new UsageError(`--refresh must be a number of seconds, not "${values.refresh}"`);
    if (refreshSeconds < MIN_REFRESH_SECONDS) throw new UsageError(`--refresh must be at least ${MIN_REFRESH_SECONDS} seconds (got ${values.refresh})`);
  }
  for (const flag of ['api-url', 'beta-url', 'token', 'profile', 'save-profile', 'export-dir'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} must not be empty`);
  }
  const exportDir = values['export-dir'] === undefined ? undefined : existingFolder(values['export-dir']);
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    apiUrl: values['api-url'],
    betaUrl: values['beta-url'],
    token: values.token,
    profile: values.profile,
    saveProfile: values['save-profile'],
    readOnly: values['read-only'] ?? false,
    refreshSeconds,
    fresh: values.fresh ?? false,
    exportDir,
  };
}

/** Said at start, not at the first export: a mistyped folder is found while the user is still at the command line. */
function existingFolder(dir: string): string {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`--export-dir ${dir} does not exist`);
  if (!stat.isDirectory()) throw new UsageError(`--export-dir ${dir} is not a folder`);
  return resolve(dir);
}
