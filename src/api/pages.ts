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

/** What a list that computes over every item says of one it cannot read. */
export const unreadableItem = (what: string, at: number, row: unknown) => new ApiError('shape', `Item ${at + 1} of ${what} is not readable: ${flawOf(row)!.reason}`);

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
    if (at >= 0) throw unreadableItem(`${what} (page ${opts.page})`, at, data[at]);
  }
  return { data: data as T[], page: b.page as number, pages: b.pages as number, results: b.results as number };
}

/**
 * Most pages read for one list: 200 pages of 100 are 20,000 rows, twice the
 * 10,000 instances the benches scroll and search, and 200 requests (4 at a
 * time) are what a real list that long costs anyway. Past it a list is cut and
 * says so: a server's page count is its word, not a bound.
 */
export const MAX_PAGES = 200;

/** A list read only in part: the rows read, and the pages the server said it had. */
export interface ListCut {
  rows: number;
  pages: number;
}

export interface AllPagesOptions {
  root?: Root;
  filter?: unknown;
  pageSize?: number;
  /** Pages fetched at once after the first. */
  concurrency?: number;
  flawed?: FlawedRows;
  /** Called once per page as it arrives (pageNo counts from 1), the first page before any other; `total` is the pages still expected. */
  onPage?: (rows: unknown[], pageNo: number, loaded: number, total: number) => void;
  /** Called when the list was cut at MAX_PAGES, before the rows are returned. */
  onCut?: (cut: ListCut) => void;
}

/**
 * Every page of a list: the first alone (it says how many there are), the
 * rest with bounded concurrency, in order. An empty page, or one shorter than
 * the first before the last, is the real end: a server that overstates its
 * pages is asked for no more (at most the few already on their way), and none
 * is asked for more than MAX_PAGES.
 */
export async function fetchAllPages<T>(client: ApiClient, path: string, opts: AllPagesOptions = {}): Promise<T[]> {
  const pageSize = opts.pageSize ?? 100;
  const first = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: 1, pageSize, flawed: opts.flawed });
  const claimed = Math.max(1, first.pages);
  // The server's own page size: a full first page (it may cap what was asked).
  const full = first.data.length;
  // The first page holds them all when it is empty or holds as many as the server counts.
  let end = full === 0 || first.results <= full ? 1 : Math.min(claimed, MAX_PAGES);
  const pages: T[][] = [first.data];
  let loaded = 1;
  opts.onPage?.(first.data, 1, loaded, end);
  let next = 2;
  const worker = async () => {
    while (next <= end) {
      const n = next++;
      const page = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: n, pageSize, flawed: opts.flawed });
      pages[n - 1] = page.data;
      loaded++;
      if (n < end && page.data.length < full) end = n;
      opts.onPage?.(page.data, n, loaded, end);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, end - 1) }, worker));
  const rows = pages.slice(0, end).flat();
  // A full last page of the most read, with more claimed: the list goes on past what was read.
  if (end === MAX_PAGES && claimed > MAX_PAGES && pages[end - 1]!.length >= full) opts.onCut?.({ rows: rows.length, pages: claimed });
  return rows;
}
