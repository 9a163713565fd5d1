import type { Column } from '../../app/screen.js';
import { flawOf } from '../../model/response.js';

import type { ColumnChoice } from '../../store/columns.js';

export const MIN_WIDTH = 3;
export const MAX_WIDTH = 200;
/** Rows looked at for fields the list's columns do not show: a fixed number, so the cost does not grow with the list. */
const FIELD_SAMPLE = 20;

/** Every field of these rows, nested ones by their dotted path (`specs.memory`); lists are one field. */
function fieldPaths(rows: readonly unknown[]): string[] {
  const paths = new Set<string>();
  const walk = (v: unknown, prefix: string) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k);
    } else if (prefix) paths.add(prefix);
  };
  for (const row of rows.slice(0, FIELD_SAMPLE)) if (!flawOf(row)) walk(row, '');
  return [...paths];
}

/** A column for a field the list's own columns do not show: its path as its title, its value as text. */
const fieldColumn = <R,>(key: string): Column<R> => ({ key, title: key, flex: 1 });

/**
 * Every column C offers: the list's own, in their order, then every other
 * field its rows have (what the model knows, and what a later server sends),
 * sorted by path.
 */
export function offeredColumns<R>(own: readonly Column<R>[], rows: readonly unknown[]): Column<R>[] {
  const taken = new Set(own.map((c) => c.key));
  return [...own, ...fieldPaths(rows).filter((p) => !taken.has(p)).sort().map((p) => fieldColumn<R>(p))];
}

/** The columns a list shows for a choice: each chosen field in its order, at its chosen width; a field no row has yet is still a column (it may come). */
export function chosenColumns<R>(own: readonly Column<R>[], choice: readonly ColumnChoice[]): Column<R>[] {
  return choice.map(({ key, width }) => {
    const base = own.find((c) => c.key === key) ?? fieldColumn<R>(key);
    return width === undefined ? base : { ...base, width, flex: undefined };
  });
}

/** The choice that shows these columns as they are. */
export const choiceOf = (columns: readonly Column<unknown>[]): ColumnChoice[] => columns.map((c) => ({ key: c.key }));
