import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { ScreenProps } from '../../app/screen.js';
import { wrapWords } from '../../components/cells.js';
import { ScrollView } from '../../components/ScrollView.js';
import type { Message } from '../../store/session.js';
import { MESSAGE_HISTORY } from '../../store/session.js';

const LEVEL = { info: { text: 'info', color: undefined }, success: { text: 'done', color: 'green' }, error: { text: 'error', color: 'red' } } as const;
/** "15:04:05 error " */
const PREFIX = 15;

interface Line {
  head?: { time: string; level: Message['kind'] };
  text: string;
  /** Not under a message's head: drawn from the left edge. */
  plain?: boolean;
}

/** Each message whole, wrapped under its time and level. */
function messageLines(messages: readonly Message[], width: number): Line[] {
  return messages
    .slice()
    .reverse()
    .flatMap((m) =>
      wrapWords(m.text, Math.max(10, width - PREFIX)).map((text, i) => (i === 0 ? { head: { time: new Date(m.at).toTimeString().slice(0, 8), level: m.kind }, text } : { text })),
    );
}

/** `:messages` (M) — what the message line said, newest first, so an error that has faded can be read again, whole. */
export function MessagesScreen({ width, height }: ScreenProps) {
  const { session, nav } = useApp();
  const messages = useStore(session, (s) => s.messages);
  const lines = messageLines(messages, width);
  if (lines.length === 0) lines.push(...wrapWords('No message yet: results and errors show here once they have left the message line.', width).map((text) => ({ text, plain: true })));
  return (
    <ScrollView
      title={`Messages, newest first (the last ${MESSAGE_HISTORY} are kept)`}
      items={lines}
      height={height}
      priority={PRIORITY.screen}
      onClose={() => void nav.getState().pop()}
      render={(line) =>
        line.head ? (
          <Text wrap="truncate-end">
            <Text dimColor>{`${line.head.time} `}</Text>
            <Text color={LEVEL[line.head.level].color} bold={line.head.level === 'error'}>
              {LEVEL[line.head.level].text.padEnd(6)}
            </Text>
            {line.text}
          </Text>
        ) : (
          <Text wrap="truncate-end">{`${line.plain ? '' : ' '.repeat(PREFIX)}${line.text}`}</Text>
        )
      }
    />
  );
}
