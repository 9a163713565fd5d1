import { Text } from 'ink';
import { useStore } from 'zustand';
import { activeKeys } from './active-keys.js';
import { useApp } from './context.js';
import { displayKey } from './keys.js';

/** The keys that act here, from the same table the handlers use. */
export function Footer() {
  const { ui, session } = useApp();
  const layers = useStore(ui, (s) => s.layers);
  const readOnly = useStore(session, (s) => s.readOnly);
  // Help first, so the way to every other key is always in view however narrow the terminal.
  const all = activeKeys(layers, readOnly).flatMap((s) => s.lines.filter((l) => !l.quiet));
  const lines = [...all.filter((l) => l.id === 'help'), ...all.filter((l) => l.id !== 'help')];
  return (
    <Text wrap="truncate-end">
      {lines.map((l, i) => (
        <Text key={l.id} dimColor={Boolean(l.mark)}>
          {i > 0 ? '  ' : ''}
          <Text color={l.mark ? undefined : 'cyan'} bold={!l.mark}>
            {displayKey(l.keys[0]!)}
          </Text>
          {` ${l.label}`}
        </Text>
      ))}
    </Text>
  );
}
