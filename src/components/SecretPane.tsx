import { Box } from 'ink';
import { Text } from './Text.js';
import { PRIORITY } from '../app/key-router.js';
import type { CommandHandlers } from '../app/use-commands.js';
import { useScroll } from './use-scroll.js';

/** A line of a secret's pane: a secret's own lines are `raw`, drawn from the first column with nothing around them. */
export interface PaneLine {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

interface Props {
  title: string;
  lines: PaneLine[];
  /** The keys, always on the last line: what closes the pane and what copies. */
  hint: string;
  commands: CommandHandlers;
  height: number;
  priority?: number;
}

/**
 * Where a secret shown once is read and copied: no border and no indent on
 * any line, so a mouse selection of a long secret (a pre-signed URL) picks up
 * nothing else; the lines scroll above the key hint, which stays on screen,
 * with a sign when more is above or below.
 */
export function SecretPane({ title, lines: body, hint, commands, height, priority = PRIORITY.nested }: Props) {
  // The title scrolls away with the rest: on 24 rows a QR code needs every line but the hint's.
  const lines: PaneLine[] = [{ text: title, bold: true, color: 'yellow' }, ...body];
  const room = Math.max(1, height - 1);
  const first = useScroll(lines.length, room, commands, { priority, title, modal: 'full' });
  const below = lines.length - first - room;
  const more = [first > 0 ? `↑ ${first} more` : '', below > 0 ? `↓ ${below} more (j)` : ''].filter(Boolean).join(' · ');
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      {lines.slice(first, first + room).map((l, i) => (
        <Text key={first + i} color={l.color} bold={l.bold} dimColor={l.dim} wrap="truncate-end">
          {l.text === '' ? ' ' : l.text}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text wrap="truncate-end">
        <Text color="cyan">{hint}</Text>
        <Text dimColor>{more ? `  ${more}` : ''}</Text>
      </Text>
    </Box>
  );
}
