import { Text } from '../../components/Text.js';
import type { RequestRecord } from '../../api/request-log.js';
import { ScrollView } from '../../components/ScrollView.js';
import { detailLines } from './calls.js';

interface Props {
  call: RequestRecord;
  width: number;
  height: number;
  onCopy: () => void;
  onClose: () => void;
}

/** One call whole: what was sent (token and secrets masked), when, how long it took, and what came back. */
export function RequestDetail({ call, width, height, onCopy, onClose }: Props) {
  const lines = detailLines(call, width);
  return (
    <ScrollView
      title={`${call.method} ${call.path}`}
      items={lines}
      height={height}
      onClose={onClose}
      commands={{ copy: onCopy }}
      render={(line) => (
        <Text wrap="truncate-end" bold={line.heading} underline={line.heading} dimColor={line.dim} color={line.color}>
          {line.text || ' '}
        </Text>
      )}
    />
  );
}
