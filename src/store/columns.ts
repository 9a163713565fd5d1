import { createStore, type StoreApi } from 'zustand/vanilla';

/** One shown column as the user chose it with C: which field, and a width when resized. */
export interface ColumnChoice {
  key: string;
  width?: number;
}

/** The columns chosen for each list view (by its id), from config.json and C; a view without a choice shows its own columns. */
export interface ColumnsState {
  byView: ReadonlyMap<string, readonly ColumnChoice[]>;
  choose(view: string, columns: readonly ColumnChoice[]): void;
}

export type ColumnsStore = StoreApi<ColumnsState>;

export function createColumnsStore(initial: ReadonlyMap<string, readonly ColumnChoice[]> = new Map()): ColumnsStore {
  return createStore<ColumnsState>((set, get) => ({
    byView: initial,
    choose: (view, columns) => set({ byView: new Map(get().byView).set(view, columns) }),
  }));
}
