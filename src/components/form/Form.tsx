import { useEffect, useMemo, useRef } from 'react';
import { Box, Text } from 'ink';
import type { Mode } from '../../model/schema.js';
import { ApiError, describeError } from '../../api/errors.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { KeyEvent } from '../../app/keys.js';
import { useCommands } from '../../app/use-commands.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { Menu } from '../Menu.js';
import { editText } from '../text-edit.js';
import { clamp, windowStart } from '../window.js';
import { FormRow } from './FormRow.js';
import { buildFields, checkForm, fieldError, initialValues, mapErrors, type Values } from './form-state.js';
import type { Choice, FormSpec } from './types.js';

interface Props {
  title: string;
  spec: FormSpec;
  mode: Mode;
  /** The record being edited, or starting values. */
  record?: Record<string, unknown>;
  /** Sends the body; throws (ApiError) to keep the form open with the service's errors. */
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
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
}

const TEXT_KINDS = new Set(['text', 'number', 'list', 'json']);

/** A create or update form over a model schema; see FormSpec. */
export function Form({ title, spec, mode, record, onSubmit, onCancel, width, height }: Props) {
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
  }));

  useEffect(() => {
    for (const f of fields) {
      if (!f.loadChoices) continue;
      store.setState((s) => ({ choices: { ...s.choices, [f.name]: 'loading' } }));
      f.loadChoices(client).then(
        (list) => store.setState((s) => ({ choices: { ...s.choices, [f.name]: list } })),
        (err: unknown) => store.setState((s) => ({ choices: { ...s.choices, [f.name]: { error: describeError(err) } } })),
      );
    }
  }, [fields, client, store]);

  const focused = () => visible[store.getState().focus];
  const setValue = (name: string, raw: string | boolean, cursor?: number) =>
    store.setState((s) => {
      const { [name]: _gone, ...serverErrors } = s.serverErrors;
      return { values: { ...s.values, [name]: raw }, cursor: cursor ?? s.cursor, serverErrors };
    });
  const moveFocus = (by: number) =>
    store.setState((s) => {
      const focus = clamp(s.focus + by, 0, visible.length);
      return { focus, cursor: String(s.values[visible[focus]?.name ?? ''] ?? '').length };
    });
  const listOf = (name: string) => {
    const c = store.getState().choices[name];
    return Array.isArray(c) ? c : [];
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

  const submit = async () => {
    const s = store.getState();
    if (s.submitting) return;
    const { body, errors } = checkForm(spec.schema, fields, s.values, initial, mode, record);
    const firstBad = visible.findIndex((f) => errors.fields[f.name]);
    if (firstBad >= 0 || errors.form.length) {
      store.setState({ submitted: true, serverErrors: errors.fields, formErrors: errors.form, focus: firstBad >= 0 ? firstBad : s.focus });
      return;
    }
    if (mode === 'update' && visible.every((f) => s.values[f.name] === initial[f.name])) {
      store.setState({ formErrors: ['Nothing changed'] });
      return;
    }
    store.setState({ submitting: true, submitted: true, formErrors: [] });
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
        if (f.kind === 'choice' && listOf(f.name).length) store.setState({ picker: f.name });
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
        const next = editText({ text: String(values[f.name] ?? ''), cursor }, ev);
        if (!next) return false;
        setValue(f.name, next.text, next.cursor);
        return true;
      },
    },
  );

  const start = useRef(0);
  if (state.picker) {
    const f = fields.find((x) => x.name === state.picker)!;
    const list = listOf(f.name);
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
        priority={PRIORITY.nested}
      />
    );
  }

  const labelWidth = Math.min(24, Math.max(8, ...visible.map((f) => f.title.length + 2)));
  const valueWidth = Math.max(12, Math.min(40, width - labelWidth - 20));
  const errorWidth = Math.max(8, width - labelWidth - valueWidth - 7);
  // Title, submit row, the focused field's help and the form's errors take four lines.
  const body = Math.max(1, height - 4);
  start.current = windowStart(start.current, Math.min(state.focus, visible.length - 1), body, visible.length);
  const current = visible[state.focus];
  const currentError = current && (state.serverErrors[current.name] ?? fieldError(current, state.values[current.name] ?? '', mode, state.submitted));
  const note = state.formErrors.length
    ? state.formErrors.join('; ')
    : current
      ? (currentError ?? current.help ?? (current.secret ? 'Ctrl-R shows or hides secret fields' : ''))
      : 'Enter or Ctrl-S submits';
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {title}
        <Text dimColor>{'   * required'}</Text>
      </Text>
      {visible.slice(start.current, start.current + body).map((f, i) => {
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
            choices={state.choices[f.name]}
            error={state.serverErrors[f.name] ?? fieldError(f, raw, mode, state.submitted)}
            labelWidth={labelWidth}
            valueWidth={valueWidth}
            errorWidth={errorWidth}
          />
        );
      })}
      <Text bold={!current} inverse={!current} wrap="truncate-end">
        {state.submitting ? '  [ Sending… ]' : `${current ? ' ' : '›'} [ Submit ]`}
      </Text>
      <Text color={state.formErrors.length || currentError ? 'red' : undefined} dimColor={!state.formErrors.length && !currentError} wrap="truncate-end">
        {note}
      </Text>
    </Box>
  );
}
