import { NO_FAILURES, NO_MARKS, type ListView } from '../../store/views.js';

/**
 * Marks are row keys: they survive filtering, sorting and refreshes, and go
 * with the row when it leaves the list. These functions take the view as it
 * is when the key arrives and return what changes.
 */

/** Space: marks the row or takes its mark away; a row marked becomes the anchor of the next range. */
export function toggleMark(v: ListView, key: string): Partial<ListView> {
  const marks = new Set(v.marks);
  if (marks.delete(key)) return { marks, failures: without(v.failures, [key]) };
  marks.add(key);
  return { marks, anchor: key };
}

/** Ctrl-Space: every row from the anchor to the cursor, in the order shown; without an anchor in view, the cursor's row. */
export function markRange(v: ListView, shownKeys: readonly string[], cursor: number): Partial<ListView> {
  const at = v.anchor === undefined ? -1 : shownKeys.indexOf(v.anchor);
  const from = at < 0 ? cursor : Math.min(at, cursor);
  const to = at < 0 ? cursor : Math.max(at, cursor);
  const marks = new Set(v.marks);
  for (const key of shownKeys.slice(from, to + 1)) marks.add(key);
  return { marks, anchor: shownKeys[cursor] };
}

export const clearMarks = (): Partial<ListView> => ({ marks: NO_MARKS, failures: NO_FAILURES, anchor: undefined });

/** The marks (and failure reasons) of rows no longer in the list dropped; undefined when every mark is still there. */
export function pruneMarks(v: ListView, present: (key: string) => boolean): Partial<ListView> | undefined {
  const gone = [...v.marks, ...v.failures.keys()].filter((k) => !present(k));
  if (gone.length === 0) return undefined;
  const marks = new Set(v.marks);
  for (const key of gone) marks.delete(key);
  return { marks, failures: without(v.failures, gone) };
}

function without(failures: ReadonlyMap<string, string>, keys: readonly string[]): ReadonlyMap<string, string> {
  if (!keys.some((k) => failures.has(k))) return failures;
  const next = new Map(failures);
  for (const key of keys) next.delete(key);
  return next.size ? next : NO_FAILURES;
}

/** The marked rows: those shown, in their order, then those the filter hides. */
export function marksInOrder<R>(marks: ReadonlySet<string>, shown: readonly R[], all: readonly R[], rowKey: (row: R) => string): R[] {
  if (marks.size === 0) return [];
  const inView = shown.filter((r) => marks.has(rowKey(r)));
  if (inView.length === marks.size) return inView;
  const seen = new Set(inView.map(rowKey));
  return [...inView, ...all.filter((r) => marks.has(rowKey(r)) && !seen.has(rowKey(r)))];
}
