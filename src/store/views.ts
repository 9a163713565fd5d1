import { createStore } from 'zustand/vanilla';

/** What a list shows over itself; one at a time, Esc closes it. */
export type Overlay =
  | { kind: 'detail'; key: string }
  | { kind: 'json'; key: string }
  | { kind: 'menu'; key: string }
  | { kind: 'confirm'; action: string; key: string }
  | { kind: 'form'; form: string; key?: string }
  | { kind: 'secret'; title: string; value: string; note?: string }
  /** The actions that take the marked items. */
  | { kind: 'bulk-menu' }
  /** A bulk action's form, filled once for every marked item. */
  | { kind: 'bulk-form'; action: string }
  /** Asks before acting on the marked items; `body` is what a bulk action's form collected. */
  | { kind: 'bulk-confirm'; action: string; body?: Record<string, unknown> }
  /** A bulk action under way: its progress, until every request it sent is answered. */
  | { kind: 'bulk-run'; verb: string; total: number; done: number; failed: number; stopping: boolean }
  /** C's chooser of the list's columns. */
  | { kind: 'columns' }
  /** Y's menu; `back` is the overlay it was opened over (a detail), shown again when it closes. */
  | { kind: 'copy'; key: string; back?: Overlay };

/** The state of one list on the nav stack, kept so Esc back returns to the same row. */
export interface ListView {
  selectedKey?: string;
  selectedIndex: number;
  /** Index into the columns; null: the server's order. */
  sortCol: number | null;
  sortDesc: boolean;
  filter: string;
  filterCursor: number;
  /** Typing into the filter. */
  filtering: boolean;
  /** The value of the list's `switch` param the user chose with v. */
  switched?: string;
  overlay: Overlay | null;
  /** Marked rows by row key; a row that leaves the list loses its mark. */
  marks: ReadonlySet<string>;
  /** The last row marked: Ctrl-Space marks from it to the cursor. */
  anchor?: string;
  /** Why the last bulk action failed on a row, by row key; the failed rows stay marked. */
  failures: ReadonlyMap<string, string>;
}

export const NO_MARKS: ReadonlySet<string> = new Set();
export const NO_FAILURES: ReadonlyMap<string, string> = new Map();

export const DEFAULT_VIEW: ListView = {
  selectedIndex: 0,
  sortCol: null,
  sortDesc: false,
  filter: '',
  filterCursor: 0,
  filtering: false,
  overlay: null,
  marks: NO_MARKS,
  failures: NO_FAILURES,
};

export interface ViewsState {
  views: Record<number, ListView>;
  get(entry: number): ListView;
  update(entry: number, patch: Partial<ListView>): void;
  /** Keeps the views of these entries only (those still on the stack): a view left is not come back to, so a day of them is not kept. */
  keep(entries: readonly number[]): void;
}

export function createViewsStore() {
  return createStore<ViewsState>()((set, get) => ({
    views: {},
    get: (entry) => get().views[entry] ?? DEFAULT_VIEW,
    update: (entry, patch) => set((s) => ({ views: { ...s.views, [entry]: { ...(s.views[entry] ?? DEFAULT_VIEW), ...patch } } })),
    keep: (entries) => {
      const { views } = get();
      if (Object.keys(views).every((k) => entries.includes(Number(k)))) return;
      set({ views: Object.fromEntries(entries.filter((k) => k in views).map((k) => [k, views[k]!])) });
    },
  }));
}

export type ViewsStore = ReturnType<typeof createViewsStore>;
