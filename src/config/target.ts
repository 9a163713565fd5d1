import type { TuiOptions } from '../app/args.js';
import { UsageError } from '../command-line.js';
import { readConfig, saveProfile, type LoadedConfig } from './config.js';

/** Where the app connects: the embedded demo service, or a server speaking the API. */
export type Target =
  | { kind: 'embedded'; fresh: boolean }
  | { kind: 'remote'; apiUrl: string; betaUrl: string; token: string; profileName?: string };

function checkRoot(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a URL like http://127.0.0.1:8484/v4, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL, not "${value}"`);
  return value.replace(/\/+$/, '');
}

/** Flags first, then the profile, then VM_API_URL / VM_TOKEN. A config file's problems are the caller's to show, unless they cost the profile asked for. */
export function resolveTarget(opts: TuiOptions, env: NodeJS.ProcessEnv, configFile: string, loaded: LoadedConfig = readConfig(configFile)): Target {
  const { profiles } = loaded.config;
  const profile = opts.profile !== undefined && Object.hasOwn(profiles, opts.profile) ? profiles[opts.profile] : undefined;
  if (opts.profile !== undefined && !profile) {
    const known = Object.keys(profiles);
    const why = loaded.problems.length ? `; ${loaded.problems.join('; ')}` : '';
    throw new UsageError(`no profile "${opts.profile}" in ${configFile}${known.length ? ` (profiles: ${known.join(', ')})` : ' (it has no profiles)'}${why}`);
  }
  const apiUrl = opts.apiUrl ?? profile?.apiUrl ?? env.VM_API_URL;
  const token = opts.token ?? profile?.token ?? env.VM_TOKEN;
  if (!apiUrl) {
    if (opts.token !== undefined || opts.betaUrl !== undefined) throw new UsageError('--token and --beta-url need --api-url (or VM_API_URL)');
    if (opts.saveProfile !== undefined) throw new UsageError('--save-profile needs --api-url and --token');
    return { kind: 'embedded', fresh: opts.fresh };
  }
  if (opts.fresh) throw new UsageError('--fresh applies to the embedded demo account only, not with --api-url or --profile');
  if (!token) throw new UsageError('--api-url needs --token (or VM_TOKEN)');
  const base = checkRoot('--api-url', apiUrl);
  if (!/\/v4$/.test(base)) throw new UsageError(`--api-url must be the API's base root, ending in /v4 (e.g. http://127.0.0.1:8484/v4), not "${apiUrl}"`);
  const betaUrl = checkRoot('--beta-url', opts.betaUrl ?? profile?.betaUrl ?? base.replace(/\/v4$/, '/v4beta'));
  if (opts.saveProfile !== undefined) {
    saveProfile(configFile, opts.saveProfile, { apiUrl: base, token, ...(opts.betaUrl ? { betaUrl } : {}) });
  }
  return { kind: 'remote', apiUrl: base, betaUrl, token, profileName: opts.saveProfile ?? opts.profile };
}
