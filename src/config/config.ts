import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';

/** A named connection: what --api-url, --beta-url and --token would say. */
export interface Profile {
  apiUrl: string;
  betaUrl?: string;
  token: string;
}

export interface Config {
  profiles: Record<string, Profile>;
}

/** A config file that cannot be used: the message names the file and the problem. */
export class ConfigError extends Error {}

export const defaultConfigFile = () => join(envPaths('vmtui', { suffix: '' }).config, 'config.json');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function loadConfig(file: string): Config {
  if (!existsSync(file)) return { profiles: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON (${(err as Error).message})`);
  }
  const bad = (what: string) => new ConfigError(`config file ${file}: ${what}`);
  if (!isObject(raw)) throw bad('the top level must be an object like {"profiles": {...}}');
  const profiles = raw.profiles ?? {};
  if (!isObject(profiles)) throw bad('"profiles" must be an object of named profiles');
  const out: Config = { profiles: {} };
  for (const [name, p] of Object.entries(profiles)) {
    if (!isObject(p)) throw bad(`profiles.${name} must be an object with apiUrl and token`);
    for (const key of ['apiUrl', 'token'] as const) {
      if (typeof p[key] !== 'string' || p[key] === '') throw bad(`profiles.${name}.${key} must be a non-empty string`);
    }
    if (p.betaUrl !== undefined && typeof p.betaUrl !== 'string') throw bad(`profiles.${name}.betaUrl must be a string`);
    out.profiles[name] = { apiUrl: p.apiUrl as string, token: p.token as string, ...(p.betaUrl ? { betaUrl: p.betaUrl as string } : {}) };
  }
  return out;
}

/** Adds or replaces a profile; the file holds tokens, so only its owner may read it. */
export function saveProfile(file: string, name: string, profile: Profile): void {
  const config = loadConfig(file);
  config.profiles[name] = profile;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode option only applies when the file is created.
  chmodSync(file, 0o600);
}
