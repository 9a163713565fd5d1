import { ApiError } from './errors.js';
import type { Store } from './store.js';

export type Speed = 'instant' | 'realistic';

export interface Job {
  id: number;
  due: number;
  type: string;
  payload: Record<string, unknown>;
}

export type JobHandler = (store: Store, payload: Record<string, unknown>, sim: Simulation) => void;

const handlers = new Map<string, JobHandler>();

/** Areas register what a delayed transition does (provisioning → running, …). */
export function onJob(type: string, handler: JobHandler): void {
  handlers.set(type, handler);
}

/** A guard against a job that schedules itself again at once; the API's lifecycles never come near it. */
const JOBS_PER_PASS = 100_000;

/**
 * Lifecycle simulation: transitions are stored as jobs in SQLite, so a restart
 * resumes them. Their times are the account's clock (store.clock), which a
 * test may move forward (`advance`). With speed instant every job is due at
 * once and runs before the next request is served, which makes tests
 * deterministic.
 */
export class Simulation {
  private timer: NodeJS.Timeout | undefined;
  /** While an advance runs, the time it goes to: a job that repeats forever (the demo's monitoring) skips what lies far before it. */
  horizon: number | undefined;

  constructor(
    readonly store: Store,
    readonly speed: Speed,
  ) {}

  /** Milliseconds a transition takes at this speed. */
  delay(realisticSeconds: number): number {
    return this.speed === 'instant' ? 0 : realisticSeconds * 1000;
  }

  schedule(type: string, payload: Record<string, unknown>, realisticSeconds: number, from = this.store.clock.now()): void {
    const id = this.store.nextId('job');
    const job: Job = { id, due: from + this.delay(realisticSeconds), type, payload };
    this.store.insert('job', id, job as unknown as Record<string, unknown>, { ord: job.due * 1000 + (id % 1000) });
  }

  /**
   * Runs every job that is due, oldest first, each in its own transaction,
   * including jobs those jobs schedule. Each runs at the clock's present time;
   * the clock is first brought in line with the data file (another service on
   * it may have moved it).
   */
  runDue(): number {
    const clock = this.store.clock;
    clock.sync();
    // Jobs sort by due time (ord = due * 1000 + …): most requests find nothing due without parsing a row.
    if (!this.store.anyUpTo('job', clock.now() * 1000 + 999)) return 0;
    return this.runUpTo(() => clock.now(), false);
  }

  /**
   * Moves the account's time forward by `ms`, running the jobs that fall due
   * on the way in due order, each at its own due time: the clock stands at a
   * job's due time while it runs, so what it records (events, `updated`)
   * carries that time, and what it schedules runs too if it falls due before
   * the end. The caller's transaction makes the whole advance one change.
   */
  advance(ms: number): void {
    const clock = this.store.clock;
    const undo = clock.checkpoint();
    try {
      this.runDue();
      const target = clock.now() + Math.round(ms);
      this.horizon = target;
      this.runUpTo(() => target, true);
      clock.moveTo(target);
    } catch (err) {
      // The caller's transaction is rolled back: so is the clock.
      undo();
      throw err;
    } finally {
      this.horizon = undefined;
    }
  }

  private runUpTo(until: () => number, atDueTime: boolean): number {
    let ran = 0;
    while (ran < JOBS_PER_PASS) {
      const job = this.store.firstUpTo<Job & Record<string, unknown>>('job', until() * 1000 + 999);
      if (!job) break;
      this.store.tx(() => {
        if (!this.store.delete('job', job.id)) return;
        if (atDueTime) this.store.clock.moveTo(job.due);
        handlers.get(job.type)?.(this.store, job.payload, this);
      });
      ran++;
    }
    return ran;
  }

  start(intervalMs = 250): void {
    this.timer = setInterval(() => {
      try {
        this.runDue();
      } catch (err) {
        // A locked or full data file: the due jobs stay stored and run on a later tick.
        if (!(err instanceof ApiError)) throw err;
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
