import { Text } from '../components/Text.js';
import { useStore } from 'zustand';
import { ScrollView } from '../components/ScrollView.js';
import { activeKeys } from './active-keys.js';
import { useApp } from './context.js';
import { PRIORITY } from './key-router.js';
import { displayKey } from './keys.js';

type Line = { heading: string } | { keys: string; help: string; mark?: string };

/** `?` — every key of the current view, from the keymap table, grouped by layer. */
export function HelpOverlay({ height }: { height: number }) {
  const { ui, session } = useApp();
  const layers = useStore(ui, (s) => s.layers);
  const readOnly = useStore(session, (s) => s.readOnly);
  // The help's own layer (and the command line's) sit at the app priority: not part of the view.
  const lines: Line[] = activeKeys(layers.filter((l) => l.priority < PRIORITY.app), readOnly).flatMap((section) => [
    { heading: section.title },
    ...section.lines.flatMap((l) => [
      { keys: l.keysText ?? l.keys.map(displayKey).join(' '), help: l.help, mark: l.mark },
      ...(l.details ?? []).map((d) => ({ keys: `  ${d.keys}`, help: d.help })),
    ]),
  ]);
  if (readOnly) lines.push({ heading: 'Read-only mode: create, edit, delete and the actions that change something are off' });
  const close = () => ui.setState({ help: false });
  return (
    <ScrollView
      title="Help"
      items={lines}
      height={height}
      onClose={close}
      priority={PRIORITY.app}
      render={(line) =>
        'heading' in line ? (
          <Text bold underline>
            {line.heading}
          </Text>
        ) : (
          <Text wrap="truncate-end" dimColor={Boolean(line.mark)}>
            <Text color="cyan">{line.keys.padEnd(18)}</Text>
            {line.help}
            {line.mark ? `  (${line.mark})` : ''}
          </Text>
        )
      }
    />
  );
}
