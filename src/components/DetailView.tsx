import { useMemo } from 'react';
import { Text } from './Text.js';
import type { DetailSections } from '../app/screen.js';
import { visible } from '../app/visible.js';
import { unknownFields } from '../model/more-fields.js';
import type { ResourceSchema } from '../model/schema.js';
import { columns, flatten, getPath, scalarText, wrapLine } from './cells.js';
import { ScrollView } from './ScrollView.js';
import { specAt } from './form/form-state.js';

type Line = { heading: string } | { key: string; value: string };

interface Props {
  title: string;
  record: unknown;
  sections?: DetailSections;
  /** What the record is: the fields it does not know are shown under "More fields", never dropped. */
  schema?: ResourceSchema;
  width: number;
  height: number;
  onClose: () => void;
  onCopy?: () => void;
}

const MORE_FIELDS = 'More fields (this app does not know them)';

/** An unknown field's value on one line: nested parts as compact JSON. */
const compact = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v === null || v === undefined ? '—' : scalarText(v));

/** A later release's field a server did not send (4.83.1): nothing to show, not a blank. */
const absentNewer = (schema: ResourceSchema | undefined, record: unknown, path: string) => getPath(record, path) === undefined && schema !== undefined && specAt(schema, path)?.newer === true;

function detailLines(record: unknown, given: Props['sections'], schema: ResourceSchema | undefined, width: number): Line[] {
  const sections = typeof given === 'function' ? given(record) : given;
  const groups = sections?.length
    ? sections.map((s) => ({ heading: s.title, pairs: s.fields.flatMap((f) => (absentNewer(schema, record, f) ? [] : flatten(getPath(record, f), f))) }))
    : [{ heading: '', pairs: flatten(record) }];
  // Without sections every field is drawn already.
  const more = sections?.length && schema ? unknownFields(schema.fields, record, sections.flatMap((s) => s.fields)) : [];
  if (more.length) groups.push({ heading: MORE_FIELDS, pairs: more.map(([k, v]) => [k, compact(v)]) });
  // A key is a server's word too (an unknown field's name): measured as it shows.
  for (const g of groups) g.pairs = g.pairs.map(([k, v]) => [visible(k), v]);
  const keyWidth = Math.min(Math.floor(width * 0.4), Math.max(4, ...groups.flatMap((g) => g.pairs.map(([k]) => columns(k)))));
  const valueWidth = Math.max(10, width - keyWidth - 3);
  const lines: Line[] = [];
  for (const group of groups) {
    if (group.heading) lines.push({ heading: group.heading });
    for (const [key, value] of group.pairs) {
      // Long values and multi-line text (scripts) continue on lines of their own.
      const pieces = value.split('\n').flatMap((l) => wrapLine(l, valueWidth));
      pieces.forEach((piece, i) => lines.push({ key: i === 0 ? key + ' '.repeat(Math.max(0, keyWidth - columns(key))) : ' '.repeat(keyWidth), value: piece }));
    }
  }
  return lines;
}

/** The full record as sections of key/value lines, nested fields as dotted keys. */
export function DetailView({ title, record, sections, schema, width, height, onClose, onCopy }: Props) {
  const lines = useMemo(() => detailLines(record, sections, schema, width), [record, sections, schema, width]);
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
