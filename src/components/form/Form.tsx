import { useEffect, useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from '../Text.js';
import type { Mode } from '../../model/schema.js';
import { ApiError, describeError } from '../../api/errors.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { KeyEvent } from '../../app/keys.js';
import { useCommands } from '../../app/use-commands.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { Menu } from '../Menu.js';
import { editText, editTextArea } from '../text-edit.js';
import { clamp, sizedWindowStart } from '../window.js';
import { FormRow } from './FormRow.js';
import { buildFields, changeLines, checkForm, crossFieldErrors, fieldError, initialValues, listItems, mapErrors, type Values } from './form-state.js';
import { fit, wrapWords } from '../cells.js';
import type { Choice, ChoiceScope, FormSpec } from './types.js';
import type { Addition } from '../../model/costs.js';
import { useAddedCost } from '../use-added-cost.js';

interface Props {
  title: string;
  spec: FormSpec;
  mode: Mode;
  /** The record being edited, or starting values. */
  record?: Record<string, unknown>;
  /** Sends the body; throws (ApiError) to keep the form open with the service's errors. */
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
  /** What choice loaders and `confirm` may depend on: the nav params and the row the form is about. */
  scope?: ChoiceScope;
  width: number;
  height: number;
}

interface State {
  values: Values;
  cursor: number;
  /** Index into the visible fields; its length is the submit row. */
  focus: number;
  submitted: boolean;
  serverErrors: Record<string, string>;
  formErrors: string[];
  reveal: boolean;
  submitting: boolean;
  choices: Record<string, Choice[] | 'loading' | { error: string }>;
  picker: string | null;
  confirmDiscard: boolean;
  /** The spec's confirm question and the body waiting for the answer. */
  confirmSend: { question: string; body: Record<string, unknown>; adds?: Addition } | null;
}

const TEXT_KINDS = new Set(['text', 'number', 'list', 'multi', 'json']);
const NO_SCOPE: ChoiceScope = { params: {} };

/** Choices with their labels as the form's values make them, a refused one marked. */
function labelled(list: Choice[], values: Readonly<Record<string, unknown>>): Choice[] {
  return list.map((c) => {
    const label = c.labelIn?.(values) ?? c.label ?? c.value;
    return c.refuse ? { ...c, label: `${label} · ✗ ${c.refuse}` } : c.labelIn ? { ...c, label } : c;
  });
}

/** A create or update form over a model schema; see FormSpec. */
export function Form({ title, spec, mode, record, onSubmit, onCancel, scope, width, height }: Props) {
  const { client } = useApp();
  const fields = useMemo(() => buildFields(spec, mode), [spec, mode]);
  const visible = useMemo(() => fields.filter((f) => !f.hidden), [fields]);
  const initial = useMemo(() => initialValues(fields, record), [fields, record]);
  const [state, store] = useLocalStore<State>(() => ({
    values: initial,
    cursor: String(initial[visible[0]?.name ?? ''] ?? '').length,
    focus: 0,
    submitted: false,
    serverErrors: {},
    formErrors: [],
    reveal: false,
    submitting: false,
    choices: Object.fromEntries(fields.filter((f) => f.choices).map((f) => [f.name, f.choices!])),
    picker: null,
    confirmDiscard: false,
    confirmSend: null,
  }));
  // Loaders run once per form; the scope object is new each render.
  const scopeRef = useRef(scope ?? NO_SCOPE);
  scopeRef.current = scope ?? NO_SCOPE;

  useEffect(() => {
    for (const f of fields) {
      if (!f.loadChoices) continue;
      store.setState((s) => ({ choices: { ...s.choices, [f.name]: 'loading' } }));
      f.loadChoices(client, scopeRef.current).then(
        (list) => store.setState((s) => ({ choices: { ...s.choices, [f.name]: list } })),
        (err: unknown) => store.setState((s) => ({ choices: { ...s.choices, [f.name]: { error: describeError(err) } } })),
      );
    }
  }, [fields, client, store]);

  const focused = () => visible[store.getState().focus];
  const setValue = (name: string, raw: string | boolean, cursor?: number) =>
    store.setState((s) => {
      const { [name]: _gone, ...serverErrors } = s.serverErrors;
      return { values: { ...s.values, [name]: raw }, cursor: cursor ?? s.cursor, serverErrors, formErrors: [] };
    });
  const moveFocus = (by: number) =>
    store.setState((s) => {
      const focus = clamp(s.focus + by, 0, visible.length);
      // Moving on clears the form's message: it was about the last attempt.
      return { focus, cursor: String(s.values[visible[focus]?.name ?? ''] ?? '').length, formErrors: [] };
    });
  const listOf = (name: string) => {
    const { choices, values } = store.getState();
    const c = choices[name];
    return Array.isArray(c) ? labelled(c, values) : [];
  };
  const cycle = (by: number) => {
    const f = focused();
    if (!f) return;
    if (f.kind === 'bool') return setValue(f.name, !store.getState().values[f.name]);
    const list = listOf(f.name);
    if (f.kind !== 'choice' || list.length === 0) return;
    const at = list.findIndex((c) => c.value === store.getState().values[f.name]);
    const next = at < 0 ? (by > 0 ? 0 : list.length - 1) : (at + by + list.length) % list.length;
    setValue(f.name, list[next]!.value);
  };

  /** Several picked: the chosen values as the field holds them, comma-separated. */
  const toggle = (name: string, value: string) => {
    const picked = listItems(String(store.getState().values[name] ?? ''));
    const next = picked.includes(value) ? picked.filter((v) => v !== value) : [...picked, value];
    const text = next.join(', ');
    setValue(name, text, text.length);
  };

  const send = async (body: Record<string, unknown>) => {
    store.setState({ submitting: true, submitted: true, formErrors: [], confirmSend: null });
    try {
      await onSubmit(body);
    } catch (err) {
      const mapped = err instanceof ApiError && err.errors.length ? mapErrors(err.errors, fields) : { fields: {}, form: [describeError(err)] };
      const firstServer = visible.findIndex((f) => mapped.fields[f.name]);
      store.setState((st) => ({ serverErrors: mapped.fields, formErrors: mapped.form, focus: firstServer >= 0 ? firstServer : st.focus }));
    } finally {
      store.setState({ submitting: false });
    }
  };

  const submit = async () => {
    const s = store.getState();
    if (s.submitting) return;
    const { body, errors } = checkForm(spec.schema, fields, s.values, initial, mode, record);
    for (const f of visible) {
      const refused = f.kind === 'choice' ? listOf(f.name).find((c) => c.value === s.values[f.name])?.refuse : undefined;
      if (refused && !errors.fields[f.name]) errors.fields[f.name] = refused;
    }
    const firstBad = visible.findIndex((f) => errors.fields[f.name]);
    if (firstBad >= 0 || errors.form.length) {
      store.setState({ submitted: true, serverErrors: errors.fields, formErrors: errors.form, focus: firstBad >= 0 ? firstBad : s.focus });
      return;
    }
    // An edit sends nothing when nothing changed (what it changes is shown under the form all along).
    if (mode === 'update' && changeLines(visible, s.values, initial, listOf).length === 0) {
      store.setState({ formErrors: ['Nothing changed: nothing was sent'] });
      return;
    }
    const adds = spec.adds?.(body, scopeRef.current.row);
    // What adds to the bill is asked first, the amount under the question.
    const question = spec.confirm?.(body, scopeRef.current.row) ?? (adds ? `${title}?` : undefined);
    if (question) store.setState({ submitted: true, formErrors: [], confirmSend: { question, body, adds } });
    else await send(body);
  };

  const cancel = () => {
    const { values } = store.getState();
    if (fields.some((f) => values[f.name] !== initial[f.name])) store.setState({ confirmDiscard: true });
    else onCancel();
  };

  useCommands(
    {
      nextField: () => moveFocus(1),
      prevField: () => moveFocus(-1),
      choicePrev: () => cycle(-1),
      choiceNext: () => cycle(1),
      pick: () => {
        const f = focused();
        if (!f) return void submit();
        // While the choices load the picker opens anyway and fills in: Enter never skips the field.
        const choices = store.getState().choices[f.name];
        if ((f.kind === 'choice' || f.kind === 'multi') && (choices === 'loading' || listOf(f.name).length)) store.setState({ picker: f.name });
        else if (f.kind === 'bool') cycle(1);
        else moveFocus(1);
      },
      submit: () => void submit(),
      reveal: fields.some((f) => f.secret) && (() => store.setState((s) => ({ reveal: !s.reveal }))),
      cancel,
    },
    {
      priority: PRIORITY.dialog,
      title,
      modal: 'full',
      capture: (ev: KeyEvent) => {
        const f = focused();
        if (!f || !TEXT_KINDS.has(f.kind)) return false;
        const { values, cursor } = store.getState();
        const edit = f.lines > 1 ? editTextArea : editText;
        const next = edit({ text: String(values[f.name] ?? ''), cursor }, ev);
        if (!next) return false;
        setValue(f.name, next.text, next.cursor);
        return true;
      },
    },
  );

  const start = useRef(0);
  const adds = state.confirmSend?.adds;
  const cost = useAddedCost(adds && [adds]);
  if (state.picker) {
    const f = fields.find((x) => x.name === state.picker)!;
    const list = listOf(f.name);
    const empty = state.choices[f.name] === 'loading' ? 'loading choices…' : undefined;
    if (f.kind === 'multi') {
      const picked = listItems(String(state.values[f.name] ?? ''));
      return (
        <Menu
          title={`${f.title}: Enter toggles, Esc done`}
          items={list.map((c) => ({ id: c.value, label: `${picked.includes(c.value) ? '[x]' : '[ ]'} ${c.label ?? c.value}` }))}
          onSelect={(item) => toggle(f.name, item.id)}
          empty={empty}
          onClose={() => store.setState({ picker: null })}
          width={Math.min(width, 70)}
          height={height}
          priority={PRIORITY.nested}
        />
      );
    }
    return (
      <Menu
        title={`${f.title}: choose`}
        items={list.map((c) => ({ id: c.value, label: c.label ?? c.value }))}
        initial={Math.max(0, list.findIndex((c) => c.value === state.values[f.name]))}
        onSelect={(item) => {
          setValue(f.name, item.id);
          store.setState({ picker: null });
        }}
        onClose={() => store.setState({ picker: null })}
        width={Math.min(width, 70)}
        height={height}
        priority={PRIORITY.nested}
        empty={empty}
      />
    );
  }
  if (state.confirmSend) {
    const { body } = state.confirmSend;
    return (
      <ConfirmDialog
        title={title}
        message={cost ? `${state.confirmSend.question}\n${cost}` : state.confirmSend.question}
        confirmLabel="Proceed"
        destructive
        height={height}
        onConfirm={() => void send(body)}
        onCancel={() => store.setState({ confirmSend: null })}
        width={Math.min(width, 72)}
        priority={PRIORITY.nested}
      />
    );
  }
  if (state.confirmDiscard) {
    return (
      <ConfirmDialog
        title="Discard changes?"
        message={`You have edits in "${title}". Discard them?`}
        confirmLabel="Discard"
        onConfirm={onCancel}
        onCancel={() => store.setState({ confirmDiscard: false })}
        width={Math.min(width, 60)}
        height={height}
        priority={PRIORITY.nested}
      />
    );
  }

  const labelWidth = Math.min(24, Math.max(8, ...visible.map((f) => f.title.length + 2)));
  const valueWidth = Math.max(12, Math.min(40, width - labelWidth - 20));
  const errorWidth = Math.max(8, width - labelWidth - valueWidth - 7);
  const current = visible[state.focus];
  const cross = crossFieldErrors(spec.schema, fields, state.values, initial, mode, record);
  const errorOf = (f: (typeof visible)[number]) => state.serverErrors[f.name] ?? fieldError(f, state.values[f.name] ?? '', mode, state.submitted) ?? cross[f.name];
  const currentError = current && errorOf(current);
  const note = state.formErrors.length
    ? state.formErrors.join('; ')
    : current
      ? (currentError ??
        [current.lines > 1 ? 'Enter adds a line, Tab moves on, Ctrl-S submits' : '', current.help ?? (current.secret ? 'Ctrl-R shows or hides secret fields' : '')]
          .filter(Boolean)
          .join(' · '))
      : 'Enter or Ctrl-S submits';
  // An error is read whole: the note wraps, up to a third of the form, and the fields give way.
  const noteLines = wrapWords(note, width).slice(0, Math.max(1, Math.floor(height / 3)));
  // An edit says what it will send before it is sent: field, old → new, under the form as the user types.
  const changes = mode === 'update' ? changeLines(visible, state.values, initial, listOf) : [];
  const changeText = changes.length ? wrapWords(`Will change: ${changes.join(' · ')}`, width) : [];
  const changeShown = changeText.length > 2 ? [changeText[0]!, fit(`${changeText[1]}`, width - 12).trimEnd() + ` (${changes.length} fields)`] : changeText;
  // Title, submit row, the changes and the note take the rest.
  const body = Math.max(1, height - 2 - noteLines.length - changeShown.length);
  // Multi-line fields take several lines: the window is over lines, not fields.
  const heights = visible.map((f) => Math.min(f.lines, body));
  start.current = sizedWindowStart(start.current, Math.min(state.focus, visible.length - 1), heights, body);
  // The last field shown may be cut short (a text area's first lines), so nothing below goes unseen.
  let room = body;
  const shown = visible.slice(start.current).flatMap((f, i) => {
    const lines = Math.min(heights[start.current + i]!, room);
    room -= lines;
    return lines > 0 ? [{ f, lines }] : [];
  });
  // Fields out of view are named in the title line, so a form taller than the screen says that more follow.
  const above = start.current;
  const below = visible.slice(start.current + shown.length);
  const more = [above > 0 ? `↑ ${above} above` : '', below.length ? `↓ ${below.length} more: ${below.map((f) => f.title).join(', ')}` : ''].filter(Boolean).join('  ');
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">
        {title}
        <Text dimColor>{'   * required'}</Text>
        {more && <Text color="yellow" bold={false}>{`   ${more}`}</Text>}
      </Text>
      {shown.map(({ f, lines }, i) => {
        const index = start.current + i;
        const raw = state.values[f.name] ?? '';
        return (
          <FormRow
            key={f.name}
            field={f}
            raw={raw}
            cursor={index === state.focus ? state.cursor : 0}
            focused={index === state.focus}
            reveal={state.reveal}
            choices={Array.isArray(state.choices[f.name]) ? labelled(state.choices[f.name] as Choice[], state.values) : state.choices[f.name]}
            error={errorOf(f)}
            labelWidth={labelWidth}
            valueWidth={valueWidth}
            errorWidth={errorWidth}
            height={lines}
          />
        );
      })}
      <Text bold={!current} inverse={!current} wrap="truncate-end">
        {state.submitting ? '  [ Sending… ]' : `${current ? ' ' : '›'} [ Submit ]`}
      </Text>
      {changeShown.map((line, i) => (
        <Text key={`c${i}`} color="yellow" wrap="truncate-end">
          {line}
        </Text>
      ))}
      {noteLines.map((line, i) => (
        <Text key={i} color={state.formErrors.length || currentError ? 'red' : undefined} dimColor={!state.formErrors.length && !currentError} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
