import { FIREWALLS_PATH, devicesPath } from '../api/firewalls.js';
import { INSTANCES_PATH } from '../api/instances.js';
import { IPS_PATH, IPV6_POOLS_PATH, IPV6_RANGES_PATH } from '../api/ips.js';
import { NODEBALANCERS_PATH, configsPath, nodesPath } from '../api/nodebalancers.js';
import { BUCKETS_PATH, KEYS_PATH } from '../api/object-storage.js';
import { TYPES_PATH } from '../api/regions.js';
import { flawOf } from '../model/response.js';
import { unreadableItem } from '../api/pages.js';
import { queryKey, type DataStore, type ListQuery, type ReadList } from './data.js';

/*
 * The plain lists several views read: an area's own list, the home view's
 * count, an instance's relations, a balancer's ports. One cache entry each,
 * so whichever view reads a list first, the others answer from it. Marked,
 * as the generic list shows them (see src/model/response.ts).
 */
const plain = (path: string, root?: 'beta'): ListQuery => (root ? { path, root, flawed: 'mark' } : { path, flawed: 'mark' });

export const INSTANCES_LIST = plain(INSTANCES_PATH);
export const FIREWALLS_LIST = plain(FIREWALLS_PATH, 'beta');
export const devicesList = (fw: number | string) => plain(devicesPath(fw), 'beta');
export const IPS_LIST = plain(IPS_PATH);
export const IPV6_POOLS_LIST = plain(IPV6_POOLS_PATH);
export const IPV6_RANGES_LIST = plain(IPV6_RANGES_PATH);
export const NODEBALANCERS_LIST = plain(NODEBALANCERS_PATH);
export const configsList = (nb: number | string) => plain(configsPath(nb));
export const nodesList = (nb: number | string, cfg: number | string) => plain(nodesPath(nb, cfg));
export const BUCKETS_LIST = plain(BUCKETS_PATH);
export const OBJECT_KEYS_LIST = plain(KEYS_PATH);

/**
 * The plans with their prices: the entry `:types` shows and the home view
 * counts, so a price needs no read of its own. A price worked out from a type
 * the client could not read would be a guess: readers of prices take them
 * through allReadable.
 */
export const TYPES_LIST = plain(TYPES_PATH);

/** What each index made of a cached list's rows, by the rows array: a list read again is a new array, and its indexes go with the old one. */
const indexes = new WeakMap<readonly unknown[], Map<string, unknown>>();

/** `build`'s index of these rows (by id, by address…), made once per rows array and `kind`: a look at the same list again costs a lookup, not a scan. */
export function indexed<T>(rows: readonly unknown[], kind: string, build: (rows: readonly unknown[]) => T): T {
  let made = indexes.get(rows);
  if (!made) indexes.set(rows, (made = new Map()));
  if (!made.has(kind)) made.set(kind, build(rows));
  return made.get(kind) as T;
}

const readable = (rows: readonly unknown[]) => indexed(rows, 'readable', (all) => all.filter((row) => !flawOf(row)));

/** A list's rows as `read` gives them, without those the client could not read (a join needs their fields); the same array for the same list, not to be changed. */
export async function readableRows<T>(read: ReadList, q: ListQuery): Promise<T[]> {
  return readable(await read(q)) as T[];
}

/** The readable rows of a list (as readableRows gives them) by id. */
export const rowsById = <T extends { id: number }>(rows: readonly T[]): Map<number, T> => indexed(rows, 'id', (all) => new Map((all as T[]).map((r) => [r.id, r])));

/** A list's rows when the client can read every one (a join that sums over them), else the error a list read in `fail` mode gives. */
export function allReadable<T>(q: ListQuery, rows: readonly unknown[]): T[] {
  const at = rows.findIndex((row) => flawOf(row));
  if (at >= 0) throw unreadableItem(`GET ${q.path}`, at, rows[at]);
  return rows as T[];
}

/** allReadable over a list as `read` gives it. */
export const everyRow = async <T>(read: ReadList, q: ListQuery): Promise<T[]> => allReadable<T>(q, await read(q));

/** A cached list's readable row with this id, without a request: what a view knows of it before asking. */
export function cachedRow<T extends { id: number }>(data: DataStore, q: ListQuery, id: number): T | undefined {
  const entry = data.getState().lists[queryKey(q)];
  return entry && rowsById(readable(entry.rows) as T[]).get(id);
}

/** The rows of a list under the read rule (cached at once, else once read), typed; rejects with the list's error (a 403 names the missing scope). */
export const rowsOf = <T>(data: DataStore, q: ListQuery) => data.getState().rows(q) as Promise<T[]>;
