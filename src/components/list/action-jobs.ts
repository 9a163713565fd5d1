import { gerund } from '../../app/bulk.js';
import type { ActionJob, ActionSpec, ScreenCtx } from '../../app/screen.js';
import type { JobKind, JobSubject } from '../../model/jobs.js';
import type { Params } from '../../store/nav.js';
import { runAsJob } from '../../store/jobs.js';

export const jobKind = <R>(job: ActionJob<R>): JobKind => ({ event: job.event, name: job.name, doing: job.doing ?? gerund(job.name) });

/** The item the action's event is about: the row itself, as an instance, unless the action says otherwise. */
export function jobSubject<R>(job: ActionJob<R>, row: R, params: Params): JobSubject {
  if (job.subject) return job.subject(row, params);
  const { id, label } = row as { id: number; label: string };
  return { type: 'vm', id, label };
}

/** Runs an action's request, as a job when the action is a long one. */
export function withJob<R, T>(ctx: ScreenCtx, action: ActionSpec<R> | undefined, row: R | undefined, run: () => Promise<T>): Promise<T> {
  const job = action?.job;
  if (!job || row === undefined) return run();
  return runAsJob(ctx.jobs, jobKind(job), jobSubject(job, row, ctx.params), run);
}
