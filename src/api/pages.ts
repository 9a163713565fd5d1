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
 * A first page that is the whole list: empty, as many rows as the server
 * counts or one page claimed, or shorter than asked, unless its envelope is
 * one of a server paging by less than asked (its pages agree with its results
 * at that page's length).
 */
export function wholeList(first: Page<unknown>, pageSize: number): boolean {
  const n = first.data.length;
  return n === 0 || first.results <= n || first.pages <= 1 || (n < pageSize && first.pages !== Math.ceil(first.results / n));
}

/**
 * Every page of a list: the first alone (it says how many there are), the
 * rest with bounded concurrency, in order. A server's page count is its word,
 * not a bound: the first page may be the whole list (wholeList); an empty
 * page, a short one before the last, or one answering for another page number
 * is the real end; no page is asked for more than `concurrency` pages past the
 * last full one in order, and none past MAX_PAGES.
 */
export async function fetchAllPages<T>(client: ApiClient, path: string, opts: AllPagesOptions = {}): Promise<T[]> {
  const pageSize = opts.pageSize ?? 100;
  const ahead = opts.concurrency ?? 4;
  const first = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: 1, pageSize, flawed: opts.flawed });
  const claimed = Math.max(1, first.pages);
  // The server's own page size: a full first page (it may cap what was asked).
  const full = first.data.length;
  let end = wholeList(first, pageSize) ? 1 : Math.min(claimed, MAX_PAGES);
  const pages: T[][] = [first.data];
  let loaded = 1;
  // Pages 1..inOrder are in and full: the window of pages asked for runs from there.
  let inOrder = 1;
  let waiting: (() => void)[] = [];
  opts.onPage?.(first.data, 1, loaded, end);
  let next = 2;
  const worker = async () => {
    while (next <= end) {
      if (next > inOrder + ahead) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      const n = next++;
      const page = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: n, pageSize, flawed: opts.flawed });
      const past = page.page !== n;
      pages[n - 1] = past ? [] : page.data;
      loaded++;
      if (n < end && (past || page.data.length < full)) end = n;
      while (inOrder < end && pages[inOrder]?.length === full) inOrder++;
      const wake = waiting;
      waiting = [];
      for (const w of wake) w();
      opts.onPage?.(pages[n - 1]!, n, loaded, end);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ahead, end - 1) }, worker));
  const rows = pages.slice(0, end).flat();
  // A full last page of the most read, with more claimed: the list goes on past what was read.
  if (end === MAX_PAGES && claimed > MAX_PAGES && pages[end - 1]!.length >= full) opts.onCut?.({ rows: rows.length, pages: claimed });
  return rows;
}
