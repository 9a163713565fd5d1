import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';

/** A named connection: what --api-url, --beta-url and --token would say. */
export interface Profile {
  apiUrl: string;
  betaUrl?: string;
  token: string;
}

/**
 * A user's command in the style of k9s plugins: a key on the lists of some
 * resource kinds, running a shell command line with the selected item's
 * fields in VM_* environment variables.
 */
export interface Plugin {
  name: string;
  /** A key name as keymap.ts spells them: one character, or ctrl+<letter>. */
  key: string;
  description: string;
  /** Screen ids (the `:` names' ids) it applies to. */
  screens: string[];
  /** Run with `sh -c`, so `$VM_IPV4` and pipes work as in a terminal. */
  command: string;
  /** Changes something: hidden and refused under --read-only. */
  dangerous: boolean;
  /** Runs without the terminal, its output in the message line; otherwise it takes the terminal, as ssh does. */
  background: boolean;
  /** Gets the profile's token as VM_TOKEN; no plugin sees it otherwise. */
  token: boolean;
}

export interface Config {
  /** Null-prototype: names come from the file. */
  profiles: Record<string, Profile>;
  /** `:` alias → what it stands for (an area's name, then any filter words). */
  aliases: Map<string, string>;
  plugins: Plugin[];
  /** Where Ctrl-S writes a list's export (default: the current folder). */
  exportDir?: string;
  /** Keep what the app sees change on each item across runs (a private file per account in the user's state folder). */
  history?: boolean;
  /** How the terminal is told of an alert: which of bell, OSC 9 and OSC 777 (unset ones keep their defaults). */
  alerts?: Partial<Record<AlertSignal, boolean>>;
  /** The columns chosen with C, by view id (the `:` id): each field and its width when resized. */
  columns?: Map<string, { key: string; width?: number }[]>;
}

export const ALERT_SIGNALS = ['bell', 'osc9', 'osc777'] as const;
export type AlertSignal = (typeof ALERT_SIGNALS)[number];

/** A config file read as far as it could be: what was usable, and why the rest was not. */
export interface LoadedConfig {
  config: Config;
  /** One sentence each, naming the file and the key path (or the line:col of bad JSON). */
  problems: string[];
}

/** A config file that cannot be used: the message names the file and the problem. */
export class ConfigError extends Error {}

export const defaultConfigFile = () => join(envPaths('vmtui', { suffix: '' }).config, 'config.json');

export const emptyConfig = (): Config => ({ profiles: Object.create(null) as Record<string, Profile>, aliases: new Map(), plugins: [] });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.parse's "at position N" as the line:col an editor shows. */
function jsonWhere(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  const pos = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined;
  if (pos === undefined) return '';
  const before = text.slice(0, pos).split('\n');
  return ` at line ${before.length}:${before.at(-1)!.length + 1}`;
}

function readRaw(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = (err as Error).message.replace(/ in JSON at position \d+.*$/, '').replace(/^Unexpected end of JSON input$/, 'the file ends too early');
    throw new ConfigError(`config file ${file} is not valid JSON${jsonWhere(text, (err as Error).message)}: ${reason}`);
  }
}

/** Key names a plugin may take: one printable character, or Ctrl and a letter. */
export const PLUGIN_KEY = /^(?:[!-~]|ctrl\+[a-z])$/;

function readPlugin(name: string, p: unknown, bad: (path: string, what: string) => undefined): Plugin | undefined {
  const path = `plugins.${name}`;
  if (!isObject(p)) return bad(path, 'must be an object with key, description, screens and command');
  const str = (k: string) => (Object.hasOwn(p, k) && typeof p[k] === 'string' && (p[k] as string).trim() !== '' ? (p[k] as string) : undefined);
  const flag = (k: string): boolean | null => (!Object.hasOwn(p, k) ? false : typeof p[k] === 'boolean' ? (p[k] as boolean) : null);
  const key = str('key');
  if (!key || !PLUGIN_KEY.test(key)) return bad(`${path}.key`, 'must be one character (like "p") or ctrl+<letter> (like "ctrl+p")');
  const command = str('command');
  if (!command) return bad(`${path}.command`, 'must be a non-empty command line');
  const description = str('description');
  if (!description) return bad(`${path}.description`, 'must be a non-empty string (it is shown in ? and the footer)');
  const screens = Object.hasOwn(p, 'screens') ? p.screens : undefined;
  if (!Array.isArray(screens) || screens.length === 0 || !screens.every((s) => typeof s === 'string' && s !== '')) {
    return bad(`${path}.screens`, 'must be a list of the views it applies to, e.g. ["instances"]');
  }
  const flags: Record<'dangerous' | 'background' | 'token', boolean> = { dangerous: false, background: false, token: false };
  for (const k of ['dangerous', 'background', 'token'] as const) {
    const v = flag(k);
    if (v === null) return bad(`${path}.${k}`, 'must be true or false');
    flags[k] = v;
  }
  for (const k of Object.keys(p)) {
    if (!['key', 'description', 'screens', 'command', 'dangerous', 'background', 'token'].includes(k)) {
      return bad(`${path}.${k}`, 'is not a plugin setting (key, description, screens, command, dangerous, background, token)');
    }
  }
  return { name, key, description, screens: screens as string[], command, ...flags };
}

/**
 * Reads the config file, keeping every entry that is right and naming each
 * one that is not: a bad entry costs itself, not the app's start.
 */
export function readConfig(file: string): LoadedConfig {
  const config = emptyConfig();
  const problems: string[] = [];
  if (!existsSync(file)) return { config, problems };
  let raw: unknown;
  try {
    raw = readRaw(file);
  } catch (err) {
    if (err instanceof ConfigError) return { config, problems: [err.message] };
    return { config, problems: [`config file ${file} cannot be read: ${(err as Error).message}`] };
  }
  const bad = (path: string, what: string): undefined => void problems.push(`config file ${file}: ${path} ${what}`);
  if (!isObject(raw)) {
    bad('the top level', 'must be an object like {"profiles": {...}}');
    return { config, problems };
  }
  for (const key of Object.keys(raw)) {
    if (!['profiles', 'aliases', 'plugins', 'exportDir', 'history', 'alerts', 'columns'].includes(key)) bad(key, 'is not a setting (profiles, aliases, plugins, exportDir, history, alerts, columns)');
  }
  const profiles = Object.hasOwn(raw, 'profiles') ? raw.profiles : {};
  if (!isObject(profiles)) bad('profiles', 'must be an object of named profiles');
  else {
    for (const [name, p] of Object.entries(profiles)) {
      if (!isObject(p)) {
        bad(`profiles.${name}`, 'must be an object with apiUrl and token');
        continue;
      }
      const missing = (['apiUrl', 'token'] as const).find((k) => !Object.hasOwn(p, k) || typeof p[k] !== 'string' || p[k] === '');
      if (missing) {
        bad(`profiles.${name}.${missing}`, 'must be a non-empty string');
        continue;
      }
      if (Object.hasOwn(p, 'betaUrl') && typeof p.betaUrl !== 'string') {
        bad(`profiles.${name}.betaUrl`, 'must be a string');
        continue;
      }
      config.profiles[name] = { apiUrl: p.apiUrl as string, token: p.token as string, ...(p.betaUrl ? { betaUrl: p.betaUrl as string } : {}) };
    }
  }
  const aliases = Object.hasOwn(raw, 'aliases') ? raw.aliases : {};
  if (!isObject(aliases)) bad('aliases', 'must be an object like {"pg": "services postgres"}');
  else {
    for (const [name, to] of Object.entries(aliases)) {
      if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) bad(`aliases.${name}`, 'is not a name `:` can take (letters, digits, . _ -, no spaces)');
      else if (typeof to !== 'string' || to.trim() === '') bad(`aliases.${name}`, 'must be what it stands for, like "services postgres"');
      else config.aliases.set(name.toLowerCase(), to.trim());
    }
  }
  const plugins = Object.hasOwn(raw, 'plugins') ? raw.plugins : {};
  if (!isObject(plugins)) bad('plugins', 'must be an object of named plugins');
  else {
    for (const [name, p] of Object.entries(plugins)) {
      const plugin = readPlugin(name, p, bad);
      if (plugin) config.plugins.push(plugin);
    }
  }
  if (Object.hasOwn(raw, 'exportDir')) {
    if (typeof raw.exportDir !== 'string' || raw.exportDir === '') bad('exportDir', 'must be a folder path');
    else config.exportDir = raw.exportDir;
  }
  if (Object.hasOwn(raw, 'history')) {
    if (typeof raw.history !== 'boolean') bad('history', 'must be true or false');
    else config.history = raw.history;
  }
  if (Object.hasOwn(raw, 'alerts')) {
    const alerts = raw.alerts;
    if (!isObject(alerts)) bad('alerts', 'must be an object like {"bell": true, "osc9": true, "osc777": false}');
    else {
      config.alerts = {};
      for (const [k, v] of Object.entries(alerts)) {
        if (!(ALERT_SIGNALS as readonly string[]).includes(k)) bad(`alerts.${k}`, `is not an alert signal (${ALERT_SIGNALS.join(', ')})`);
        else if (typeof v !== 'boolean') bad(`alerts.${k}`, 'must be true or false');
        else config.alerts[k as AlertSignal] = v;
      }
    }
  }
  if (Object.hasOwn(raw, 'columns')) readColumns(raw.columns, config, bad);
  return { config, problems };
}

/** A column's field: a path of names (`specs.memory`), as C writes them. */
const FIELD_PATH = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

function readColumns(raw: unknown, config: Config, bad: (path: string, what: string) => undefined): void {
  if (!isObject(raw)) return void bad('columns', 'must be an object of views, like {"instances": [{"key": "label"}]}');
  config.columns = new Map();
  for (const [view, list] of Object.entries(raw)) {
    if (!Array.isArray(list) || list.length === 0) {
      bad(`columns.${view}`, 'must be a non-empty list of columns like {"key": "label", "width": 20}');
      continue;
    }
    const cols: { key: string; width?: number }[] = [];
    for (const [i, c] of list.entries()) {
      const key = isObject(c) && Object.hasOwn(c, 'key') ? c.key : undefined;
      const width = isObject(c) && Object.hasOwn(c, 'width') ? c.width : undefined;
      if (typeof key !== 'string' || !FIELD_PATH.test(key)) bad(`columns.${view}[${i}].key`, 'must be a field name or dotted path like "specs.memory"');
      else if (width !== undefined && (!Number.isInteger(width) || (width as number) < 3 || (width as number) > 200)) bad(`columns.${view}[${i}].width`, 'must be a whole number from 3 to 200');
      else cols.push(width === undefined ? { key } : { key, width: width as number });
    }
    if (cols.length) config.columns.set(view, cols);
  }
}

/** Saves the columns chosen for a view, leaving the file's other settings as they are. */
export function saveColumns(file: string, view: string, columns: readonly { key: string; width?: number }[]): void {
  const raw = existsSync(file) ? readRaw(file) : {};
  if (!isObject(raw)) throw new ConfigError(`config file ${file}: the top level must be an object; not saving over it`);
  const all = Object.hasOwn(raw, 'columns') && isObject(raw.columns) ? raw.columns : {};
  writeConfig(file, { ...raw, columns: { ...all, [view]: columns } });
}

/** The file holds tokens: only its owner may read it. */
function writeConfig(file: string, content: unknown): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  // The mode option only applies when the file is created.
  chmodSync(file, 0o600);
}

/** The profiles alone, for the command line: a file whose profiles cannot be read is an error there. */
export function loadConfig(file: string): Config {
  const { config, problems } = readConfig(file);
  if (problems.length) throw new ConfigError(problems.join('; '));
  return config;
}

/**
 * Adds or replaces a profile, leaving the file's other settings as they are;
 * the file holds tokens, so only its owner may read it.
 */
export function saveProfile(file: string, name: string, profile: Profile): void {
  const raw = existsSync(file) ? readRaw(file) : {};
  if (!isObject(raw)) throw new ConfigError(`config file ${file}: the top level must be an object like {"profiles": {...}}; not saving over it`);
  const profiles = Object.hasOwn(raw, 'profiles') ? raw.profiles : {};
  if (!isObject(profiles)) throw new ConfigError(`config file ${file}: profiles must be an object of named profiles; not saving over it`);
  writeConfig(file, { ...raw, profiles: { ...profiles, [name]: profile } });
}
