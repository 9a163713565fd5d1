import { useEffect } from 'react';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from './context.js';

const SHOW_MS = 8000;
const COLORS = { info: undefined, success: 'green', error: 'red' } as const;

/** Lines the message needs: a long one (a 403's reason names the scope at its end) takes two. */
export const messageLines = (text: string | undefined, width: number) => (text !== undefined && text.length + 2 > width ? 2 : 1);

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
