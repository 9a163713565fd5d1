import { Text } from '../components/Text.js';
import { useStore } from 'zustand';
import { activeKeys, type KeyLine } from './active-keys.js';
import { useApp } from './context.js';
import { displayKey } from './keys.js';

/**
 * What a narrow footer keeps first: help (the way to every other key), the
 * way back and on, then the changes and the filter; the rest as room allows.
 */
const FIRST: readonly KeyLine['id'][] = ['help', 'back', 'cancel', 'close', 'open', 'select', 'press', 'pick', 'submit', 'towardCancel', 'towardConfirm', 'cycleButtons', 'applyFilter', 'clearFilter', 'acknowledge', 'go', 'actions', 'create', 'edit', 'delete', 'filter', 'ssh', 'command'];
// A plugin is there because the user put it there: it comes right after those.
const rankOf = (id: KeyLine['id']) => (FIRST.includes(id) ? FIRST.indexOf(id) : id.startsWith('plugin:') ? FIRST.length - 0.5 : FIRST.length);
const keyText = (l: KeyLine) => l.keysText ?? displayKey(l.keys[0]!);
const GAP = 2;

/** Keys the token or grants cannot use, gathered under the reason: `c e ^D: needs vms:read_write`. */
export interface MarkedGroup {
  mark: string;
  lines: KeyLine[];
}

export interface FooterParts {
  /** Keys that act, help first, then in the table's order. */
  keys: KeyLine[];
  /** Dimmed keys with why, after the others. */
  marked: MarkedGroup[];
}

export const groupText = (g: MarkedGroup) => `${g.lines.map(keyText).join(' ')}: ${g.mark}`;
const lineText = (l: KeyLine) => `${keyText(l)} ${l.label}`;

/**
 * The keys that fit in `width`, most useful first. A key the token cannot
 * use is not dropped silently nor shown without a reason: keys refused for
 * one reason share one dimmed note, which takes its place among the others
 * by its most useful key.
 */
export function footerParts(all: KeyLine[], width: number): FooterParts {
  const groups = new Map<string, MarkedGroup>();
  for (const l of all) if (l.mark) groups.set(l.mark, { mark: l.mark, lines: [...(groups.get(l.mark)?.lines ?? []), l] });
  const items = [
    ...all.filter((l) => !l.mark).map((l) => ({ rank: rankOf(l.id), size: lineText(l).length, line: l as KeyLine | undefined, group: undefined as MarkedGroup | undefined })),
    ...[...groups.values()].map((g) => ({ rank: Math.min(...g.lines.map((l) => rankOf(l.id))), size: groupText(g).length, line: undefined, group: g })),
  ].sort((a, b) => a.rank - b.rank);
  let used = -GAP;
  const kept = new Set<KeyLine | MarkedGroup>();
  for (const item of items) {
    if (used + GAP + item.size > width) continue;
    kept.add((item.line ?? item.group)!);
    used += GAP + item.size;
  }
  const keys = [...all.filter((l) => l.id === 'help'), ...all.filter((l) => l.id !== 'help')].filter((l) => kept.has(l));
  return { keys, marked: [...groups.values()].filter((g) => kept.has(g)) };
}

/** The keys that act here, from the same table the handlers use. */
export function Footer({ width }: { width: number }) {
  const { ui, session } = useApp();
  const layers = useStore(ui, (s) => s.layers);
  const readOnly = useStore(session, (s) => s.readOnly);
  const { keys, marked } = footerParts(
    activeKeys(layers, readOnly).flatMap((s) => s.lines.filter((l) => !l.quiet)),
    width,
  );
  return (
    <Text wrap="truncate-end">
      {keys.map((l, i) => (
        <Text key={l.id}>
          {i > 0 ? ' '.repeat(GAP) : ''}
          <Text color="cyan" bold>
            {keyText(l)}
          </Text>
          {` ${l.label}`}
        </Text>
      ))}
      {marked.map((g, i) => (
        <Text key={g.mark} dimColor>
          {keys.length + i > 0 ? ' '.repeat(GAP) : ''}
          {groupText(g)}
        </Text>
      ))}
    </Text>
  );
}
