import type { ApiClient } from '../../api/client.js';
import type { AppContextValue } from '../../app/context.js';
import { listQuery, type ScreenDef, type ScreenRegistry } from '../../app/screen.js';
import type { DataStore } from '../../store/data.js';

/**
 * How the home view counts an area: its own count, else its list's length
 * (a loaded list read whole, a paged one from its first page, which holds it
 * all more often than not): either way the data store caches the list the
 * area shows, which then opens without a request.
 */
export function counter(def: ScreenDef, client: ApiClient, data: DataStore): (() => Promise<number>) | undefined {
  if (def.count) return () => def.count!(client, data);
  const list = def.list;
  if (!list) return undefined;
  const q = listQuery(list, {}, data);
  if (list.load) return async () => (await data.getState().rows(q)).length;
  return () => data.getState().countList(q);
}

/** The areas of the home view, each with how it is counted (none for an area with nothing to count). */
export const homeAreas = (screens: ScreenRegistry, client: ApiClient, data: DataStore) =>
  screens.homeScreens().map((def) => ({ def, counter: counter(def, client, data) }));

/** Counts every area; `force` counts again those counted already (an area's count on its way is not asked twice). */
export function loadCounts(areas: ReturnType<typeof homeAreas>, data: AppContextValue['data'], force: boolean): void {
  for (const { def, counter: count } of areas) if (count) void data.getState().loadCount(def.id, count, force);
}
