import type { ReactNode } from 'react';
import { Box } from 'ink';
import { Text } from './Text.js';
import { PRIORITY } from '../app/key-router.js';
import type { CommandHandlers } from '../app/use-commands.js';
import { useScroll } from './use-scroll.js';

interface Props<T> {
  title: string;
  items: readonly T[];
  render: (item: T, index: number) => ReactNode;
  /** Lines available, the title line included. */
  height: number;
  onClose: () => void;
  priority?: number;
  /** More commands of the view, bound with the scrolling (e.g. copy). */
  commands?: CommandHandlers;
}

/** A titled, scrollable view over lines: the detail, JSON and help views. */
export function ScrollView<T>({ title, items, render, height, onClose, priority = PRIORITY.view, commands }: Props<T>) {
  const body = Math.max(1, height - 1);
  const first = useScroll(items.length, body, { ...commands, back: onClose }, { priority, title, modal: 'screen' });
  const position = items.length > body ? `  ${first + 1}-${Math.min(items.length, first + body)} of ${items.length}` : '';
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">
        {title}
        <Text dimColor>{position}</Text>
      </Text>
      {items.slice(first, first + body).map((item, i) => (
        <Box key={first + i} height={1} overflowY="hidden">
          {render(item, first + i)}
        </Box>
      ))}
    </Box>
  );
}
