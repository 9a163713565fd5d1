import type { Column } from '../../app/screen.js';
import { cellSortValue, cellText } from '../table-layout.js';

/** The rows a list shows: filtered and sorted, computed once per change of rows, sort or filter. */
export interface DerivedView<R> {
  rows: readonly R[];
  /** Position of a row key, built on first use. */
  indexOf(key: string): number;
}

// Made on the first sort: creating a collator costs ~2 ms, and a start sorts nothing.
let collator: Intl.Collator | undefined;
const NUMERIC = /^-?\d+(\.\d+)?$/;

function compare(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return (collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })).compare(String(a), String(b));
}

/**
 * A memo of the last derivation: key handlers and render both call it with
 * the store's current state and get the same object back until something
 * changes, so a keypress costs no sorting or filtering.
 */
export function createDeriver<R>(columns: Column<R>[], rowKey: (row: R) => string) {
  let last: { rows: readonly R[]; sortCol: number | null; sortDesc: boolean; filter: string; view: DerivedView<R> } | undefined;
  let hay: { rows: readonly R[]; text: string[] } | undefined;

  const haystack = (rows: readonly R[]) => {
    if (hay?.rows !== rows) hay = { rows, text: rows.map((r) => columns.map((c) => cellText(c, r)).join('\u0000').toLowerCase()) };
    return hay.text;
  };

  return (rows: readonly R[], sortCol: number | null, sortDesc: boolean, filter: string): DerivedView<R> => {
    if (last && last.rows === rows && last.sortCol === sortCol && last.sortDesc === sortDesc && last.filter === filter) return last.view;
    let out: readonly R[] = rows;
    const needle = filter.trim().toLowerCase();
    if (needle) {
      const text = haystack(rows);
      out = rows.filter((_, i) => text[i]!.includes(needle));
    }
    const col = sortCol === null ? undefined : columns[sortCol];
    if (col) {
      const keys = out.map((r) => {
        if (col.sortValue) return cellSortValue(col.sortValue, r);
        const t = cellText(col, r);
        return NUMERIC.test(t) ? Number(t) : t;
      });
      const order = keys.map((_, i) => i).sort((a, b) => compare(keys[a]!, keys[b]!) || a - b);
      if (sortDesc) order.reverse();
      const sorted = out;
      out = order.map((i) => sorted[i]!);
    }
    let index: Map<string, number> | undefined;
    const result = out;
    const view: DerivedView<R> = {
      rows: result,
      indexOf: (key) => {
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
