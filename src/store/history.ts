import { createStore, type StoreApi } from 'zustand/vanilla';
import { fieldChanges, sameRecord, type FieldChange } from '../model/history.js';
import { apiPathOfKey, type DataStore } from './data.js';

/**
 * What the app has seen of each record since it started: every time a cached
 * list brings a record whose fields differ from the last sighting, a point
 * with the changes and the record as it then was. Bounded: the newest points
 * of each item, and the items seen most recently.
 */

/** Points kept per item (the oldest go first). */
export const POINTS_KEPT = 50;
/** Items followed; the one seen longest ago goes first. */
export const ITEMS_KEPT = 20_000;
/**
 * Changes kept in all (points past each item's latest): a point holds the
 * whole record as it was, so 50 points of 20,000 items would be gigabytes.
 * Past it, the item changed longest ago keeps only its latest point.
 */
export const CHANGES_KEPT = 10_000;

export interface HistoryPoint {
  at: number;
  /** Empty for the first sighting. */
  changes: FieldChange[];
  record: unknown;
}

export interface ItemHistory {
  path: string;
  id: string;
  label: string;
  /** Oldest first. */
  points: HistoryPoint[];
}

export const itemKey = (path: string, id: string) => `${path}#${id}`;

export interface HistoryState {
  /** Moves on with every change, so views redraw; the items themselves are held outside the state. */
  version: number;
  get(path: string, id: string): ItemHistory | undefined;
  /** A sighting of a record: a point when it differs from the last one. */
  see(path: string, id: string, label: string, record: unknown, now?: number): void;
  /** The records of one list as a refresh brought them; views redraw once for all of them. */
  seeRows(path: string, rows: readonly unknown[], now?: number): void;
  /** Every item, for keeping them across runs. */
  all(): ItemHistory[];
  restore(items: readonly ItemHistory[]): void;
}

export type HistoryStore = StoreApi<HistoryState>;

export function createHistoryStore(): HistoryStore {
  const items = new Map<string, ItemHistory>();
  /** The items holding changes, the one changed longest ago first, with how many points past their latest each holds. */
  const changed = new Map<string, number>();
  let changesHeld = 0;
  const forgetChanges = (key: string) => {
    changesHeld -= changed.get(key) ?? 0;
    changed.delete(key);
  };
  const keepChanges = (key: string, item: ItemHistory) => {
    forgetChanges(key);
    if (item.points.length < 2) return;
    changed.set(key, item.points.length - 1);
    changesHeld += item.points.length - 1;
    while (changesHeld > CHANGES_KEPT) {
      const oldest = changed.keys().next().value!;
      forgetChanges(oldest);
      const old = items.get(oldest)!;
      old.points = old.points.slice(-1);
    }
  };
  const touch = (key: string, item: ItemHistory) => {
    items.delete(key);
    items.set(key, item);
    keepChanges(key, item);
    if (items.size > ITEMS_KEPT) {
      const oldest = items.keys().next().value!;
      forgetChanges(oldest);
      items.delete(oldest);
    }
  };
  /** Takes in a sighting; true when it made a new point. */
  const sight = (path: string, id: string, label: string, record: unknown, now: number): boolean => {
    const key = itemKey(path, id);
    const item = items.get(key);
    if (!item) {
      touch(key, { path, id, label, points: [{ at: now, changes: [], record }] });
      return false;
    }
    const last = item.points[item.points.length - 1]!;
    const changes = sameRecord(last.record, record) ? [] : fieldChanges(last.record, record);
    // Unchanged (or only its write time): the latest point takes the record just read, which the cache holds anyway, and lets the one read before go.
    if (changes.length === 0) {
      last.record = record;
      return false;
    }
    item.points = [...item.points, { at: now, changes, record }].slice(-POINTS_KEPT);
    item.label = label;
    touch(key, item);
    return true;
  };
  return createStore<HistoryState>((set, get) => ({
    version: 0,
    get: (path, id) => items.get(itemKey(path, id)),
    see: (path, id, label, record, now = Date.now()) => {
      if (sight(path, id, label, record, now)) set({ version: get().version + 1 });
    },
    seeRows: (path, rows, now = Date.now()) => {
      let changed = false;
      for (const row of rows as Row[]) {
        if (typeof row !== 'object' || row === null || (typeof row.id !== 'number' && typeof row.id !== 'string')) continue;
        if (sight(path, String(row.id), typeof row.label === 'string' ? row.label : String(row.id), row, now)) changed = true;
      }
      if (changed) set({ version: get().version + 1 });
    },
    all: () => [...items.values()],
    restore: (saved) => {
      for (const item of saved) {
        const key = itemKey(item.path, item.id);
        const now = items.get(key);
        // Seen already in this run: what this run saw first is a change from where the saved history ends, if it differs.
        const first = now?.points[0];
        const changes = first ? fieldChanges(item.points[item.points.length - 1]!.record, first.record) : [];
        const fresh = now ? [...(changes.length ? [{ ...first!, changes }] : []), ...now.points.slice(1)] : [];
        touch(key, { ...item, label: now?.label ?? item.label, points: [...item.points, ...fresh].slice(-POINTS_KEPT) });
      }
      set({ version: get().version + 1 });
    },
  }));
}

type Row = { id?: unknown; label?: unknown };

/** Takes in every record the cached lists bring (a refresh, a row an event made the app read again). */
export function followLists(history: HistoryStore, data: DataStore): () => void {
  return data.subscribe((s, prev) => {
    for (const [key, entry] of Object.entries(s.lists)) {
      const before = prev.lists[key];
      if (before && before.rows === entry.rows) continue;
      // A loader's rows are not the API's records: a field of its own, absent from the plain list, would be a change at every read.
      const path = apiPathOfKey(key);
      if (path !== undefined) history.getState().seeRows(path, entry.rows);
    }
  });
}
