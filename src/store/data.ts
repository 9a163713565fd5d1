import { createStore } from 'zustand/vanilla';
import type { ApiClient, Root } from '../api/client.js';
import { fetchAllPages, wholeList, type FlawedRows, type ListCut, type Page } from '../api/pages.js';
import { ApiError, describeError } from '../api/errors.js';
import { sameRecord } from '../model/history.js';

/** What to fetch for a list: a paged API path, or a loader for lists paged otherwise. */
export interface ListQuery {
  path: string;
  root?: Root;
  /** Server-side X-Filter. */
  filter?: unknown;
  /** For lists that are not paged (e.g. backups), paged by marker, or joined from others; `path` still names it for invalidation. */
  load?: (client: ApiClient, io: LoadIo) => Promise<unknown[]>;
  /**
   * An item the client cannot read fails the list (default: views that
   * compute over every row), or stays in it marked (the generic list, which
   * draws such a row with its reason and runs none of its callbacks on it).
   */
  flawed?: FlawedRows;
}

/** A list's rows under the store's read rule (see DataState.load). */
export type ReadList = (q: ListQuery) => Promise<unknown[]>;

/** What a loader gets from the store for the read it runs. */
export interface LoadIo {
  /** Puts the rows known so far on screen; on a first read only: a refresh shows nothing until it is whole (a view never shows less than it had). */
  show(rows: unknown[]): void;
  /** The rows of a list the loader joins: under the read rule on a first read; read again on a refresh (r, the interval, a change), so it brings what is new. */
  read: ReadList;
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
  /** When the rows were read. */
  fetchedAt?: number;
  /** The list was read only in part: the server claims more pages than one list may read. */
  cut?: ListCut;
  /** When the last read ended, answered or not: the next one is due a refresh interval later. */
  checkedAt?: number;
  /** The rows on screen were older than the refresh interval when shown: the refresh under way replaces them. */
  revalidating?: boolean;
  /** The rows are those a loader knows so far (a balancer's ports before their nodes): the rest is being read. */
  partial?: boolean;
  /**
   * A change touched the list while no view showed it: its rows are shown
   * when a view comes back to it (no empty screen) while it is read again,
   * but a reader (`rows`) waits for that read.
   */
  outdated?: boolean;
}

/** Every row of the list is in: no page and no joined list still on its way. */
export const whole = (e: ListEntry | undefined): e is ListEntry => e?.status === 'ready' && !e.progress && !e.partial;

export interface CountEntry {
  status: 'loading' | 'ready' | 'error';
  value?: number;
  error?: string;
}

export interface DataState {
  lists: Record<string, ListEntry>;
  counts: Record<string, CountEntry>;
  /**
   * The read rule: a list is read when not cached; a cached one older than the
   * refresh interval is read again behind the rows already there (the promise
   * resolves at once: callers answer from the cache); a younger one is not read.
   * `force` reads again whatever its age, keeping the rows until the new ones are in.
   */
  load(q: ListQuery, force?: boolean): Promise<void>;
  /** The rows of a list under the read rule: cached rows at once, else once read; rejects with the list's error (a 403 names the missing scope). */
  rows(q: ListQuery): Promise<unknown[]>;
  /**
   * How many items a paged list holds, from its first page, read as a list's
   * first page is: a list that fits in it is cached whole on the way (the
   * home view's counts fill the lists its areas show). A cached list younger
   * than the refresh interval is counted without a request.
   */
  countList(q: ListQuery): Promise<number>;
  /** Fetches again unless a fetch is already running (background refresh and r). */
  refresh(q: ListQuery): Promise<void>;
  /** Marks a list as on screen: invalidation refetches watched lists and marks the rest outdated. */
  watch(q: ListQuery): () => void;
  /** Reads every list on screen again, each once (the server answering again after a gap). */
  refreshWatched(): void;
  /** After a mutation: every list whose path starts with a prefix is refetched if on screen, else outdated (or dropped if not yet read whole). */
  invalidate(...prefixes: string[]): void;
  /** Puts rows in the cache directly (synthetic data for tests and benchmarks). */
  put(q: ListQuery, rows: unknown[]): void;
  /** Swaps fetched records into every cached list of `path` by id, and drops the ids gone: a long list kept current without refetching it. */
  replaceRows(path: string, fresh: readonly { id: number }[], gone?: readonly number[]): void;
  loadCount(id: string, count: () => Promise<number>, force?: boolean): Promise<void>;
}

const PROGRESS_MS = 100;
/** Items per page of every list read: a count's first page is then the list's. */
const PAGE_SIZE = 100;
const onePage = (page: Page<unknown>) => wholeList(page, PAGE_SIZE);
/** Cached lists kept at most (see forget in createDataStore). */
export const LISTS_KEPT = 300;

/**
 * A loader's io outside the cache (another account's list in `:all`): the
 * lists it joins are read straight from the API, nothing is drawn before the end.
 */
export function uncachedIo(client: ApiClient): LoadIo {
  const io: LoadIo = {
    show: () => undefined,
    read: (q) => (q.load ? q.load(client, io) : fetchAllPages(client, q.path, { root: q.root, filter: q.filter, flawed: q.flawed })),
  };
  return io;
}

/** A list read by a loader (joined with others, paged otherwise) is cached apart from the plain list of its path, which other views read. */
export const queryKey = (q: ListQuery) =>
  `${q.root ?? 'base'} ${q.path}${q.filter === undefined ? '' : ` ${JSON.stringify(q.filter)}`}${q.flawed === 'mark' ? ' (marked)' : ''}${q.load ? ' (loaded)' : ''}`;

/**
 * The API path of a cached list whose rows are records as the API sent them
 * (all of them or a filter's); undefined for a list a loader worked out, whose
 * rows may carry fields of its own (a firewall's device count).
 */
export const apiPathOfKey = (key: string): string | undefined => (key.endsWith(' (loaded)') ? undefined : key.split(' ')[1]);

export interface DataOptions {
  client: ApiClient;
  /** Pages fetched at once after the first. */
  concurrency?: number;
  /** After every successful fetch (the header's "refreshed" time). */
  onLoaded?: () => void;
  /** The refresh interval in ms: a list read more recently is not read again unless forced. Without it a cached list is never read again by `load`. */
  maxAge?: () => number;
}

/** The cache of paged lists, keyed by path, root and filter. */
export function createDataStore({ client, concurrency = 4, onLoaded, maxAge = () => Infinity }: DataOptions) {
  /**
   * Each read or put of a list takes a number no list had before: a reply
   * lands only while its list still holds its number. Numbers never repeat,
   * so a dropped list's number goes with it (a read still on its way cannot
   * match a later one), and the map holds only the lists the cache holds.
   */
  const generation = new Map<string, number>();
  let lastGeneration = 0;
  const renew = (key: string) => {
    generation.set(key, ++lastGeneration);
    return lastGeneration;
  };
  const inflight = new Map<string, Promise<void>>();
  const countsInflight = new Map<string, Promise<void>>();
  const queries = new Map<string, ListQuery>();
  const watched = new Map<string, number>();
  /** The lists each loader read last time: their new rows are its new inputs. */
  const joins = new Map<string, Set<string>>();
  const rejoinAfter = new Set<string>();
  /** Counts on their way, by list: a load of the same list waits for the first page they bring. */
  const firstPages = new Map<string, Promise<unknown>>();
  const fresh = (e: ListEntry) => !e.outdated && e.fetchedAt !== undefined && Date.now() - e.fetchedAt < maxAge();
  /** Invalidated while a fetch ran: fetched once more when it ends, so a long list still finishes loading. */
  const again = new Set<string>();

  return createStore<DataState>()((set, get) => {
    const blank: ListEntry = { status: 'loading', rows: [], refreshing: false };
    /** A list as a read that answered leaves it: these rows, read now, nothing under way or amiss. */
    const answered = (rows: unknown[], cut?: ListCut): Partial<ListEntry> => {
      const now = Date.now();
      return { status: 'ready', rows, progress: undefined, partial: false, outdated: false, refreshing: false, revalidating: false, error: undefined, errorStatus: undefined, fetchedAt: now, checkedAt: now, cut };
    };
    type Change = (s: DataState) => Partial<DataState>;
    const patched = (key: string, p: Partial<ListEntry>): Change => (s) => ({ lists: { ...s.lists, [key]: { ...(s.lists[key] ?? blank), ...p } } });
    const patch = (key: string, p: Partial<ListEntry>) => set(patched(key, p));
    /** A load's reply, applied with its batch unless the list was replaced meanwhile (put, or a newer load). */
    const stillCurrent = (key: string, gen: number, change: Change): Change => (s) => (generation.get(key) === gen ? change(s) : {});

    // Replies that arrive together (the app was busy drawing the last one) are
    // applied in one update: one frame for all of them rather than one each.
    let pending: { change: Change; loaded: boolean; done: () => void }[] = [];
    const settle = (change: Change, loaded: boolean) =>
      new Promise<void>((done) => {
        pending.push({ change, loaded, done });
        if (pending.length > 1) return;
        setImmediate(() => {
          const batch = pending;
          pending = [];
          set((s) => forget(batch.reduce<DataState>((acc, b) => ({ ...acc, ...b.change(acc) }), s)));
          if (batch.some((b) => b.loaded)) onLoaded?.();
          for (const b of batch) b.done();
        });
      });

    /**
     * Past LISTS_KEPT cached lists, the least recently read of those off
     * screen and not being read are dropped (read again if ever visited
     * again): a day of overviews, ports and folders is not all kept.
     */
    const forget = (s: DataState): DataState => {
      const keys = Object.keys(s.lists);
      if (keys.length <= LISTS_KEPT) return s;
      const idle = keys.filter((k) => !watched.has(k) && !inflight.has(k)).sort((a, b) => (s.lists[a]!.checkedAt ?? 0) - (s.lists[b]!.checkedAt ?? 0));
      const lists = { ...s.lists };
      for (const key of idle.slice(0, keys.length - LISTS_KEPT)) drop(lists, key);
      return { ...s, lists };
    };

    /** A list out of the cache (a copy of the lists), with what is kept beside it. */
    const drop = (lists: Record<string, ListEntry>, key: string) => {
      delete lists[key];
      generation.delete(key);
      queries.delete(key);
      joins.delete(key);
    };

    const fetchList = async (key: string, q: ListQuery, gen: number, initial: boolean, join: ReadList, onCut: (cut: ListCut) => void): Promise<unknown[]> => {
      if (q.load) {
        const show = (rows: unknown[]) => initial && generation.get(key) === gen && patch(key, { status: 'ready', rows, partial: true });
        const inputs = new Set<string>();
        joins.set(key, inputs);
        return q.load(client, {
          show,
          read: (input) => {
            inputs.add(queryKey(input));
            return join(input);
          },
        });
      }
      const pages: unknown[][] = [];
      let shown: unknown[] = [];
      let contiguous = 0;
      let progress: ListEntry['progress'];
      let timer: NodeJS.Timeout | undefined;
      // Pages of a long list arrive by the hundred: the screen follows at most every PROGRESS_MS.
      const flush = () => {
        timer = undefined;
        if (generation.get(key) !== gen) return;
        let end = contiguous;
        while (pages[end]) end++;
        // Show what has arrived in order: a gap waits for its page.
        if (end > contiguous) shown = shown.concat(...pages.slice(contiguous, end));
        contiguous = end;
        patch(key, { status: 'ready', rows: shown, progress });
      };
      try {
        return await fetchAllPages(client, q.path, {
          root: q.root,
          filter: q.filter,
          concurrency,
          pageSize: PAGE_SIZE,
          flawed: q.flawed,
          onCut,
          onPage: (rows, pageNo, loaded, total) => {
            if (!initial) return;
            pages[pageNo - 1] = rows;
            progress = loaded < total ? { loaded, total } : undefined;
            if (pageNo === 1) flush();
            else timer ??= setTimeout(flush, PROGRESS_MS);
          },
        });
      } finally {
        clearTimeout(timer);
      }
    };

    const load = (q: ListQuery, force = false): Promise<void> => {
      const key = queryKey(q);
      queries.set(key, q);
      const current = get().lists[key];
      if (current?.status === 'ready' && !force) {
        // A read already under way replaces the rows when it is in; until then the cached ones answer, unless they are only a first read's part or a change outdated them.
        if (inflight.has(key)) return current.partial || current.outdated ? inflight.get(key)! : Promise.resolve();
        if (fresh(current)) return Promise.resolve();
        // Stale: the cached rows answer now, the read replaces them when it is in.
        const read = start(key, q, current, { revalidating: watched.has(key), behind: true });
        return current.outdated ? read : Promise.resolve();
      }
      if (inflight.has(key) && !force) return inflight.get(key)!;
      const counting = firstPages.get(key);
      // A count is reading this list's first page: the list may come whole with it.
      if (counting && !force) return counting.then(() => load(q));
      return start(key, q, current);
    };

    /**
     * Reads a list. A loader's joined lists are read under the rule on a
     * first read, again on a refresh, from the cache when `join` says so (its
     * inputs have just been read: see `rejoin`). `behind`: read because a
     * reader found it stale, not because a refresh asked for it.
     */
    const start = (key: string, q: ListQuery, current: ListEntry | undefined, how: { revalidating?: boolean; behind?: boolean; join?: ReadList } = {}): Promise<void> => {
      const gen = renew(key);
      const initial = !current || current.status !== 'ready';
      patch(key, initial ? { status: 'loading', rows: [], progress: undefined, error: undefined, refreshing: false } : { refreshing: true, revalidating: how.revalidating ?? false });
      let cut: ListCut | undefined;
      const run = fetchList(key, q, gen, initial, how.join ?? (initial ? rows : reread), (c) => (cut = c)).then(
        async (rows) => {
          if (generation.get(key) !== gen) return;
          await settle(stillCurrent(key, gen, patched(key, { ...answered(rows, cut), ...inputFailed(key) })), true);
          if (how.behind) rejoin(key);
        },
        (err: unknown) => {
          if (generation.get(key) !== gen) return;
          const status = err instanceof ApiError ? err.status : undefined;
          // A failed refresh keeps the rows it had; the error is shown beside them.
          return settle(stillCurrent(key, gen, patched(key, { status: initial ? 'error' : 'ready', progress: undefined, partial: false, refreshing: false, revalidating: false, error: describeError(err), errorStatus: status, checkedAt: Date.now() })), false);
        },
      );
      const tracked = run.finally(() => {
        if (inflight.get(key) !== tracked) return;
        inflight.delete(key);
        if (again.delete(key)) {
          // Changed while being read: what it brought is from before the change.
          if (watched.has(key)) void load(q, true);
          else {
            const lists = { ...get().lists };
            outdate(lists, key);
            set({ lists });
          }
        }
        else if (rejoinAfter.delete(key) && watched.has(key)) void start(key, q, get().lists[key], { join: rows });
      });
      inflight.set(key, tracked);
      return tracked;
    };

    /**
     * A joined list whose input kept its old rows because its read failed is
     * as old as that input, with its error: it says `refresh failed` and its
     * age as a plain list does, and is read again at the next interval.
     */
    const inputFailed = (key: string): Partial<ListEntry> => {
      let failed: ListEntry | undefined;
      for (const input of joins.get(key) ?? []) {
        const e = get().lists[input];
        if (e?.status === 'ready' && e.error && (failed?.fetchedAt === undefined || (e.fetchedAt ?? 0) < failed.fetchedAt)) failed = e;
      }
      return failed ? { error: failed.error, errorStatus: failed.errorStatus, fetchedAt: failed.fetchedAt } : {};
    };

    /**
     * A list no view shows, touched by a change (in `lists`, a copy the caller
     * sets): a whole one keeps its rows for the view that comes back to it,
     * marked so the next read is awaited; one not read whole goes. A read under
     * way is from before the change: its answer must not land. One outdated
     * already, nothing under way, stays as it is (the poller's changes come
     * every few seconds).
     */
    const outdate = (lists: Record<string, ListEntry>, key: string) => {
      const entry = lists[key];
      if (entry?.outdated && !inflight.has(key)) return;
      inflight.delete(key);
      if (entry && whole(entry)) {
        renew(key);
        lists[key] = { ...entry, outdated: true, refreshing: false, revalidating: false };
      } else drop(lists, key);
    };

    const rows = async (q: ListQuery): Promise<unknown[]> => {
      await load(q);
      const entry = get().lists[queryKey(q)];
      if (!entry || entry.status === 'error' || entry.outdated) throw new Error(entry?.error ?? 'not loaded');
      return entry.rows;
    };

    /**
     * A list read again behind the rows shown (stale when a view read it; a
     * refresh of a joined list reads its inputs itself) is in: every list on screen joined from it is worked out again from the
     * cache, so what it shows follows without waiting for its own refresh.
     */
    const rejoin = (input: string) => {
      for (const [key, inputs] of joins) {
        if (!inputs.has(input) || !watched.has(key)) continue;
        const q = queries.get(key);
        // One under way may have read the input before it came in: worked out again once it ends.
        if (inflight.has(key)) rejoinAfter.add(key);
        else if (q) void start(key, q, get().lists[key], { join: rows });
      }
    };

    const reread: ReadList = async (q) => {
      await (inflight.get(queryKey(q)) ?? load(q, true));
      return rows(q);
    };

    const countList = async (q: ListQuery): Promise<number> => {
      const key = queryKey(q);
      const current = get().lists[key];
      if (current?.status === 'ready' && !current.progress && fresh(current)) return current.rows.length;
      // A list never read takes a number too: an invalidation while the page is on its way drops it, and the page must not land.
      const gen = generation.get(key) ?? renew(key);
      queries.set(key, q);
      const first = client.page(q.path, { root: q.root, filter: q.filter, page: 1, pageSize: PAGE_SIZE, flawed: q.flawed });
      const counted = first
        .then(
          async (page) => {
            // Whole in one page, and nothing read or put it since: the list is cached.
            if (!onePage(page) || generation.get(key) !== gen || inflight.has(key)) return;
            await settle(stillCurrent(key, renew(key), patched(key, answered(page.data))), true);
          },
          () => undefined,
        )
        .finally(() => {
          if (Object.hasOwn(get().lists, key) || watched.has(key)) return;
          if (generation.get(key) === gen) generation.delete(key);
          queries.delete(key);
        });
      firstPages.set(key, counted);
      void counted.finally(() => firstPages.get(key) === counted && firstPages.delete(key));
      const page = await first;
      return onePage(page) ? page.data.length : page.results;
    };

    return {
      lists: {},
      counts: {},
      load,
      rows,
      countList,
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
      refreshWatched: () => {
        for (const key of watched.keys()) {
          const q = queries.get(key);
          if (q && !inflight.has(key)) void load(q, true);
        }
      },
      invalidate: (...prefixes) => {
        const hit = (key: string) => {
          const path = queries.get(key)?.path;
          return path !== undefined && prefixes.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
        };
        const lists = { ...get().lists };
        const refetch: ListQuery[] = [];
        // A first page a count is reading was asked for before the change: it must not land as the list.
        for (const key of firstPages.keys()) if (hit(key)) generation.delete(key);
        for (const key of Object.keys(lists)) {
          if (!hit(key)) continue;
          if (!watched.has(key)) outdate(lists, key);
          else if (inflight.has(key)) again.add(key);
          else refetch.push(queries.get(key)!);
        }
        set({ lists });
        for (const q of refetch) void load(q, true);
      },
      put: (q, rows) => {
        const key = queryKey(q);
        queries.set(key, q);
        // A refresh already on its way read the list before these rows: it must not land over them.
        renew(key);
        const now = Date.now();
        patch(key, { status: 'ready', rows, refreshing: false, fetchedAt: now, checkedAt: now });
      },
      replaceRows: (path, fresh, gone = []) => {
        const byId = new Map(fresh.map((r) => [r.id, r]));
        const dropped = new Set(gone);
        const lists = { ...get().lists };
        let touched = false;
        for (const [key, entry] of Object.entries(lists)) {
          if (queries.get(key)?.path !== path || entry.status !== 'ready') continue;
          // A record read again unchanged (an instance still booting) keeps its row, and a list with no row changed keeps its rows:
          // what watches the rows (the list's sort, alerts, history, the audit) has nothing to look at again.
          const changed = (r: { id: number }) => dropped.has(r.id) || (byId.has(r.id) && !sameRecord(byId.get(r.id), r));
          const old = entry.rows as { id: number }[];
          if (!old.some(changed)) continue;
          const rows = old.filter((r) => !dropped.has(r.id)).map((r) => (changed(r) ? byId.get(r.id)! : r));
          lists[key] = { ...entry, rows };
          touched = true;
        }
        if (touched) set({ lists });
      },
      loadCount: (id, count, force = false) => {
        const current = get().counts[id];
        if (current && !force && current.status !== 'error') return Promise.resolve();
        // One count of an area at a time: a visit or a refresh while one is on its way takes its answer.
        const running = countsInflight.get(id);
        if (running) return running;
        const counted = (c: CountEntry): Change => (s) => ({ counts: { ...s.counts, [id]: c } });
        if (!current || current.status === 'error') set(counted({ status: 'loading' }));
        const run = (async () => {
          try {
            await settle(counted({ status: 'ready', value: await count() }), true);
          } catch (err) {
            const status = err instanceof ApiError && err.status ? `${err.status} ` : '';
            // A count read before keeps its value beside the error, as a list keeps its rows.
            const before = get().counts[id];
            await settle(counted({ status: before?.status === 'ready' ? 'ready' : 'error', value: before?.value, error: `${status}${describeError(err)}` }), false);
          }
        })().finally(() => countsInflight.delete(id));
        countsInflight.set(id, run);
        return run;
      },
    };
  });
}

export type DataStore = ReturnType<typeof createDataStore>;
