import type { ScreenRegistry } from './screen.js';
import type { AppSettings } from './context.js';
import { KEYMAP } from './keymap.js';

/** Every key the keymap binds somewhere: a plugin may take none of them, so no view's own key is ever shadowed. */
const BUILT_IN_KEYS = new Set(Object.values(KEYMAP).flatMap((c) => c.keys as readonly string[]));

/**
 * The config file's aliases and plugins checked against the app they run in:
 * an alias may not take a built-in name and must name an area; a plugin's
 * key may not be a built-in key, and its views must exist. What fails is
 * left out and named (file, key path, why); the rest is used.
 */
export function checkSettings(settings: AppSettings, registry: ScreenRegistry, file: string): { settings: AppSettings; problems: string[] } {
  const problems: string[] = [];
  const bad = (path: string, what: string) => problems.push(`config file ${file}: ${path} ${what}`);
  const builtIn = new Set(registry.names());
  const aliases = new Map<string, string>();
  for (const [name, to] of settings.aliases) {
    const area = to.split(/\s+/)[0]!;
    if (builtIn.has(name)) bad(`aliases.${name}`, `clashes with the built-in name "${name}"`);
    else if (!registry.find(area)) bad(`aliases.${name}`, `names no area: "${area}" (: Tab lists the names)`);
    else aliases.set(name, to);
  }
  const views = new Set(registry.all.filter((d) => d.list).map((d) => d.id));
  const plugins = settings.plugins.filter((p) => {
    if (BUILT_IN_KEYS.has(p.key)) return bad(`plugins.${p.name}.key`, `"${p.key}" is a built-in key (? lists them); pick another`), false;
    const unknown = p.screens.filter((s) => !views.has(s));
    if (unknown.length) return bad(`plugins.${p.name}.screens`, `names no list view: ${unknown.join(', ')} (views: ${[...views].sort().join(', ')})`), false;
    const clash = settings.plugins.find((o) => o !== p && o.key === p.key && o.screens.some((s) => p.screens.includes(s)));
    if (clash && settings.plugins.indexOf(clash) < settings.plugins.indexOf(p)) return bad(`plugins.${p.name}.key`, `"${p.key}" is plugin ${clash.name}'s key on the same view`), false;
    return true;
  });
  return { settings: { ...settings, aliases, plugins }, problems };
}
