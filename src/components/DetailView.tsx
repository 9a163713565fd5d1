import { useMemo } from 'react';
import { Text } from 'ink';
import { flatten, getPath, wrapLine } from './cells.js';
import { ScrollView } from './ScrollView.js';

type Line = { heading: string } | { key: string; value: string };

interface Props {
  title: string;
  record: unknown;
  sections?: { title: string; fields: string[] }[];
  width: number;
  height: number;
  onClose: () => void;
  onCopy?: () => void;
}

function detailLines(record: unknown, sections: Props['sections'], width: number): Line[] {
  const groups = sections?.length
    ? sections.map((s) => ({ heading: s.title, pairs: s.fields.flatMap((f) => flatten(getPath(record, f), f)) }))
    : [{ heading: '', pairs: flatten(record) }];
  const keyWidth = Math.min(Math.floor(width * 0.4), Math.max(4, ...groups.flatMap((g) => g.pairs.map(([k]) => k.length))));
  const valueWidth = Math.max(10, width - keyWidth - 3);
  const lines: Line[] = [];
  for (const group of groups) {
    if (group.heading) lines.push({ heading: group.heading });
    for (const [key, value] of group.pairs) {
      // Long values and multi-line text (scripts) continue on lines of their own.
      const pieces = value.split('\n').flatMap((l) => wrapLine(l, valueWidth));
      pieces.forEach((piece, i) => lines.push({ key: i === 0 ? key.padEnd(keyWidth) : ' '.repeat(keyWidth), value: piece }));
    }
  }
  return lines;
}

/** The full record as sections of key/value lines, nested fields as dotted keys. */
export function DetailView({ title, record, sections, width, height, onClose, onCopy }: Props) {
  const lines = useMemo(() => detailLines(record, sections, width), [record, sections, width]);
  return (
    <ScrollView
      title={title}
      items={lines}
      height={height}
      onClose={onClose}
      commands={{ copy: onCopy }}
      render={(line) =>
        'heading' in line ? (
          <Text bold underline wrap="truncate-end">
            {line.heading}
          </Text>
        ) : (
          <Text wrap="truncate-end">
            <Text dimColor>{line.key}</Text>
            {'   '}
            {line.value}
          </Text>
        )
      }
    />
  );
}
