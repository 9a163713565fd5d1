import type { ListSpec, ScreenCtx } from '../../app/screen.js';
import type { JobKind, JobSubject } from '../../model/jobs.js';
import { jobKind, jobSubject } from './action-jobs.js';
import { flawOf } from '../../model/response.js';
import type { FormSpec } from '../form/types.js';
import type { Addition } from '../../model/costs.js';
import { actionScope, offeredActions } from './row-actions.js';

/** Delete or one of a list's actions, as it applies to many rows at once. */
export interface BulkOp<R> {
  /** 'delete' or 'action:<id>', as the single-row overlays name them. */
  id: string;
  label: string;
  /** Its letter in the actions menu. */
  key?: string;
  destructive: boolean;
  /** Cannot be undone: the user types the number of items to confirm. */
  irreversible: boolean;
  form?: FormSpec<R>;
  /** Why this row is left out (not sent), or undefined when the op applies to it. */
  skip(row: R): string | undefined;
  run(row: R, body?: Record<string, unknown>): Promise<unknown>;
  /** What it adds to the bill for one row. */
  adds?: (row: R) => Addition | undefined;
  invalidates(row: R): string[];
  /** A long action: the run is one job over its items. */
  job?: { kind: JobKind; subject(row: R): JobSubject };
}

export interface BulkOpsOptions<R> {
  readOnly: boolean;
  /** Why the user may not do this to the row: a scope the token lacks, a grant the user does not hold. */
  missing: (scope: string | undefined, row: R) => string | undefined;
  user?: string;
}

const UNREADABLE = 'the server sent it in a form the app cannot read';

/** The operations of a list that take marks: its delete (unless it says otherwise) and the actions declared `bulk`. */
export function bulkOps<R>(spec: ListSpec<R>, ctx: ScreenCtx, { readOnly, missing, user }: BulkOpsOptions<R>): BulkOp<R>[] {
  const ops: BulkOp<R>[] = [];
  const del = spec.delete;
  if (del && del.bulk !== false && !readOnly) {
    ops.push({
      id: 'delete',
      label: del.verb ?? 'Delete',
      destructive: true,
      irreversible: true,
      skip: (row) => (flawOf(row) ? UNREADABLE : (missing(del.scope, row) ?? del.refuse?.(row, user) ?? del.bulkRefuse?.(row))),
      run: (row) => del.submit(row, ctx),
      invalidates: (row) => del.invalidates?.(row, ctx.params) ?? [],
    });
  }
  for (const a of offeredActions(spec.actions, undefined, readOnly)) {
    if (!a.bulk) continue;
    const form = a.form;
    ops.push({
      id: `action:${a.id}`,
      // The ellipsis escaped: the bundle stays ASCII (src/boot/code-cache.ts).
      label: a.label.replace(/\u2026$/, ''),
      key: a.key,
      destructive: Boolean(a.destructive || a.typeToConfirm),
      irreversible: Boolean(a.typeToConfirm),
      form,
      skip: (row) => {
        if (flawOf(row)) return UNREADABLE;
        if (a.when && !a.when(row)) return `${a.label.replace(/\u2026$/, '').toLowerCase()} does not apply to it now`;
        return a.refuse?.(row) ?? missing(actionScope(a, spec.writeScope), row);
      },
      run: (row, body) => (form ? form.submit(body ?? {}, ctx, row) : a.run!(row, ctx)),
      adds: a.adds,
      invalidates: (row) => [...(a.invalidates?.(row, ctx.params) ?? []), ...(form?.invalidates?.(row, ctx.params) ?? [])],
      job: a.job && { kind: jobKind(a.job), subject: (row) => jobSubject(a.job!, row, ctx.params) },
    });
  }
  return ops;
}

export interface BulkPlan<R> {
  go: R[];
  skipped: { row: R; reason: string }[];
}

/** Which marked rows the op is sent for, and which it leaves out and why. */
export function planBulk<R>(op: BulkOp<R>, rows: readonly R[]): BulkPlan<R> {
  const plan: BulkPlan<R> = { go: [], skipped: [] };
  for (const row of rows) {
    let reason: string | undefined;
    try {
      reason = op.skip(row);
    } catch {
      // A row holding null where a check looks inside: not something to send blindly.
      reason = 'its record lacks what this needs';
    }
    if (reason) plan.skipped.push({ row, reason });
    else plan.go.push(row);
  }
  return plan;
}

/** The confirm's text: what is sent to which items, and what is left out. */
export function confirmText<R>(op: BulkOp<R>, plan: BulkPlan<R>, label: (row: R) => string): string {
  const what = plan.go.length === 1 ? 'this item' : `these ${plan.go.length} items`;
  const lines = [`For ${what}${op.form ? ', with what the form says' : ''}:`, ...plan.go.map((r) => `• ${label(r)}`)];
  if (plan.skipped.length) lines.push(`Skipped, not sent (${plan.skipped.length}):`, ...plan.skipped.map((s) => `• ${label(s.row)}: ${s.reason}`));
  return lines.join('\n');
}
