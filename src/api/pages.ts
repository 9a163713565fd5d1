import { checkRow, flawOf, pageShape } from '../model/response.js';
import { ApiError } from './errors.js';
import type { ApiClient, Root } from './client.js';

/** The paginated list envelope. */
export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

/**
 * `fail`: an item the client cannot read fails the page, with the reason (for
 * views that compute over every item); `mark`: it stays in the page as a
 * marked row (see src/model/response.ts), so a list shows the rest.
 */
export type FlawedRows = 'fail' | 'mark';

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** The page envelope checked, and each item against the resource its path lists. */
export function checkPage<T>(body: unknown, path: string, opts: { page: number; flawed: FlawedRows }): Page<T> {
  const what = `GET ${path}`;
  const b = body as Record<string, unknown> | null | undefined;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new ApiError('shape', `The response to ${what} is not a page (data, page, pages, results)`);
  const missing = (['data', 'page', 'pages', 'results'] as const).filter((k) => (k === 'data' ? !Array.isArray(b.data) : !isCount(b[k])));
  if (missing.length > 0) throw new ApiError('shape', `The response to ${what} is not a page: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing or not ${missing.includes('data') && missing.length === 1 ? 'a list' : 'valid'}`);
  const shape = pageShape(path);
  const items = b.data as unknown[];
  const data = shape ? items.map((item, i) => checkRow(shape, item, `!${opts.page}.${i}`)) : items;
  if (opts.flawed === 'fail') {
    const at = data.findIndex((row) => flawOf(row));
    if (at >= 0) throw new ApiError('shape', `Item ${at + 1} of ${what} (page ${opts.page}) is not readable: ${flawOf(data[at])!.reason}`);
  }
  return { data: data as T[], page: b.page as number, pages: b.pages as number, results: b.results as number };
}

export interface AllPagesOptions {
  root?: Root;
  filter?: unknown;
  pageSize?: number;
  /** Pages fetched at once after the first. */
  concurrency?: number;
  flawed?: FlawedRows;
  /** Called once per page as it arrives (pageNo counts from 1), the first page before any other. */
  onPage?: (rows: unknown[], pageNo: number, loaded: number, total: number) => void;
}

/** Every page of a list: the first alone (it says how many there are), the rest with bounded concurrency, in order. */
export async function fetchAllPages<T>(client: ApiClient, path: string, opts: AllPagesOptions = {}): Promise<T[]> {
  const pageSize = opts.pageSize ?? 100;
  const first = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: 1, pageSize, flawed: opts.flawed });
  const total = Math.max(1, first.pages);
  const pages: T[][] = [first.data];
  let loaded = 1;
  opts.onPage?.(first.data, 1, loaded, total);
  let next = 2;
  const worker = async () => {
    while (next <= total) {
      const n = next++;
      const page = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: n, pageSize, flawed: opts.flawed });
      pages[n - 1] = page.data;
      loaded++;
      opts.onPage?.(page.data, n, loaded, total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, total - 1) }, worker));
  return pages.flat();
}
