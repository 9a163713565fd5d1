import { useEffect } from 'react';
import { Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from './context.js';

const SHOW_MS = 8000;
const COLORS = { info: undefined, success: 'green', error: 'red' } as const;

/** The result of the last action or the last error; it fades after a few seconds. */
export function MessageLine() {
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
    <Text color={COLORS[message.kind]} wrap="truncate-end">
      {message.kind === 'error' ? `✗ ${message.text}` : message.text}
    </Text>
  );
}
