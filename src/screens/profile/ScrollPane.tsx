import { useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { PRIORITY } from '../../app/key-router.js';
import type { CommandId } from '../../app/keymap.js';
import type { CommandHandlers } from '../../app/use-commands.js';
import { fit } from '../../components/cells.js';
import { useScroll } from '../../components/use-scroll.js';
import { visible } from '../../app/visible.js';

/** A line of a pane: a heading, or text with an optional dim key before it. */
export type PaneLine = { heading: string } | { key?: string; text: string; color?: string; bold?: boolean; dim?: boolean };

interface Props {
  /** The key layer's title in the help overlay. */
  title: string;
  lines: PaneLine[];
  width: number;
  height: number;
  /** The screen's own commands beside scrolling (edit, refresh, actions…). */
  commands?: CommandHandlers;
  marks?: Partial<Record<CommandId, string>>;
}

const MAX_KEY = 28;
const GAP = 2;

/** Breaks at spaces where it can, hard only inside a word longer than the line (JSON strings, URIs). */
export function wrapWords(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    const at = cut > 0 ? cut : width;
    out.push(rest.slice(0, at));
    rest = rest.slice(cut > 0 ? at + 1 : at);
  }
  out.push(rest);
  return out;
}

/** Wraps long lines to the width, continuing under the text rather than under the key. */
function layout(lines: PaneLine[], width: number): PaneLine[] {
  const keyWidth = Math.min(MAX_KEY, Math.max(0, ...lines.map((l) => ('key' in l && l.key ? l.key.length : 0))));
  return lines.flatMap((l): PaneLine[] => {
    if ('heading' in l) return [l];
    const indent = l.key === undefined ? 0 : keyWidth + GAP;
    // Wrapped as it shows: a server's text measured after the gate.
    const pieces = wrapWords(visible(l.text), Math.max(10, width - indent));
    return pieces.map((text, i) => ({ ...l, text, key: l.key === undefined ? undefined : (i === 0 ? fit(l.key, keyWidth) : '').padEnd(indent) }));
  });
}

/** A custom screen's body of lines: scrolls with the list keys, and binds the screen's other commands in the same layer. */
export function ScrollPane({ title, lines, width, height, commands, marks }: Props) {
  const shown = useMemo(() => layout(lines, width), [lines, width]);
  const body = Math.max(1, height - 1);
  const first = useScroll(shown.length, body, commands ?? {}, { priority: PRIORITY.screen, title, marks });
  const more = shown.length > body ? `lines ${first + 1}-${Math.min(shown.length, first + body)} of ${shown.length} · j/k scroll` : '';
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {shown.slice(first, first + body).map((l, i) => (
        <Box key={first + i} height={1} overflow="hidden">
          {'heading' in l ? (
            <Text bold underline wrap="truncate-end">
              {l.heading}
            </Text>
          ) : (
            <Text wrap="truncate-end">
              {l.key !== undefined && <Text dimColor>{l.key}</Text>}
              <Text color={l.color} bold={l.bold} dimColor={l.dim}>
                {l.text}
              </Text>
            </Text>
          )}
        </Box>
      ))}
      {more && <Text dimColor>{more}</Text>}
    </Box>
  );
}
