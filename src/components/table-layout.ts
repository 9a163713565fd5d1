import type { Column } from '../app/screen.js';
import { flawOf } from '../model/response.js';
import { visible } from '../app/visible.js';
import { columns as columnsOf, getPath, scalarText } from './cells.js';

const MIN_FLEX = 4;

/** Room a title needs: itself and a sort marker (" ▲"). */
const titleNeed = (c: Column<unknown>) => c.title.length + 2;

/** Room a column's cells need: its widest cell in `sample` and its title. */
/** Columns a cell takes as it shows; one wider than `bound` is measured no further (a 10,000-character value costs what one that wide does). */
const shownWidth = (text: string, bound: number) => columnsOf(visible(text.length > 2 * bound ? text.slice(0, 2 * bound) : text));
const cellsNeed = (c: Column<unknown>, sample: readonly unknown[], bound: number) => sample.reduce<number>((m, r) => Math.max(m, shownWidth(cellText(c, r), bound)), titleNeed(c));

/**
 * Column widths for the terminal width (one space between columns; 0 for a
 * column left out). Identifier columns get what their widest cell in `sample`
 * needs (at least their own width, at most half the width), whole. The others share the rest as
 * `share` says; when that is less than they need at their narrowest, the
 * rightmost of them is left out, then the next, until the rest fit. Only when
 * the identifiers alone do not fit is everything shrunk in proportion.
 */
export function layoutColumns(columns: Column<unknown>[], width: number, sample: readonly unknown[] = []): number[] {
  // A cell as long as half the line is a sentence more than a name (a ticket's subject): that much of it is kept.
  const ids = new Map(columns.filter((c) => c.identifier && sample.length > 0).map((c) => [c, Math.max(c.width ?? 0, Math.min(cellsNeed(c, sample, width), Math.floor(width / 2)))]));
  const idRoom = [...ids.values()].reduce((a, b) => a + b, 0);
  const roomFor = (cols: Column<unknown>[]) => width - (ids.size + cols.length - 1) - idRoom;
  // Nothing to keep whole, or not even the identifiers fit.
  if (ids.size === 0 || roomFor([]) < 0) return share(columns, width, sample);
  const narrowest = (cols: Column<unknown>[]) => cols.reduce((sum, c) => sum + (c.width ?? MIN_FLEX), 0);
  let others = columns.filter((c) => !ids.has(c));
  while (others.length > 0 && roomFor(others) < narrowest(others)) others = others.slice(0, -1);
  const shared = new Map<Column<unknown>, number>();
  if (others.length > 0) share(others, roomFor(others) + others.length - 1, sample).forEach((w, i) => shared.set(others[i]!, w));
  const widths = columns.map((c) => ids.get(c) ?? shared.get(c) ?? 0);
  // With no other column to take it, room to spare goes to the last identifier.
  if (others.length === 0 && ids.size > 0) {
    const last = columns.length - 1 - [...columns].reverse().findIndex((c) => ids.has(c));
    widths[last]! += Math.max(0, roomFor([]));
  }
  return widths;
}

/**
 * Widths for columns that all stay (one space between them): fixed columns
 * keep theirs while they fit; the others get what their widest cell in
 * `sample` needs where that is less than their share by flex, and the rest
 * share what remains by flex; room to spare is shared by flex too. Without a
 * sample they share by flex alone.
 */
function share(columns: Column<unknown>[], width: number, sample: readonly unknown[]): number[] {
  const room = Math.max(0, width - Math.max(0, columns.length - 1));
  const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
  const flexCols = columns.filter((c) => c.width === undefined);
  const flexRoom = room - fixed;
  if (flexRoom < flexCols.length * MIN_FLEX) {
    // Too narrow: everything shrinks in proportion.
    const want = columns.map((c) => c.width ?? MIN_FLEX * 2);
    const total = want.reduce((a, b) => a + b, 0) || 1;
    return want.map((w) => Math.max(1, Math.floor((w * room) / total)));
  }
  const need = new Map(flexCols.map((c) => [c, sample.length === 0 ? Infinity : cellsNeed(c, sample, room)]));
  const got = new Map<Column<unknown>, number>();
  let open = flexCols;
  let left = flexRoom;
  const flexOf = (cols: Column<unknown>[]) => cols.reduce((sum, c) => sum + (c.flex ?? 1), 0);
  // Columns that need less than their share take just that, which raises the others' shares: repeat until none does.
  for (;;) {
    const total = flexOf(open);
    const modest = open.filter((c) => need.get(c)! <= Math.floor((left * (c.flex ?? 1)) / total));
    if (modest.length === 0) break;
    for (const c of modest) {
      got.set(c, need.get(c)!);
      left -= need.get(c)!;
    }
    open = open.filter((c) => !got.has(c));
    if (open.length === 0) break;
  }
  // The rest share what is left; when all fit, room to spare goes to all by flex (rows past the sample may be wider).
  const sharing = open.length > 0 ? open : flexCols;
  const total = flexOf(sharing);
  const pool = left;
  sharing.forEach((c, i) => {
    const w = i === sharing.length - 1 ? left : Math.floor((pool * (c.flex ?? 1)) / total);
    got.set(c, (got.get(c) ?? 0) + w);
    left -= w;
  });
  return columns.map((c) => c.width ?? got.get(c)!);
}

/**
 * A column's callback on a row. The client checked the row's types, but a
 * server may still send null where a view expects an object (or a view may
 * assume more than the API promises): one odd cell must not take the app down.
 */
function cell<R, T>(row: R, read: (row: R) => T, fallback: T): T {
  if (flawOf(row)) return fallback;
  try {
    return read(row);
  } catch {
    return fallback;
  }
}

/** What a cell shows: `?` when its row's value cannot be read. */
export function cellText<R>(column: Column<R>, row: R): string {
  // scalarText again: a format fed a field the server left out may return undefined.
  return cell(row, (r) => scalarText(column.format ? column.format(r) : getPath(r, column.key)), '?');
}

export const cellColor = <R>(column: Column<R>, row: R): string | undefined => (column.color ? cell(row, column.color, undefined) : undefined);

export const cellSortValue = <R>(sortValue: (row: R) => string | number, row: R): string | number => cell(row, sortValue, '');
