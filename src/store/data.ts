import { createStore } from 'zustand/vanilla';
import type { ApiClient, Root } from '../api/client.js';
import { fetchAllPages } from '../api/pages.js';
import { ApiError, describeError } from '../api/errors.js';

/** What to fetch for a list: a paged API path, or a loader for lists paged otherwise. */
export interface ListQuery {
  path: string;
  root?: Root;
  /** Server-side X-Filter. */
  filter?: unknown;
  /** For lists that are not paged (e.g. backups) or paged by marker; `path` still names it for invalidation. */
  load?: (client: ApiClient) => Promise<unknown[]>;
}

export interface ListEntry {
  status: 'loading' | 'ready' | 'error';
  rows: unknown[];
  /** Pages fetched of the total while the first load runs. */
  progress?: { loaded: number; total: number };
  /** A refresh is running; the rows shown are the previous ones. */
  refreshing: boolean;
  error?: string;
  errorStatus?: number;
  fetchedAt?: number;
}

export interface CountEntry {
  status: 'loading' | 'ready' | 'error';
  value?: number;
  error?: string;
}

export interface DataState {
  lists: Record<string, ListEntry>;
  counts: Record<string, CountEntry>;
  /** Fetches unless cached; `force` refetches, keeping the rows on screen until the new ones are in. */
  load(q: ListQuery, force?: boolean): Promise<void>;
  /** Fetches again unless a fetch is already running (background refresh and r). */
  refresh(q: ListQuery): Promise<void>;
  /** Marks a list as on screen: invalidation refetches watched lists and drops the rest. */
  watch(q: ListQuery): () => void;
  /** After a mutation: every list whose path starts with a prefix is refetched or dropped. */
  invalidate(...prefixes: string[]): void;
  /** Puts rows in the cache directly (synthetic data for tests and benchmarks). */
  put(q: ListQuery, rows: unknown[]): void;
  loadCount(id: string, count: () => Promise<number>, force?: boolean): Promise<void>;
}

export const queryKey = (q: ListQuery) => `${q.root ?? 'base'} ${q.path}${q.filter === undefined ? '' : ` ${JSON.stringify(q.filter)}`}`;

export interface DataOptions {
  client: ApiClient;
  /** Pages fetched at once after the first. */
  concurrency?: number;
  /** After every successful fetch (the header's "refreshed" time). */
  onLoaded?: () => void;
}

/** The cache of paged lists, keyed by path, root and filter. */
export function createDataStore({ client, concurrency = 4, onLoaded }: DataOptions) {
  const generation = new Map<string, number>();
  const inflight = new Map<string, Promise<void>>();
  const queries = new Map<string, ListQuery>();
  const watched = new Map<string, number>();

  return createStore<DataState>()((set, get) => {
    const blank: ListEntry = { status: 'loading', rows: [], refreshing: false };
    const patch = (key: string, p: Partial<ListEntry>) => set((s) => ({ lists: { ...s.lists, [key]: { ...(s.lists[key] ?? blank), ...p } } }));

    const fetchList = async (key: string, q: ListQuery, gen: number, initial: boolean): Promise<unknown[]> => {
      if (q.load) return q.load(client);
      const pages: unknown[][] = [];
      return fetchAllPages(client, q.path, {
        root: q.root,
        filter: q.filter,
        concurrency,
        onPage: (rows, pageNo, loaded, total) => {
          if (!initial || generation.get(key) !== gen) return;
          pages[pageNo - 1] = rows;
          // Show what has arrived in order: a gap waits for its page.
          let end = 0;
          while (pages[end]) end++;
          patch(key, { status: 'ready', rows: pages.slice(0, end).flat(), progress: loaded < total ? { loaded, total } : undefined });
        },
      });
    };

    const load = (q: ListQuery, force = false): Promise<void> => {
      const key = queryKey(q);
      queries.set(key, q);
      const current = get().lists[key];
      if (inflight.has(key) && !force) return inflight.get(key)!;
      if (current && current.status !== 'error' && !force) return Promise.resolve();
      const gen = (generation.get(key) ?? 0) + 1;
      generation.set(key, gen);
      const initial = !current || current.status !== 'ready';
      patch(key, initial ? { status: 'loading', rows: [], progress: undefined, error: undefined, refreshing: false } : { refreshing: true });
      const run = fetchList(key, q, gen, initial).then(
        (rows) => {
          if (generation.get(key) !== gen) return;
          patch(key, { status: 'ready', rows, progress: undefined, refreshing: false, error: undefined, errorStatus: undefined, fetchedAt: Date.now() });
          onLoaded?.();
        },
        (err: unknown) => {
          if (generation.get(key) !== gen) return;
          const status = err instanceof ApiError ? err.status : undefined;
          // A failed refresh keeps the rows it had; the error is shown beside them.
          patch(key, { status: initial ? 'error' : 'ready', progress: undefined, refreshing: false, error: describeError(err), errorStatus: status });
        },
      );
      const tracked = run.finally(() => {
        if (inflight.get(key) === tracked) inflight.delete(key);
      });
      inflight.set(key, tracked);
      return tracked;
    };

    return {
      lists: {},
      counts: {},
      load,
      refresh: (q) => inflight.get(queryKey(q)) ?? load(q, true),
      watch: (q) => {
        const key = queryKey(q);
        queries.set(key, q);
        watched.set(key, (watched.get(key) ?? 0) + 1);
        return () => {
          const n = (watched.get(key) ?? 1) - 1;
          if (n <= 0) watched.delete(key);
          else watched.set(key, n);
        };
      },
      invalidate: (...prefixes) => {
        const hit = (key: string) => {
          const path = queries.get(key)?.path;
          return path !== undefined && prefixes.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
        };
        const lists = { ...get().lists };
        const refetch: ListQuery[] = [];
        for (const key of Object.keys(lists)) {
          if (!hit(key)) continue;
          if (watched.has(key)) refetch.push(queries.get(key)!);
          else {
            delete lists[key];
            generation.set(key, (generation.get(key) ?? 0) + 1);
            inflight.delete(key);
          }
        }
        set({ lists, counts: {} });
        for (const q of refetch) void load(q, true);
      },
      put: (q, rows) => {
        const key = queryKey(q);
        queries.set(key, q);
        patch(key, { status: 'ready', rows, refreshing: false, fetchedAt: Date.now() });
      },
      loadCount: async (id, count, force = false) => {
        const current = get().counts[id];
        if (current && !force && current.status !== 'error') return;
        const setCount = (c: CountEntry) => set((s) => ({ counts: { ...s.counts, [id]: c } }));
        if (!current || current.status === 'error') setCount({ status: 'loading' });
        try {
          setCount({ status: 'ready', value: await count() });
          onLoaded?.();
        } catch (err) {
          const status = err instanceof ApiError && err.status ? `${err.status} ` : '';
          setCount({ status: 'error', error: `${status}${describeError(err)}` });
        }
      },
    };
  });
}

export type DataStore = ReturnType<typeof createDataStore>;
