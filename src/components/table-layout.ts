import type { Column } from '../app/screen.js';
import { getPath, scalarText } from './cells.js';

const MIN_FLEX = 4;

/**
 * Column widths for the terminal width (one space between columns): fixed
 * columns keep theirs while they fit, the rest share what remains by flex.
 */
export function layoutColumns(columns: Column<unknown>[], width: number): number[] {
  const room = Math.max(0, width - Math.max(0, columns.length - 1));
  const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
  const flexCols = columns.filter((c) => c.width === undefined);
  const totalFlex = flexCols.reduce((sum, c) => sum + (c.flex ?? 1), 0);
  const flexRoom = room - fixed;
  if (flexRoom < flexCols.length * MIN_FLEX) {
    // Too narrow: everything shrinks in proportion.
    const want = columns.map((c) => c.width ?? MIN_FLEX * 2);
    const total = want.reduce((a, b) => a + b, 0) || 1;
    return want.map((w) => Math.max(1, Math.floor((w * room) / total)));
  }
  let left = flexRoom;
  const lastFlex = columns.lastIndexOf(flexCols[flexCols.length - 1]!);
  return columns.map((c, i) => {
    if (c.width !== undefined) return c.width;
    if (i === lastFlex) return left;
    const w = Math.floor((flexRoom * (c.flex ?? 1)) / totalFlex);
    left -= w;
    return w;
  });
}

export function cellText<R>(column: Column<R>, row: R): string {
  return column.format ? column.format(row) : scalarText(getPath(row, column.key));
}
