import { useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from './Text.js';
import type { Column } from '../app/screen.js';
import { fit } from './cells.js';
import { layoutColumns } from './table-layout.js';
import { TableRow, type ShownColumn } from './TableRow.js';
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

/** The cursor and a space; a list with marks has a column for them between the two (TableRow draws them). */
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
  const laidOut = useMemo(() => layoutColumns(columns as Column<unknown>[], width - gutterWidth, sample), [columns, width, gutterWidth, sample]);
  // A refresh brings a new array of rows and the widths are worked out again: the same widths keep the same array.
  const kept = useRef(laidOut);
  if (kept.current.length !== laidOut.length || kept.current.some((w, i) => w !== laidOut[i])) kept.current = laidOut;
  const widths = kept.current;
  // A column of width 0 is left out on a narrow terminal; the same array while the widths hold, so rows in view are not drawn again.
  const shown = useMemo(() => columns.flatMap((c, i): ShownColumn<R>[] => (widths[i]! > 0 ? [{ c, i, w: widths[i]! }] : [])), [columns, widths]);
  const header = shown.map(({ c, i, w }) => fit(c.title + (sortCol === i ? (sortDesc ? ' ▼' : ' ▲') : ''), w, c.align)).join(' ');
  const minute = Math.floor(Date.now() / 60_000);
  const visible = rows.slice(start.current, start.current + body);
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">{' '.repeat(gutterWidth) + header}</Text>
      {visible.map((row, i) => {
        const index = start.current + i;
        return <TableRow key={index} row={row} shown={shown} isSelected={index === selected} isMarked={marked ? marked(row) : undefined} minute={minute} />;
      })}
    </Box>
  );
}
