import { gerund } from '../../app/bulk.js';
import type { ActionJob, ActionSpec, ScreenCtx } from '../../app/screen.js';
import type { FormSpec } from '../form/types.js';
import type { JobKind, JobSubject } from '../../model/jobs.js';
import type { Params } from '../../store/nav.js';
import { runAsJob } from '../../store/jobs.js';

export const jobKind = (job: Omit<JobKind, 'doing'> & { doing?: string }): JobKind => ({ event: job.event, name: job.name, doing: job.doing ?? gerund(job.name), then: job.then });

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

/** Sends a form; one that starts a long action becomes a job once the answer names its item. */
export async function submitWithJob<R>(ctx: ScreenCtx, form: FormSpec<R>, action: ActionSpec<R> | undefined, body: Record<string, unknown>, row: R | undefined): Promise<unknown> {
  // Events newer than the ones known before sending: the job's own may come before the answer.
  const after = ctx.jobs.getState().newestEvent;
  const sent = Date.now();
  const result = await withJob(ctx, action, row, () => form.submit(body, ctx, row));
  if (form.job) ctx.jobs.getState().start(jobKind({ ...form.job, then: form.job.then?.(result, body) }), [form.job.subject(result, body, row)], sent, after);
  return result;
}
