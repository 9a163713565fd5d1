import { spawn } from 'node:child_process';
import ipaddr from 'ipaddr.js';
import type { Plugin } from '../config/config.js';
import type { AppContextValue } from './context.js';
import type { ExtensionCommand } from './keymap.js';
import { runInherited } from './terminal.js';

type Row = Record<string, unknown>;

/** How much of a background plugin's output is kept for the message line. */
const OUTPUT_LIMIT = 64 * 1024;
/** Lines of it the message line shows. */
const SHOWN_LINES = 3;

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const addresses = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : [text(v)]).map((a) => a.split('/')[0]!).filter((a) => ipaddr.isValid(a));
const isPublic = (a: string) => ipaddr.parse(a).range() === 'unicast';

/** The public address of a kind, from `ipv4`/`ipv6` (a list or one), else an IP row's own `address`. */
function addressOf(row: Row, kind: 'ipv4' | 'ipv6'): string {
  const own = addresses(row[kind]).filter((a) => ipaddr.parse(a).kind() === kind);
  const all = own.length ? own : addresses(row.address).filter((a) => ipaddr.parse(a).kind() === kind);
  return all.find(isPublic) ?? all[0] ?? '';
}

/**
 * The environment a plugin runs with: the app's own, less any VM_TOKEN it
 * holds, plus the selected item's fields and the profile's API root. The
 * token only when the plugin asks for it.
 */
export function pluginEnv(plugin: Plugin, row: Row, screen: string, client: AppContextValue['client'], base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  delete env.VM_TOKEN;
  Object.assign(env, {
    VM_ID: text(row.id),
    VM_LABEL: text(row.label) || text(row.name),
    VM_IPV4: addressOf(row, 'ipv4'),
    VM_IPV6: addressOf(row, 'ipv6'),
    VM_REGION: text(row.region),
    VM_STATUS: text(row.status),
    VM_TYPE: text(row.type),
    VM_VIEW: screen,
    VM_API_URL: client.baseUrl,
  });
  if (plugin.token) env.VM_TOKEN = client.tokenForPlugin();
  return env;
}

/** The last lines of a plugin's output, for the message line. */
const tail = (out: string) => out.trim().split('\n').slice(-SHOWN_LINES).join('\n');

/** Runs a plugin on a row: in the background (its output in the message line) or holding the terminal, as ssh does. */
export function runPlugin(app: AppContextValue, plugin: Plugin, row: Row, screen: string): void {
  const { notify } = app.session.getState();
  const env = pluginEnv(plugin, row, screen, app.client);
  const what = `${plugin.name} on ${text(row.label) || text(row.id) || 'the item'}`;
  if (!plugin.background) {
    if (!app.lendTerminal) return notify(`${plugin.name} needs the terminal, and this run has none to give`, 'error');
    void app.lendTerminal(() => runInherited('sh', ['-c', plugin.command], env)).then((ended) =>
      notify(ended.ok ? `${what} finished` : `${what} ${ended.missing ? 'could not start: sh was not found' : ended.text}`, ended.ok ? 'success' : 'error'),
    );
    return;
  }
  notify(`${what}: running…`);
  let out = '';
  const keep = (chunk: Buffer) => {
    if (out.length < OUTPUT_LIMIT) out += chunk.toString();
  };
  const child = spawn('sh', ['-c', plugin.command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.once('error', (err) => notify(`${what} could not start: ${err.message}`, 'error'));
  child.once('close', (code, signal) => {
    const shown = tail(out);
    if (code === 0) notify(shown ? `${what}: ${shown}` : `${what} finished`, 'success');
    else notify(`${what} ended with ${code === null ? `signal ${signal}` : `exit code ${code}`}${shown ? `: ${shown}` : ''}`, 'error');
  });
}

/** The plugins of a view as commands of its layer: each runs on the row selected when its key is pressed. */
export function pluginCommands(app: AppContextValue, screen: string, selected: () => Row | undefined): ExtensionCommand[] {
  return app.settings.plugins
    .filter((p) => p.screens.includes(screen))
    .map((p) => ({
      id: `plugin:${p.name}`,
      keys: [p.key],
      label: p.name,
      help: `${p.description} (plugin${p.background ? ', in the background' : ''}${p.dangerous ? ', changes something' : ''})`,
      mutation: p.dangerous,
      run: () => {
        const row = selected();
        if (row) runPlugin(app, p, row, screen);
        else app.session.getState().notify(`${p.name}: no item selected`, 'error');
      },
    }));
}
