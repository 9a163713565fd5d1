import { describeError } from '../../api/errors.js';
import { gerund, runBulk, type BulkOutcome, type BulkRun } from '../../app/bulk.js';
import type { JobsStore } from '../../store/jobs.js';
import { plural } from '../../model/plural.js';
import type { MessageKind } from '../../store/session.js';
import type { ListView } from '../../store/views.js';
import { planBulk, type BulkOp, type BulkPlan } from './bulk-ops.js';

const PROGRESS_MS = 100;

export interface ListBulkOptions<R> {
  /** The view as it is now. */
  getView: () => ListView;
  update: (patch: Partial<ListView>) => void;
  /** The marked rows, in the order the list shows them. */
  marked: () => R[];
  rowKey: (row: R) => string;
  label: (row: R) => string;
  /** After the run: the list's own rows and these paths are fetched again. */
  refetch: (extra: string[]) => void;
  notify: (text: string, kind?: MessageKind) => void;
  /** Holds the run under way, for the stop key. */
  running: { current: BulkRun<R> | undefined };
  /** Where a long action's run becomes one job. */
  jobs?: JobsStore;
}

/**
 * Acting on a list's marked rows: the op chosen, its form filled once, the
 * confirm, then the run with its progress in the overlay. At the end the rows
 * it could not do stay marked with the reason, and the rest lose their mark.
 */
export function listBulk<R>({ getView, update, marked, rowKey, label, refetch, notify, running, jobs }: ListBulkOptions<R>) {
  const choose = (op: BulkOp<R>) => {
    const rows = marked();
    const plan = planBulk(op, rows);
    if (plan.go.length === 0) notify(`${op.label}: applies to none of the ${plural(rows.length, 'marked item')} (${plan.skipped[0]?.reason ?? 'none marked'})`, 'error');
    else update({ overlay: op.form ? { kind: 'bulk-form', action: op.id } : { kind: 'bulk-confirm', action: op.id } });
  };
  const filled = (op: BulkOp<R>, body: Record<string, unknown>) => update({ overlay: { kind: 'bulk-confirm', action: op.id, body } });
  const start = (op: BulkOp<R>, body?: Record<string, unknown>) => {
    // A second Enter may arrive before the confirm has gone: only the first starts a run.
    if (getView().overlay?.kind !== 'bulk-confirm' || running.current) return;
    const plan = planBulk(op, marked());
    update({ overlay: { kind: 'bulk-run', verb: gerund(op.label), total: plan.go.length, done: 0, failed: 0, stopping: false } });
    // The count is drawn at most every PROGRESS_MS: a frame per answer would take the CPU a local service needs to answer.
    let counts = { done: 0, failed: 0 };
    let timer: NodeJS.Timeout | undefined;
    const draw = () => {
      timer = undefined;
      const o = getView().overlay;
      if (o?.kind === 'bulk-run') update({ overlay: { ...o, ...counts } });
    };
    const job = op.job && jobs ? { ...op.job, store: jobs, id: jobs.getState().start(op.job.kind, plan.go.map(op.job.subject)) } : undefined;
    const failJob = (row: R, reason: string) => job?.store.getState().fail(job.id, job.subject(row).id, reason);
    const run = runBulk(
      plan.go,
      (row) =>
        op.run(row, body).catch((err: unknown) => {
          failJob(row, describeError(err));
          throw err;
        }),
      (done, failed) => {
        counts = { done, failed };
        timer ??= setTimeout(draw, PROGRESS_MS);
      },
    );
    running.current = run;
    void run.done.then((outcome) => {
      clearTimeout(timer);
      running.current = undefined;
      for (const row of outcome.notStarted) failJob(row, 'not started: stopped before its turn');
      update({ overlay: null, ...leftMarked(outcome, plan, rowKey) });
      refetch([...new Set(plan.go.flatMap((row) => op.invalidates(row)))]);
      const { text, kind } = summary(op.label, outcome, label);
      notify(text, kind);
    });
  };
  const stop = () => {
    const o = getView().overlay;
    if (!running.current || o?.kind !== 'bulk-run') return;
    running.current.stop();
    update({ overlay: { ...o, stopping: true } });
  };
  return { choose, filled, start, stop };
}

/** What stays marked after a run, each with why: the failures, the skipped and those never started. */
function leftMarked<R>(outcome: BulkOutcome<R>, plan: BulkPlan<R>, rowKey: (row: R) => string): Partial<ListView> {
  const failures = new Map<string, string>([
    ...outcome.failed.map(({ item, reason }) => [rowKey(item), reason] as const),
    ...plan.skipped.map(({ row, reason }) => [rowKey(row), `skipped: ${reason}`] as const),
    ...outcome.notStarted.map((row) => [rowKey(row), 'not started: stopped before its turn'] as const),
  ]);
  return { marks: new Set(failures.keys()), failures, anchor: undefined };
}

/** The message line after a run: how many succeeded, and where the rest are. */
function summary<R>(verb: string, outcome: BulkOutcome<R>, label: (row: R) => string): { text: string; kind: MessageKind } {
  const ok = outcome.succeeded.length;
  const { failed, notStarted } = outcome;
  const head = `${verb}${notStarted.length ? ' stopped' : ''}: ${ok} of ${ok + failed.length + notStarted.length} succeeded`;
  // The first failure in full: the column may be too narrow for its reason.
  const first = failed[0] && ` (${label(failed[0].item)}: ${failed[0].reason}${failed.length > 1 ? `; ${failed.length - 1} more` : ''})`;
  const rest = [failed.length && `${failed.length} failed${first}`, notStarted.length && `${notStarted.length} not started`].filter(Boolean);
  if (rest.length === 0) return { text: head, kind: 'success' };
  return { text: `${head}, ${rest.join(', ')}; still marked, the Not done column says why`, kind: 'error' };
}
