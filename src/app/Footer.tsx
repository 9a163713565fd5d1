import { Text } from 'ink';
import { useStore } from 'zustand';
import { activeKeys, type KeyLine } from './active-keys.js';
import { useApp } from './context.js';
import { displayKey } from './keys.js';

/**
 * What a narrow footer keeps first: help (the way to every other key), the
 * way back and on, then the changes and the filter; the rest as room allows.
 */
const FIRST: readonly KeyLine['id'][] = ['help', 'back', 'cancel', 'close', 'open', 'select', 'press', 'pick', 'submit', 'switchButton', 'applyFilter', 'clearFilter', 'acknowledge', 'go', 'actions', 'create', 'edit', 'delete', 'filter', 'command'];
// A plugin is there because the user put it there: it comes right after those.
const rank = (l: KeyLine) => (l.mark ? 2 * FIRST.length : FIRST.includes(l.id) ? FIRST.indexOf(l.id) : l.id.startsWith('plugin:') ? FIRST.length - 0.5 : FIRST.length);
const text = (l: KeyLine) => `${displayKey(l.keys[0]!)} ${l.label}`;
const GAP = 2;

/** The keys that fit in `width`, most useful first, shown in the table's order with help leading. */
export function footerKeys(all: KeyLine[], width: number): KeyLine[] {
  const kept = new Set<KeyLine>();
  let used = -GAP;
  for (const l of [...all].sort((a, b) => rank(a) - rank(b))) {
    const need = GAP + text(l).length;
    if (used + need > width) continue;
    kept.add(l);
    used += need;
  }
  return [...all.filter((l) => l.id === 'help'), ...all.filter((l) => l.id !== 'help')].filter((l) => kept.has(l));
}

/** The keys that act here, from the same table the handlers use. */
export function Footer({ width }: { width: number }) {
  const { ui, session } = useApp();
  const layers = useStore(ui, (s) => s.layers);
  const readOnly = useStore(session, (s) => s.readOnly);
  const lines = footerKeys(
    activeKeys(layers, readOnly).flatMap((s) => s.lines.filter((l) => !l.quiet)),
    width,
  );
  return (
    <Text wrap="truncate-end">
      {lines.map((l, i) => (
        <Text key={l.id} dimColor={Boolean(l.mark)}>
          {i > 0 ? ' '.repeat(GAP) : ''}
          <Text color={l.mark ? undefined : 'cyan'} bold={!l.mark}>
            {displayKey(l.keys[0]!)}
          </Text>
          {` ${l.label}`}
        </Text>
      ))}
    </Text>
  );
}
