import { useEffect } from 'react';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from './context.js';
import { wrapWords } from '../components/cells.js';

const SHOW_MS = 8000;
const COLORS = { info: undefined, success: 'green', error: 'red' } as const;

/** Most lines a message takes: enough for a service's whole reason (a 403 names the scope at its end), little enough to leave the view. */
const MAX_LINES = 4;

/** Lines the message needs, wrapped as it is drawn (an error's "✗ " included). */
export const messageLines = (text: string | undefined, width: number) => (text === undefined ? 1 : Math.min(MAX_LINES, wrapWords(`✗ ${text}`, width).length));

/** The result of the last action or the last error; it fades after a few seconds. */
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
  return (
    <Box height={messageLines(message.text, width)} overflowY="hidden">
      <Text color={COLORS[message.kind]} wrap="wrap">
        {message.kind === 'error' ? `✗ ${message.text}` : message.text}
      </Text>
    </Box>
  );
}
