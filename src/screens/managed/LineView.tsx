import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { plain } from '../../app/style.js';
import type { Item } from './item-specs.js';

/** A run of text in one style. */
export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
}

/** One line of a LineView; lines with an item can be acted on. */
export interface Line {
  segs: Seg[];
  item?: Item;
}

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
