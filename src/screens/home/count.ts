import type { ApiClient } from '../../api/client.js';
import type { AppContextValue } from '../../app/context.js';
import { listPath, type ScreenDef, type ScreenRegistry } from '../../app/screen.js';

/** How the home view counts an area: its own count, else its list's `results` (one small page), else its loader's length. */
export function counter(def: ScreenDef, client: ApiClient): (() => Promise<number>) | undefined {
  if (def.count) return () => def.count!(client);
  const list = def.list;
  if (!list) return undefined;
  if (list.load) return async () => (await list.load!(client, {})).length;
  const path = listPath(list, {});
  return async () => (await client.page(path, { root: list.root, filter: list.filter?.({}), page: 1, pageSize: 25 })).results;
}

/** The areas of the home view, each with how it is counted (none for an area with nothing to count). */
export const homeAreas = (screens: ScreenRegistry, client: ApiClient) => screens.homeScreens().map((def) => ({ def, counter: counter(def, client) }));

/** Counts every area; `force` counts again those counted already (an area's count on its way is not asked twice). */
export function loadCounts(areas: ReturnType<typeof homeAreas>, data: AppContextValue['data'], force: boolean): void {
  for (const { def, counter: count } of areas) if (count) void data.getState().loadCount(def.id, count, force);
}
