import { useMemo } from 'react';
import { Text } from './Text.js';
import { wrapLine } from './cells.js';
import { ScrollView } from './ScrollView.js';

interface Props {
  title: string;
  value: unknown;
  width: number;
  height: number;
  onClose: () => void;
  onCopy?: () => void;
}

/** The raw record, pretty-printed and scrollable. */
export function JsonView({ title, value, width, height, onClose, onCopy }: Props) {
  const lines = useMemo(() => (JSON.stringify(value, null, 2) ?? 'undefined').split('\n').flatMap((l) => wrapLine(l, width)), [value, width]);
  return <ScrollView title={title} items={lines} height={height} onClose={onClose} commands={{ copy: onCopy }} render={(line) => <Text wrap="truncate-end">{line}</Text>} />;
}
