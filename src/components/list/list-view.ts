import type { Column } from '../../app/screen.js';
import { cellSortValue, cellText } from '../table-layout.js';
import { ascendingOrder } from './sort-order.js';

/** The rows a list shows: filtered and sorted, computed once per change of rows, sort or filter. */
export interface DerivedView<R> {
  rows: readonly R[];
  /** Position of a row key: by the list's own index of keys (made once per list) where no filter hides rows. */
  indexOf(key: string): number;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * A memo of the last derivation: key handlers and render both call it with
 * the store's current state and get the same object back until something
 * changes, so a keypress costs no sorting or filtering. Per list of rows,
 * each column is sorted once: the other direction is that order reversed,
 * and a filter keeps the sorted order's matches, so a sort key pressed again
 * or a filter typed over a sorted list sorts nothing.
 */
export function createDeriver<R>(columns: Column<R>[], rowKey: (row: R) => string) {
  let last: { rows: readonly R[]; sortCol: number | null; sortDesc: boolean; filter: string; view: DerivedView<R> } | undefined;
  let hay: { rows: readonly R[]; text: string[] } | undefined;
  /** Per list of rows: each row key's position, and each column's ascending order with each row's place in it. */
  let made: { rows: readonly R[]; keys?: Map<string, number>; byColumn: Map<number, { order: number[]; place: Int32Array }> } | undefined;
  const ofRows = (rows: readonly R[]) => {
    if (made?.rows !== rows) made = { rows, byColumn: new Map() };
    return made;
  };
  const positionOf = (rows: readonly R[], key: string) => {
    const m = ofRows(rows);
    m.keys ??= new Map(rows.map((r, i) => [rowKey(r), i]));
    return m.keys.get(key) ?? -1;
  };

  const haystack = (rows: readonly R[]) => {
    if (hay?.rows !== rows) hay = { rows, text: rows.map((r) => columns.map((c) => cellText(c, r)).join('\u0000').toLowerCase()) };
    return hay.text;
  };

  const ascending = (rows: readonly R[], sortCol: number, col: Column<R>) => {
    const m = ofRows(rows);
    let sorted = m.byColumn.get(sortCol);
    if (!sorted) {
      const keys = rows.map((r) => {
        if (col.sortValue) return cellSortValue(col.sortValue, r);
        const t = cellText(col, r);
        return NUMERIC.test(t) ? Number(t) : t;
      });
      const order = ascendingOrder(keys);
      const place = new Int32Array(order.length);
      order.forEach((i, at) => (place[i] = at));
      m.byColumn.set(sortCol, (sorted = { order, place }));
    }
    return sorted;
  };

  return (rows: readonly R[], sortCol: number | null, sortDesc: boolean, filter: string): DerivedView<R> => {
    if (last && last.rows === rows && last.sortCol === sortCol && last.sortDesc === sortDesc && last.filter === filter) return last.view;
    const col = sortCol === null ? undefined : columns[sortCol];
    const needle = filter.trim().toLowerCase();
    let out: readonly R[] = rows;
    /** Where a row of the list is shown, from its position in the list; none while a filter hides rows (the shown ones are indexed then). */
    let shownAt: ((i: number) => number) | undefined = (i) => i;
    if (col) {
      const { order, place } = ascending(rows, sortCol!, col);
      const text = needle ? haystack(rows) : undefined;
      const kept: R[] = [];
      // Descending is ascending reversed (ties too), as it always was.
      for (let n = 0; n < order.length; n++) {
        const i = order[sortDesc ? order.length - 1 - n : n]!;
        if (!text || text[i]!.includes(needle)) kept.push(rows[i]!);
      }
      out = kept;
      shownAt = text ? undefined : (i) => (sortDesc ? order.length - 1 - place[i]! : place[i]!);
    } else if (needle) {
      const text = haystack(rows);
      out = rows.filter((_, i) => text[i]!.includes(needle));
      shownAt = undefined;
    }
    let index: Map<string, number> | undefined;
    const result = out;
    const view: DerivedView<R> = {
      rows: result,
      indexOf: (key) => {
        if (shownAt) {
          const i = positionOf(rows, key);
          return i < 0 ? -1 : shownAt(i);
        }
        index ??= new Map(result.map((r, i) => [rowKey(r), i]));
        return index.get(key) ?? -1;
      },
    };
    last = { rows, sortCol, sortDesc, filter, view };
    return view;
  };
}

/** The selected row's index: by key when the row is still there (refresh, sort), else the old position. */
export function selectedIndex<R>(view: Pick<DerivedView<R>, 'rows'> & Partial<DerivedView<R>>, rowKey: (row: R) => string, key: string | undefined, fallback: number): number {
  const n = view.rows.length;
  if (n === 0) return 0;
  const at = Math.min(Math.max(0, fallback), n - 1);
  if (key === undefined) return at;
  if (rowKey(view.rows[at]!) === key) return at;
  const found = view.indexOf ? view.indexOf(key) : view.rows.findIndex((r) => rowKey(r) === key);
  return found >= 0 ? found : at;
}
