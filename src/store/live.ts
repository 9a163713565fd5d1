import type { ApiClient } from '../api/client.js';
import { EVENTS_PATH, eventSummary, getEvent, inProgress, recentEvents, type AccountEvent } from '../api/events.js';
import { ISSUES_PATH, SERVICES_PATH, VM_SETTINGS_PATH, type ManagedService } from '../api/managed.js';
import { ApiError } from '../api/errors.js';
import { INSTANCES_PATH, getInstance, instancePath, type Instance } from '../api/instances.js';
import { SETTLED_STATUSES } from '../model/instances.js';
import { apiPathOfKey, queryKey, type DataStore, type ListQuery } from './data.js';
import type { SessionStore } from './session.js';
import { underWay, type JobsStore } from './jobs.js';

/**
 * Live status while the app runs: polls the account's events (every 2 s while
 * something is under way, backing off to 15 s when idle), says what happened
 * in the message line, refetches the cached lists an event touches so the
 * visible view changes without a key press, and keeps the header's count of
 * managed services in problem.
 */

export const FAST_MS = 2000;
export const IDLE_MS = 15000;

/** The pace after a poll: fast while busy, otherwise doubling up to the idle pace. */
export function nextDelay(previous: number, busy: boolean, fast = FAST_MS, idle = IDLE_MS): number {
  if (busy) return fast;
  return Math.min(idle, Math.max(fast, previous * 2));
}

/** Cached lists an event about this kind of entity may have changed. */
const TOUCHES: Record<string, string[]> = {
  vm: ['/vm/instances', VM_SETTINGS_PATH],
  disks: ['/vm/instances'],
  backups: ['/vm/instances'],
  nodebalancer: ['/nodebalancers'],
  firewall: ['/networking/firewalls'],
  ipaddress: ['/networking/ips', '/vm/instances'],
  image: ['/images'],
  stackscript: ['/vm/stackscripts'],
  managed_service: [SERVICES_PATH, ISSUES_PATH],
  ticket: [SERVICES_PATH, ISSUES_PATH],
  tag: ['/tags'],
  token: ['/profile/tokens'],
  user_ssh_key: ['/profile/sshkeys'],
};

/** Instance events that add or remove an instance: a list must be refetched to show them. */
const MEMBERSHIP_ACTIONS = new Set(['vm_create', 'vm_clone', 'vm_delete']);

/** An event about an instance already in a long cached list: its row is fetched alone rather than the list again. */
export const changesOneRow = (e: AccountEvent) => e.entity?.type === 'vm' && !MEMBERSHIP_ACTIONS.has(e.action);

/** Paths to refetch after these events; for the ones taken row by row, only what hangs below the instance. */
export function pathsTouchedBy(events: readonly AccountEvent[], rowwise: ReadonlySet<AccountEvent> = new Set()): string[] {
  const paths = new Set<string>([EVENTS_PATH]);
  for (const e of events) {
    const touched = rowwise.has(e) ? [instancePath(e.entity!.id), VM_SETTINGS_PATH] : (TOUCHES[e.entity?.type ?? ''] ?? []);
    for (const p of touched) paths.add(p);
  }
  return [...paths];
}

/** Instance lists' rows in a transition (booting, provisioning, …): worth following at the fast pace. */
const TRANSITIONAL_PREFIX = INSTANCES_PATH;
const settled = new Set<string>(SETTLED_STATUSES);
/** Up to one page: refetching the list is one request. Longer lists have their moving rows fetched one by one instead. */
const REFETCH_MAX_ROWS = 100;

/** The cached instance lists: the ids of their rows in a transition, and whether any is too long to refetch for them. */
function instanceLists(data: DataStore): { moving: number[]; longList: boolean } {
  const moving = new Set<number>();
  let longList = false;
  for (const [key, entry] of Object.entries(data.getState().lists)) {
    // An outdated list's rows are from before a change: they are read again when a view shows them, not followed.
    if (apiPathOfKey(key) !== TRANSITIONAL_PREFIX || entry.outdated) continue;
    if (entry.rows.length > REFETCH_MAX_ROWS) longList = true;
    for (const r of entry.rows as { id: number; status?: unknown }[]) if (typeof r.status === 'string' && !settled.has(r.status)) moving.add(r.id);
  }
  return { moving: [...moving], longList };
}

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  now(): number;
}

const realTimers: Timers = {
  set: (run, ms) => {
    const t = setTimeout(run, ms);
    // Polling alone must never keep the process alive.
    t.unref?.();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
  now: () => Date.now(),
};

export interface LiveOptions {
  client: ApiClient;
  data: DataStore;
  session: SessionStore;
  /** The app's jobs: each poll's events move them on, and while one is under way the pace stays fast. */
  jobs?: JobsStore;
  timers?: Timers;
  /** Each poll's new or moved events, and those this session's jobs took (the alerts read them: src/store/alerts.ts). */
  onEvents?: (changed: readonly AccountEvent[], taken: ReadonlySet<number>) => void;
  fastMs?: number;
  idleMs?: number;
}

export interface LivePoller {
  /** Polls at once and goes back to the fast pace (after a user's change, or in tests). */
  poke(): Promise<void>;
  stop(): void;
  /** The wait before the next poll. */
  delay(): number;
}

/** A newer error stays on the message line this long before an event may replace it. */
const ERROR_HOLD_MS = 5000;
/** Fetched one by one, at most this many per poll: tracked events that fell off the first page, and a long list's moving instances. */
const MAX_LOOKUPS = 10;

export const SERVICES_QUERY: ListQuery = { path: SERVICES_PATH };
export const ISSUES_QUERY: ListQuery = { path: ISSUES_PATH };

export function startLivePoller({ client, data, session, jobs, timers = realTimers, onEvents, fastMs = FAST_MS, idleMs = IDLE_MS }: LiveOptions): LivePoller {
  let stopped = false;
  let timer: unknown;
  let pace = fastMs;
  let running: Promise<void> | null = null;
  let again = false;
  /** A poke asked for this poll: it counts as activity, so the pace starts fast again. */
  let kicked = false;
  /** The newest event id seen; undefined until the first poll sets the baseline. */
  let lastId: number | undefined;
  /** Events under way, by id, with the status last seen. */
  const tracked = new Map<number, AccountEvent>();
  /** Events a job took at the last poll: the job's own message speaks for them. */
  let jobEvents = new Set<number>();
  /** Labels of the services in problem at the last look; undefined before the first. */
  let problems: Map<number, string> | undefined;
  let managedDenied = false;

  const serviceKey = queryKey(SERVICES_QUERY);
  const note = (text: string, kind: 'info' | 'success' | 'error') => {
    const current = session.getState().message;
    if (kind !== 'error' && current?.kind === 'error' && timers.now() - current.at < ERROR_HOLD_MS) return;
    session.getState().notify(text, kind);
  };

  /** Problem services from the shared services list; transitions after the first look go to the message line. */
  const readProblems = () => {
    const entry = data.getState().lists[serviceKey];
    if (!entry || entry.status !== 'ready' || entry.error) return;
    const now = new Map((entry.rows as ManagedService[]).filter((s) => s.status === 'problem').map((s) => [s.id, s.label]));
    if (session.getState().problemCount !== now.size) session.setState({ problemCount: now.size });
    const before = problems;
    problems = now;
    if (!before) return;
    const broke = [...now].filter(([id]) => !before.has(id)).map(([, label]) => label);
    const recovered = [...before].filter(([id]) => !now.has(id)).map(([, label]) => label);
    const are = (labels: string[]) => `${labels.join(', ')} ${labels.length === 1 ? 'is' : 'are'}`;
    if (broke.length) note(`${are(broke)} in problem (! opens triage)`, 'error');
    else if (recovered.length) note(`${are(recovered)} no longer in problem`, 'success');
  };
  // Any refetch of the services list (a screen's, a mutation's, ours) keeps the count true to what is shown.
  const unsubscribe = data.subscribe((s, prev) => {
    if (s.lists[serviceKey] !== prev.lists[serviceKey]) readProblems();
  });

  const pollServices = async () => {
    if (managedDenied) return;
    await data.getState().refresh(SERVICES_QUERY);
    const entry = data.getState().lists[serviceKey];
    // No managed access (a restricted user): no badge rather than a wrong one.
    if (entry?.errorStatus === 403 || entry?.errorStatus === 401) {
      managedDenied = true;
      session.setState({ problemCount: undefined });
      return;
    }
    // Services in trouble: have the issues at hand, so triage opens at once.
    if (problems?.size) void data.getState().load(ISSUES_QUERY);
  };

  /** Events new since the last poll, or whose status moved on. */
  const pollEvents = async (): Promise<AccountEvent[]> => {
    const page = await recentEvents(client);
    const newest = page.reduce((m, e) => Math.max(m, e.id), 0);
    if (lastId === undefined) {
      lastId = newest;
      jobEvents = jobs?.getState().observe(page, timers.now()) ?? new Set();
      for (const e of page) if (inProgress(e)) tracked.set(e.id, e);
      return [];
    }
    const byId = new Map(page.map((e) => [e.id, e]));
    const missing = [...tracked.keys()].filter((id) => !byId.has(id)).slice(0, MAX_LOOKUPS);
    for (const id of missing) {
      try {
        byId.set(id, await getEvent(client, id));
      } catch (err) {
        // Gone (past retention, or not visible): stop following it.
        if (err instanceof ApiError && err.status === 404) tracked.delete(id);
      }
    }
    jobEvents = jobs?.getState().observe([...byId.values()], timers.now()) ?? new Set();
    const changed: AccountEvent[] = [];
    for (const e of byId.values()) {
      const before = tracked.get(e.id);
      const fresh = e.id > lastId;
      if (fresh || (before && before.status !== e.status)) changed.push(e);
      if (inProgress(e)) tracked.set(e.id, e);
      else tracked.delete(e.id);
    }
    lastId = Math.max(lastId, newest);
    return changed.sort((a, b) => a.id - b.id);
  };

  /** Fetches these instances and puts them in the cached instance lists. */
  const followInstances = async (ids: number[]) => {
    const fresh: Instance[] = [];
    const gone: number[] = [];
    await Promise.all(
      ids.map((id) =>
        getInstance(client, id).then(
          (vm) => void fresh.push(vm),
          (err: unknown) => void (err instanceof ApiError && err.status === 404 && gone.push(id)),
        ),
      ),
    );
    if (!stopped) data.getState().replaceRows(INSTANCES_PATH, fresh, gone);
  };

  /** Where the last turn through a long list's moving instances stopped. */
  let followFrom = 0;

  const poll = async () => {
    let busy = kicked;
    kicked = false;
    let changed: AccountEvent[] = [];
    try {
      changed = await pollEvents();
    } catch {
      // The next poll tries again; the views show their own errors.
    }
    if (stopped) return;
    if (changed.length) onEvents?.(changed, jobEvents);
    const lists = instanceLists(data);
    const rowwise = new Set(lists.longList ? changed.filter(changesOneRow) : []);
    const follow = new Set([...rowwise].map((e) => Number(e.entity!.id)));
    if (changed.length) {
      busy = true;
      data.getState().invalidate(...pathsTouchedBy(changed, rowwise));
    }
    if (lists.moving.length) {
      busy = true;
      if (lists.longList) {
        // A few of the moving rows per poll, taking turns, so a long list's many transitions cost a bounded number of requests.
        const start = followFrom % lists.moving.length;
        const turn = lists.moving.slice(start, start + MAX_LOOKUPS);
        followFrom = start + turn.length;
        for (const id of turn) follow.add(id);
      } else if (!changed.some((e) => e.entity?.type === 'vm')) data.getState().invalidate(TRANSITIONAL_PREFIX);
    }
    if (follow.size) await followInstances([...follow]);
    const before = session.getState().message;
    await pollServices();
    if (stopped) return;
    // A problem transition or a job's end said something already; otherwise the newest event no job took speaks.
    const untaken = changed.filter((e) => !jobEvents.has(e.id));
    const latest = untaken[untaken.length - 1];
    if (latest && session.getState().message === before) {
      const more = untaken.length > 1 ? ` (+${untaken.length - 1} more: :events)` : '';
      note(`${eventSummary(latest)}${more}`, latest.status === 'failed' ? 'error' : latest.status === 'finished' ? 'success' : 'info');
    }
    jobs?.getState().expire(timers.now());
    if (tracked.size > 0 || (jobs && underWay(jobs.getState()) > 0)) busy = true;
    pace = nextDelay(pace, busy, fastMs, idleMs);
  };

  const schedule = () => {
    if (stopped) return;
    timers.clear(timer);
    timer = timers.set(() => void run(), pace);
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await poll();
        } while (again && !stopped);
      } finally {
        running = null;
        schedule();
      }
    })();
    return running;
  };

  // A job just started: its events are looked for at once, then at the fast pace.
  const unfollowJobs = jobs?.subscribe((s, prev) => {
    if (s.jobs.length > prev.jobs.length && !stopped) {
      kicked = true;
      void run();
    }
  });

  void run();
  return {
    poke: () => {
      kicked = true;
      return run();
    },
    stop: () => {
      stopped = true;
      timers.clear(timer);
      unsubscribe();
      unfollowJobs?.();
    },
    delay: () => pace,
  };
}
