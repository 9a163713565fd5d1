import { KEYMAP, type CommandId, type ExtensionCommand } from './keymap.js';
import { PRIORITY, type LayerInfo } from './key-router.js';

export interface KeyLine {
  id: CommandId | ExtensionCommand['id'];
  keys: readonly string[];
  label: string;
  help: string;
  quiet: boolean;
  /** Why it is dimmed, e.g. a missing scope. */
  mark?: string;
  /** The keys as written when they are too many to list. */
  keysText?: string;
  /** Which of its keys does what in this view (help only). */
  details?: { keys: string; help: string }[];
}

export interface KeySection {
  title: string;
  lines: KeyLine[];
}

/**
 * The keys that act right now, for the footer and the help overlay alike:
 * the topmost view's commands, then the global ones unless a dialog holds
 * every key. Mutations are left out under --read-only.
 */
export function activeKeys(layers: LayerInfo[], readOnly: boolean): KeySection[] {
  const top = layers.find((l) => l.priority !== PRIORITY.global);
  const global = layers.find((l) => l.priority === PRIORITY.global);
  const sections = [top, top?.modal === 'full' ? undefined : global].filter((l): l is LayerInfo => l !== undefined);
  // A key the view takes never reaches the global layer: leave those global commands out.
  const taken = new Set(top?.commands.flatMap((id) => KEYMAP[id].keys as readonly string[]) ?? []);
  return sections.map((layer) => ({
    title: layer.priority === PRIORITY.global ? 'Everywhere' : layer.title,
    lines: layer.commands
      .filter((id) => layer === top || (KEYMAP[id].keys as readonly string[]).some((k) => !taken.has(k)))
      .filter((id) => !(readOnly && (KEYMAP[id] as { mutation?: boolean }).mutation))
      .map((id): KeyLine => {
        const spec = KEYMAP[id] as { keys: readonly string[]; label: string; help: string; quiet?: boolean; keysText?: string };
        return { id, keys: spec.keys, label: spec.label, help: spec.help, quiet: Boolean(spec.quiet), mark: layer.marks[id], keysText: spec.keysText, details: layer.details?.[id] };
      })
      .concat(layer === top ? layer.extensions.filter((e) => !(readOnly && e.mutation)).map((e) => ({ id: e.id, keys: e.keys, label: e.label, help: e.help, quiet: Boolean(e.quiet) })) : []),
  }));
}
