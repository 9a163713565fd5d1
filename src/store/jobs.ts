import { createStore, type StoreApi } from 'zustand/vanilla';
import { describeError } from '../api/errors.js';
import type { AccountEvent } from '../api/events.js';
import type { SessionStore } from './session.js';
import { jobEnded, jobOutcome, jobTimedOut, jobWithEvents, jobWithFailure, type Job, type JobKind, type JobSubject } from '../model/jobs.js';

/**
 * This session's jobs: the long actions the app started, followed through the
 * events the live poller reads (src/store/live.ts), each ending with a
 * message of its own. The header counts those under way; `:jobs` lists them.
 */

/** Ended jobs kept for `:jobs`; the oldest go first. */
export const JOBS_KEPT = 100;

export interface JobsState {
  jobs: Job[];
  /** The newest event id seen: a new job claims only newer events. */
  newestEvent?: number;
  /** `after`: the newest event id known before the request went (default: now). */
  start(kind: JobKind, subjects: JobSubject[], now?: number, after?: number): number;
  /** One item's request failed: the service refused the action. */
  fail(id: number, subjectId: number | string, reason: string, now?: number): void;
  /** Events read by the poller; returns the ids of the events a job took, so the poller says the job's outcome in place of the raw event. */
  observe(events: readonly AccountEvent[], now?: number): Set<number>;
  /** Jobs whose time ran out say their outcome is not known. */
  expire(now?: number): void;
}

export type JobsStore = StoreApi<JobsState>;

/** Says how a job ended, once, when it ends. */
export type JobEndListener = (job: Job, text: string) => void;

/** Says a job's end on the message line: a failure as an error, an end not known as news. */
export const announceTo =
  (session: SessionStore): JobEndListener =>
  (job, text) =>
    session.getState().notify(text, job.state === 'finished' ? 'success' : job.state === 'failed' ? 'error' : 'info');

export function createJobsStore(onEnd: JobEndListener = () => {}): JobsStore {
  const store = createStore<JobsState>((set, get) => {
    /** Replaces jobs, announcing those that have just ended (unless the caller says it), and drops the oldest ended beyond JOBS_KEPT. */
    const commit = (next: Job[], announce = true) => {
      const before = new Map(get().jobs.map((j) => [j.id, j]));
      const ended = next.filter((j) => jobEnded(j.state) && !jobEnded(before.get(j.id)?.state ?? 'waiting'));
      let over = next.filter((j) => jobEnded(j.state)).length - JOBS_KEPT;
      const kept = over > 0 ? next.filter((j) => !(jobEnded(j.state) && over-- > 0)) : next;
      set({ jobs: kept });
      if (announce) for (const j of ended) onEnd(j, jobOutcome(j));
    };
    let nextId = 1;
    return {
      jobs: [],
      start: (kind, subjects, now = Date.now(), after = get().newestEvent) => {
        const id = nextId++;
        const parts = subjects.map((subject) => ({ subject, state: 'waiting' as const, percent: null }));
        set({ jobs: [...get().jobs, { id, kind, parts, started: now, moved: now, after, state: 'waiting' }] });
        return id;
      },
      // A one-item job whose request failed: the caller's own message says so already.
      fail: (id, subjectId, reason, now = Date.now()) =>
        commit(
          get().jobs.map((j) => (j.id === id ? jobWithFailure(j, subjectId, reason, now) : j)),
          get().jobs.find((j) => j.id === id)?.parts.length !== 1,
        ),
      observe: (events, now = Date.now()) => {
        const newest = events.reduce((m, e) => Math.max(m, e.id), get().newestEvent ?? 0);
        if (newest !== get().newestEvent) set({ newestEvent: newest });
        const taken = new Set<number>();
        const next = get().jobs.map((j) => {
          const after = jobWithEvents(j, events, now);
          for (const p of after.parts) if (p.eventId !== undefined) taken.add(p.eventId);
          return after;
        });
        if (next.some((j, i) => j !== get().jobs[i])) commit(next);
        return taken;
      },
      expire: (now = Date.now()) => {
        const next = get().jobs.map((j) => jobTimedOut(j, now));
        if (next.some((j, i) => j !== get().jobs[i])) commit(next);
      },
    };
  });
  return store;
}

export const underWay = (s: Pick<JobsState, 'jobs'>) => s.jobs.filter((j) => !jobEnded(j.state)).length;

/**
 * Runs one item's request as a job: the job starts before the request (its
 * event may come back before the answer does) and fails with the request's
 * error. Returns the job's id.
 */
export async function runAsJob<T>(jobs: JobsStore, kind: JobKind, subject: JobSubject, run: () => Promise<T>): Promise<T> {
  const id = jobs.getState().start(kind, [subject]);
  try {
    return await run();
  } catch (err) {
    jobs.getState().fail(id, subject.id, describeError(err));
    throw err;
  }
}
