import type { FieldOverride, FormSpec } from '../components/form/types.js';
import { jobSubject } from '../components/list/action-jobs.js';
import type { ActionSpec } from './screen.js';

/**
 * The actions of one kind of row, offered on rows that stand for one of them
 * (each line of an instance's overview stands for the instance): every
 * function that takes a row is given the row it stands for.
 */
export function actionsVia<A, B>(actions: readonly ActionSpec<A>[], of: (row: B) => A): ActionSpec<B>[] {
  return actions.map(({ confirm, when, refuse, adds, run, invalidates, form, job, ...rest }) => ({
    ...rest,
    confirm: typeof confirm === 'function' ? (row: B) => confirm(of(row)) : confirm,
    when: when && ((row: B) => when(of(row))),
    refuse: refuse && ((row: B) => refuse(of(row))),
    adds: adds && ((row: B) => adds(of(row))),
    run: run && ((row: B, ctx) => run(of(row), ctx)),
    invalidates: invalidates && ((row: B, params) => invalidates(of(row), params)),
    form: form && formVia(form, of),
    job: job && { ...job, subject: (row: B, params) => jobSubject(job, of(row), params) },
  }));
}

function formVia<A, B>(form: FormSpec<A>, of: (row: B) => A): FormSpec<B> {
  const { refuse, initial, confirm, adds, submit, done, invalidates, overrides, job, ...rest } = form;
  const maybe = (row: B | undefined) => (row === undefined ? undefined : of(row));
  return {
    ...rest,
    refuse: refuse && ((row, user) => refuse(of(row), user)),
    initial: initial && ((row, params) => initial(maybe(row), params)),
    confirm: confirm && ((body, row) => confirm(body, maybe(row))),
    adds: adds && ((body, row) => adds(body, maybe(row))),
    submit: (body, ctx, row) => submit(body, ctx, maybe(row)),
    done: done && ((result, row) => done(result, maybe(row))),
    job: job && { ...job, subject: (result, body, row) => job.subject(result, body, maybe(row)) },
    invalidates: invalidates && ((row, params) => invalidates(maybe(row), params)),
    overrides: overrides && Object.fromEntries(Object.entries(overrides).map(([field, o]) => [field, overrideVia(o, of)])),
  };
}

/** Choice loaders see the row the form is about: the one it stands for. */
function overrideVia<A, B>(o: FieldOverride, of: (row: B) => A): FieldOverride {
  const { choices } = o;
  if (typeof choices !== 'function') return o;
  return { ...o, choices: (client, scope) => choices(client, { ...scope, row: scope.row === undefined ? undefined : of(scope.row as B) }) };
}
