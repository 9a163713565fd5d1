import { Box, Text } from 'ink';
import { plain } from '../../app/style.js';
import type { Line } from './issue-lines.js';

interface Props {
  lines: readonly Line[];
  /** The first line shown. */
  start: number;
  height: number;
  /** Index of the selected line, highlighted. */
  selected: number;
}

/** A window over styled lines, the selected one highlighted and marked in the gutter (visible without color too). */
export function LineView({ lines, start, height, selected }: Props) {
  const marker = plain() ? '>' : '›';
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {lines.slice(start, start + height).map((l, i) => {
        const at = start + i;
        const isSelected = at === selected;
        return (
          <Text key={at} wrap="truncate-end" inverse={isSelected}>
            {isSelected ? `${marker} ` : '  '}
            {l.segs.map((s, j) => (
              <Text key={j} color={s.color} bold={s.bold} dimColor={s.dim && !isSelected}>
                {s.text}
              </Text>
            ))}
          </Text>
        );
      })}
    </Box>
  );
}
