import { getGrants, getPreferences, getProfile, GRANTS_PATH, PREFERENCES_PATH, PROFILE_PATH } from '../../api/profile.js';
import type { ApiClient } from '../../api/client.js';
import { useListData } from '../../components/list/use-list-data.js';
import type { ListEntry, ListQuery } from '../../store/data.js';

/**
 * A single object (the profile, grants, preferences) kept in the data cache
 * as a one-row list: it loads, refreshes and is invalidated like any list, so
 * a mutation under /profile refreshes every screen showing it.
 */
export interface ObjectQuery<T> extends ListQuery {
  /** Never set: carries the object's type from the query to useObject. */
  readonly _type?: T;
}

const objectQuery = <T>(path: string, get: (client: ApiClient) => Promise<T>): ObjectQuery<T> => ({ path, load: async (client) => [await get(client)] });

export const PROFILE_QUERY = objectQuery(PROFILE_PATH, getProfile);
export const GRANTS_QUERY = objectQuery(GRANTS_PATH, getGrants);
export const PREFERENCES_QUERY = objectQuery(PREFERENCES_PATH, getPreferences);

/** The object once loaded (value), with the cache entry for loading and error states. */
export function useObject<T>(query: ObjectQuery<T>): { entry: ListEntry | undefined; value: T | undefined } {
  const entry = useListData(query);
  return { entry, value: entry?.status === 'ready' ? (entry.rows[0] as T) : undefined };
}
