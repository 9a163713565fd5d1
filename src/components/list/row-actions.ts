import { ApiError, describeError } from '../../api/errors.js';
import type { ActionResult, ActionSpec, ListSpec, ScreenCtx } from '../../app/screen.js';
import type { MessageKind } from '../../store/session.js';
import type { ListView } from '../../store/views.js';
import type { FormSpec } from '../form/types.js';
import { submitWithJob, withJob } from './action-jobs.js';

export interface RowActionsOptions<R> {
  spec: ListSpec<R>;
  ctx: ScreenCtx;
  rowKey: (row: R) => string;
  label: (row: R) => string;
  /** Changes the list's view state (its overlay). */
  update: (patch: Partial<ListView>) => void;
  /** After a change: the list's own rows and these paths are fetched again. */
  refetch: (extra: string[]) => void;
  notify: (text: string, kind?: MessageKind) => void;
  /** Takes a deleted row out of the list on screen at once: the refetch that confirms it may be slow. */
  drop: (row: R) => void;
}

export function actionById<R>(spec: ListSpec<R>, id: string): ActionSpec<R> | undefined {
  return spec.actions?.find((a) => `action:${a.id}` === id);
}

/** The actions the menu offers on a row: those that apply to it, and under --read-only only those that change nothing. */
export const offeredActions = <R>(actions: readonly ActionSpec<R>[] | undefined, row: R | undefined, readOnly: boolean): ActionSpec<R>[] =>
  (actions ?? []).filter((a) => (row === undefined || !a.when || a.when(row)) && !(readOnly && a.changes !== false));

/** The scope an action needs: its own, else (for a change) the list's write scope. */
export const actionScope = <R>(a: ActionSpec<R>, writeScope: string | undefined): string | undefined => a.scope ?? (a.changes === false ? undefined : writeScope);

/**
 * What the overlays of a list do when the user picks an action, confirms, or
 * submits a form: run it, refetch what it changed, report or reveal the
 * result. Shared by the generic list and custom lists (the object browser).
 */
export function rowActions<R>({ spec, ctx, rowKey, label, update, refetch, notify, drop }: RowActionsOptions<R>) {
  const close = () => update({ overlay: null });
  const finish = (result: ActionResult, fallback: string) => {
    const r = typeof result === 'object' && result ? result : { message: result || fallback };
    update({ overlay: r.secret ? { kind: 'secret', ...r.secret } : null });
    notify(r.message ?? fallback, 'success');
  };
  const mutate = async (what: string, run: () => Promise<ActionResult>, paths: string[]) => {
    close();
    notify(`${what}…`);
    try {
      const result = await run();
      refetch(paths);
      finish(result, `${what}: done`);
    } catch (err) {
      notify(`${what} failed: ${describeError(err)}`, 'error');
    }
  };
  const chooseAction = (a: ActionSpec<R>, row: R) => {
    const key = rowKey(row);
    if (a.form) update({ overlay: { kind: 'form', form: `action:${a.id}`, key } });
    else if (a.confirm || a.typeToConfirm || a.destructive) update({ overlay: { kind: 'confirm', action: `action:${a.id}`, key } });
    else void mutate(`${a.label} ${label(row)}`, () => withJob(ctx, a, row, () => a.run!(row, ctx)), a.invalidates?.(row, ctx.params) ?? []);
  };
  const confirmed = (action: string, row: R) => {
    if (action === 'delete' && spec.delete) {
      const del = spec.delete;
      void mutate(
        `${del.verb ?? 'Delete'} ${label(row)}`,
        async () => {
          await del.submit(row, ctx);
          drop(row);
        },
        del.invalidates?.(row, ctx.params) ?? [],
      );
      return;
    }
    const a = actionById(spec, action);
    if (a?.run) void mutate(`${a.label} ${label(row)}`, () => withJob(ctx, a, row, () => a.run!(row, ctx)), a.invalidates?.(row, ctx.params) ?? []);
  };
  /** Throws the service's errors back to the form, which keeps them beside its fields. */
  const submitForm = async (form: FormSpec<R>, body: Record<string, unknown>, row: R | undefined) => {
    let result: unknown;
    try {
      result = await submitWithJob(ctx, form, spec.actions?.find((a) => a.form === form), body, row);
    } catch (err) {
      if (!(err instanceof ApiError) || err.kind !== 'shape') throw err;
      // The server took the write and answered in a form the app cannot read: the form closes (a second submit
      // would send it twice) and the list, fetched again, shows what was done.
      refetch(form.invalidates?.(row, ctx.params) ?? []);
      close();
      notify(describeError(err), 'error');
      return;
    }
    refetch(form.invalidates?.(row, ctx.params) ?? []);
    // What the list's create form made is selected once the refetched list shows it: the next key acts on it.
    if (!row && typeof result === 'object' && result !== null) update({ selectedKey: rowKey(result as R) });
    finish(form.done?.(result, row), row ? `Saved ${label(row)}` : 'Created');
  };
  return { close, chooseAction, confirmed, submitForm };
}
