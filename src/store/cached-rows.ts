import { queryKey, type DataStore, type ListQuery } from './data.js';

/** The rows of a cached list, read once when not cached yet; throws the list's error (a 403 names the missing scope). */
export async function cachedRows<T>(data: DataStore, q: ListQuery): Promise<T[]> {
  await data.getState().load(q);
  const entry = data.getState().lists[queryKey(q)];
  if (!entry || entry.status === 'error') throw new Error(entry?.error ?? 'not loaded');
  return entry.rows as T[];
}
