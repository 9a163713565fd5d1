import type { KeyEvent } from '../../app/keys.js';
import type { CommandHandlers } from '../../app/use-commands.js';
import type { ListView } from '../../store/views.js';
import { editText } from '../text-edit.js';

/** Moves the selection to `to(index, count)`, clamped, in a list's own terms. */
export type Select = (to: (i: number, n: number) => number) => void;
type Update = (patch: Partial<ListView>) => void;

/**
 * The keys every list shares, by its state: an overlay takes only Esc; while
 * the filter is typed, Enter keeps it, Esc clears it and ↑↓ still move;
 * otherwise the moves (a page is the table's height) and the filter's keys,
 * with the list's own commands beside them. `view` picks the set; handlers
 * read `getView()`, the state as it is when the key arrives.
 */
export function listHandlers(view: ListView, getView: () => ListView, select: Select, update: Update, pageRows: number, own: CommandHandlers, close: () => void): CommandHandlers {
  if (view.overlay) return { back: close };
  const upDown = { up: () => select((i) => i - 1), down: () => select((i) => i + 1) };
  // The row the filter led to stays the selected one when the filter is kept or cleared (k9s): the cursor is not sent back.
  const keepRow = () => select((i) => i);
  if (view.filtering) {
    return {
      applyFilter: () => {
        keepRow();
        update({ filtering: false });
      },
      clearFilter: () => update({ filtering: false, filter: '', filterCursor: 0 }),
      ...upDown,
    };
  }
  return {
    ...upDown,
    pageUp: () => select((i) => i - pageRows),
    pageDown: () => select((i) => i + pageRows),
    top: () => select(() => 0),
    bottom: () => select((_, n) => n - 1),
    filter: () => update({ filtering: true, filterCursor: getView().filter.length }),
    back:
      view.filter !== '' &&
      (() => {
        keepRow();
        update({ filter: '', filterCursor: 0 });
      }),
    ...own,
  };
}

/** While the filter is typed, text goes to it and every other key is swallowed: q must not quit. */
export const filterCapture = (getView: () => ListView, update: Update) => (ev: KeyEvent) => {
  const v = getView();
  if (!v.filtering || v.overlay || ['return', 'escape', 'up', 'down'].includes(ev.name)) return false;
  const next = editText({ text: v.filter, cursor: v.filterCursor }, ev);
  if (next) update({ filter: next.text, filterCursor: next.cursor });
  return true;
};
