import { useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from './Text.js';
import type { Column } from '../app/screen.js';
import { plain } from '../app/style.js';
import { flawOf } from '../model/response.js';
import { fit } from './cells.js';
import { cellColor, cellText, layoutColumns } from './table-layout.js';
import { windowStart } from './window.js';

interface Props<R> {
  columns: Column<R>[];
  rows: readonly R[];
  selected: number;
  /** Lines available, the header included. */
  height: number;
  width: number;
  sortCol?: number | null;
  sortDesc?: boolean;
  /** Rows the user marked: the gutter shows a mark beside the cursor's place. */
  marked?: (row: R) => boolean;
}

/** The cursor and a space; a list with marks has a column for them between the two. */
const GUTTER = 2;
/** Column widths fit the first rows' cells: a fixed number, so the cost does not grow with the list. */
const WIDTH_SAMPLE = 100;

/** A windowed table: only the rows in view are formatted and rendered, whatever the list's length. */
export function Table<R>({ columns, rows, selected, height, width, sortCol, sortDesc, marked }: Props<R>) {
  const start = useRef(0);
  const body = Math.max(1, height - 1);
  start.current = windowStart(start.current, selected, body, rows.length);
  const sample = useMemo(() => rows.slice(0, WIDTH_SAMPLE), [rows]);
  const gutterWidth = marked ? GUTTER + 1 : GUTTER;
  const widths = useMemo(() => layoutColumns(columns as Column<unknown>[], width - gutterWidth, sample), [columns, width, gutterWidth, sample]);
  // A column of width 0 is left out on a narrow terminal.
  const shown = columns.flatMap((c, i) => (widths[i]! > 0 ? [{ c, i, w: widths[i]! }] : []));
  const header = shown.map(({ c, i, w }) => fit(c.title + (sortCol === i ? (sortDesc ? ' ▼' : ' ▲') : ''), w, c.align)).join(' ');
  const marker = plain() ? '>' : '›';
  const mark = plain() ? '*' : '●';
  // The cursor, then the mark: both readable without color, and a marked row under the cursor shows both.
  const gutter = (row: R, isSelected: boolean) => `${isSelected ? marker : ' '}${marked ? (marked(row) ? mark : ' ') : ''} `;
  const visible = rows.slice(start.current, start.current + body);
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">{' '.repeat(gutterWidth) + header}</Text>
      {visible.map((row, i) => {
        const index = start.current + i;
        const isSelected = index === selected;
        const flaw = flawOf(row);
        if (flaw) {
          return (
            <Text key={index} inverse={isSelected} color="red" wrap="truncate-end">
              {`${gutter(row, isSelected)}${plain() ? '!' : '⚠'} unreadable: ${flaw.reason}`}
            </Text>
          );
        }
        return (
          <Text key={index} inverse={isSelected} wrap="truncate-end">
            {gutter(row, isSelected)}
            {shown.map(({ c, i: ci, w }, at) => {
              const text = fit(cellText(c, row), w, c.align) + (at < shown.length - 1 ? ' ' : '');
              const color = cellColor(c, row);
              return color ? (
                <Text key={ci} color={color}>
                  {text}
                </Text>
              ) : (
                text
              );
            })}
          </Text>
        );
      })}
    </Box>
  );
}
