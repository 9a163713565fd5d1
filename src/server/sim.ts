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

/**
 * Lifecycle simulation: transitions are stored as jobs in SQLite, so a restart
 * resumes them. With speed instant every job is due at once and runs before the
 * next request is served, which makes tests deterministic.
 */
export class Simulation {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly store: Store,
    readonly speed: Speed,
  ) {}

  /** Milliseconds a transition takes at this speed. */
  delay(realisticSeconds: number): number {
    return this.speed === 'instant' ? 0 : realisticSeconds * 1000;
  }

  schedule(type: string, payload: Record<string, unknown>, realisticSeconds: number, now = Date.now()): void {
    const id = this.store.nextId('job');
    const job: Job = { id, due: now + this.delay(realisticSeconds), type, payload };
    this.store.insert('job', id, job as unknown as Record<string, unknown>, { ord: job.due * 1000 + (id % 1000) });
  }

  /** Runs every job that is due, each in its own transaction, including jobs those jobs schedule. */
  runDue(now = Date.now()): number {
    let ran = 0;
    // Jobs sort by due time (ord = due * 1000 + …): most requests find nothing due without parsing a row.
    if (!this.store.anyUpTo('job', Math.max(now, Date.now()) * 1000 + 999)) return 0;
    for (let round = 0; round < 50; round++) {
      // At instant speed a job scheduled by a job is due "now" a few ms later; it must still run in this pass.
      const cutoff = this.speed === 'instant' ? Math.max(now, Date.now()) : now;
      const due = this.store.all<Job & Record<string, unknown>>('job').filter((j) => j.due <= cutoff);
      if (due.length === 0) break;
      for (const job of due) {
        this.store.tx(() => {
          if (!this.store.delete('job', job.id)) return;
          handlers.get(job.type)?.(this.store, job.payload, this);
        });
        ran++;
      }
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
