import { useEffect } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from './context.js';
import { wrapWords } from '../components/cells.js';
import { displayKey } from './keys.js';
import { KEYMAP } from './keymap.js';

const SHOW_MS = 8000;
const COLORS = { info: undefined, success: 'green', error: 'red' } as const;

/** Most lines a message takes: enough for a service's whole reason (a 403 names the scope at its end), little enough to leave the view. */
const MAX_LINES = 4;
/** Ends a message cut to MAX_LINES: where to read it whole. */
const MORE = ` … ${displayKey(KEYMAP.messages.keys[0])} shows it whole`;

const wrapped = (text: string, kind: string, width: number) => wrapWords(kind === 'error' ? `✗ ${text}` : text, width);

/** Lines the message needs, wrapped as it is drawn (an error's "✗ " included). */
export const messageLines = (text: string | undefined, width: number) => (text === undefined ? 1 : Math.min(MAX_LINES, wrapWords(`✗ ${text}`, width).length));

/** The result of the last action or the last error; it fades after a few seconds, and stays in `:messages`. */
export function MessageLine({ width }: { width: number }) {
  const { session } = useApp();
  const message = useStore(session, (s) => s.message);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => {
      if (session.getState().message === message) session.getState().clearMessage();
    }, SHOW_MS);
    return () => clearTimeout(timer);
  }, [message, session]);
  if (!message) return <Text> </Text>;
  const lines = wrapped(message.text, message.kind, width);
  if (lines.length > MAX_LINES) {
    lines.length = MAX_LINES;
    lines[MAX_LINES - 1] = `${lines[MAX_LINES - 1]!.slice(0, Math.max(0, width - MORE.length)).trimEnd()}${MORE}`;
  }
  return (
    <Box flexDirection="column" height={messageLines(message.text, width)} overflowY="hidden">
      {lines.map((line, i) => (
        <Text key={i} color={COLORS[message.kind]} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
