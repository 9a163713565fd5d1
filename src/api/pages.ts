import { ApiError } from './errors.js';
import type { ApiClient, Root } from './client.js';

/** The paginated list envelope. */
export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

export function checkPage<T>(body: unknown, what: string): Page<T> {
  const b = body as Partial<Page<T>> | undefined;
  if (!b || typeof b !== 'object' || !Array.isArray(b.data) || !Number.isInteger(b.pages) || !Number.isInteger(b.results)) {
    throw new ApiError('shape', `The response to ${what} is not a page (data, page, pages, results)`);
  }
  return b as Page<T>;
}

export interface AllPagesOptions {
  root?: Root;
  filter?: unknown;
  pageSize?: number;
  /** Pages fetched at once after the first. */
  concurrency?: number;
  /** Called once per page as it arrives (pageNo counts from 1), the first page before any other. */
  onPage?: (rows: unknown[], pageNo: number, loaded: number, total: number) => void;
}

/** Every page of a list: the first alone (it says how many there are), the rest with bounded concurrency, in order. */
export async function fetchAllPages<T>(client: ApiClient, path: string, opts: AllPagesOptions = {}): Promise<T[]> {
  const pageSize = opts.pageSize ?? 100;
  const first = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: 1, pageSize });
  const total = Math.max(1, first.pages);
  const pages: T[][] = [first.data];
  let loaded = 1;
  opts.onPage?.(first.data, 1, loaded, total);
  let next = 2;
  const worker = async () => {
    while (next <= total) {
      const n = next++;
      const page = await client.page<T>(path, { root: opts.root, filter: opts.filter, page: n, pageSize });
      pages[n - 1] = page.data;
      loaded++;
      opts.onPage?.(page.data, n, loaded, total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, total - 1) }, worker));
  return pages.flat();
}
