import type { ApiClient } from '../../api/client.js';
import { listPath, type ScreenDef } from '../../app/screen.js';

/** How the home view counts an area: its own count, else its list's `results` (one small page), else its loader's length. */
export function counter(def: ScreenDef, client: ApiClient): (() => Promise<number>) | undefined {
  if (def.count) return () => def.count!(client);
  const list = def.list;
  if (!list) return undefined;
  if (list.load) return async () => (await list.load!(client, {})).length;
  const path = listPath(list, {});
  return async () => (await client.page(path, { root: list.root, filter: list.filter?.({}), page: 1, pageSize: 25 })).results;
}
