import { memo } from 'react';
import { Text } from './Text.js';
import type { Column } from '../app/screen.js';
import { plain } from '../app/style.js';
import { flawOf } from '../model/response.js';
import { fit } from './cells.js';
import { cellColor, cellText } from './table-layout.js';

/** A column as the table shows it: its place among the list's columns and its width. */
export interface ShownColumn<R> {
  c: Column<R>;
  i: number;
  w: number;
}

interface Props<R> {
  row: R;
  shown: readonly ShownColumn<R>[];
  isSelected: boolean;
  /** Whether the row is marked; undefined when the list has no marks column. */
  isMarked: boolean | undefined;
  /**
   * The minute the table was drawn in: a row is drawn again only when one of
   * its props changes, so cells that say an age ("3m ago") are kept honest by it.
   */
  minute: number;
}

/**
 * One line of a table. Memoized: moving the cursor draws the two rows it
 * leaves and enters, not every row in view (React's work and Ink's host
 * updates for forty rows were a third of a key's cost).
 */
function TableRowOf<R>({ row, shown, isSelected, isMarked }: Props<R>) {
  // The cursor, then the mark: both readable without color, and a marked row under the cursor shows both.
  const gutter = `${isSelected ? (plain() ? '>' : '›') : ' '}${isMarked === undefined ? '' : isMarked ? (plain() ? '*' : '●') : ' '} `;
  const flaw = flawOf(row);
  if (flaw) {
    return (
      <Text inverse={isSelected} color="red" wrap="truncate-end">
        {`${gutter}${plain() ? '!' : '⚠'} unreadable: ${flaw.reason}`}
      </Text>
    );
  }
  return (
    <Text inverse={isSelected} wrap="truncate-end">
      {gutter}
      {shown.map(({ c, i, w }, at) => {
        const text = fit(cellText(c, row), w, c.align) + (at < shown.length - 1 ? ' ' : '');
        const color = cellColor(c, row);
        return color ? (
          <Text key={i} color={color}>
            {text}
          </Text>
        ) : (
          text
        );
      })}
    </Text>
  );
}

export const TableRow = memo(TableRowOf) as typeof TableRowOf;
