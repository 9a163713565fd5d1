import type { Mode } from '../../model/schema.js';
import { useApp } from '../../app/context.js';
import { listPath, type ActionSpec, type ListSpec, type ScreenCtx } from '../../app/screen.js';
import type { Overlay } from '../../store/views.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { Menu } from '../Menu.js';
import { SecretReveal } from '../SecretReveal.js';
import { Form } from '../form/Form.js';
import type { FormSpec } from '../form/types.js';
import { RecordView } from './RecordView.js';
import { CopyMenu } from '../CopyMenu.js';
import { itemPath } from '../../model/response.js';
import { actionById, actionScope, offeredActions } from './row-actions.js';
import { useAddedCost } from '../use-added-cost.js';

interface Props<R> {
  title: string;
  spec: ListSpec<R>;
  overlay: Overlay;
  /** The row the overlay is about (absent for create and secrets). */
  row: R | undefined;
  label: (row: R) => string;
  ctx: ScreenCtx;
  /** Why the user cannot do this to the row: a missing scope or grant. */
  missing: (scope: string | undefined, row: R) => string | null | undefined;
  close: () => void;
  /** Opens another overlay (the copy menu over a detail). */
  show?: (overlay: Overlay) => void;
  chooseAction: (action: ActionSpec<R>, row: R) => void;
  confirmed: (action: string, row: R) => void;
  submitForm: (form: FormSpec<R>, body: Record<string, unknown>, row: R | undefined) => Promise<void>;
  width: number;
  height: number;
}

const dialogWidth = (width: number) => Math.min(width, 72);

/** Which form an overlay names, its mode, starting record and title. */
function formFor<R>(spec: ListSpec<R>, name: string, row: R | undefined, ctx: ScreenCtx, title: string, label: string) {
  const action = actionById(spec, name);
  const form: FormSpec<R> | undefined = name === 'create' ? spec.create : name === 'edit' ? spec.edit : action?.form;
  if (!form) return undefined;
  const mode: Mode = form.mode ?? (name === 'edit' ? 'update' : 'create');
  const record = form.initial ? form.initial(row, ctx.params) : name === 'edit' ? (row as Record<string, unknown>) : undefined;
  const heading = form.title ?? (name === 'create' ? `New: ${title}` : name === 'edit' ? `Edit ${label}` : `${action!.label}: ${label}`);
  return { form, mode, record, heading };
}

/** What a list shows over itself: detail, JSON, actions menu, confirm, form or a secret. */
export function ListOverlay<R>(p: Props<R>) {
  const { overlay, row, spec, ctx, close, width, height } = p;
  const { session } = useApp();
  const label = row === undefined ? '' : p.label(row);
  const adds = overlay.kind === 'confirm' && row !== undefined ? actionById(spec, overlay.action)?.adds?.(row) : undefined;
  const cost = useAddedCost(adds && [adds]);
  switch (overlay.kind) {
    case 'secret':
      return <SecretReveal title={overlay.title} value={overlay.value} note={overlay.note} onDone={close} width={width} height={height} />;
    case 'form': {
      const f = formFor(spec, overlay.form, row, ctx, p.title, label);
      if (!f) return null;
      return (
        <Form
          title={f.heading}
          spec={f.form}
          mode={f.mode}
          record={f.record as Record<string, unknown> | undefined}
          onSubmit={(body) => p.submitForm(f.form, body, row)}
          onCancel={close}
          scope={{ params: ctx.params, row }}
          width={width}
          height={height}
        />
      );
    }
  }
  if (row === undefined) return null;
  switch (overlay.kind) {
    case 'copy': {
      const subject = spec.subject?.(row, ctx.params) ?? { record: row, path: itemPath(listPath(spec as ListSpec<unknown>, ctx.params), row), root: spec.root };
      const back = overlay.back;
      return (
        <CopyMenu
          title={label}
          subject={subject}
          instance={spec.instance?.(row)}
          onClose={back && p.show ? () => p.show!(back) : close}
          width={dialogWidth(width)}
          height={height}
        />
      );
    }
    case 'detail':
    case 'json':
      return (
        <RecordView
          kind={overlay.kind}
          title={spec.detail?.title?.(row) ?? label}
          row={row}
          detail={spec.detail}
          source={{ path: listPath(spec as ListSpec<unknown>, ctx.params), root: spec.root }}
          ctx={ctx}
          width={width}
          height={height}
          onClose={close}
          onCopy={p.show && (() => p.show!({ kind: 'copy', key: overlay.key, back: overlay }))}
        />
      );
    case 'menu': {
      const actions = offeredActions<R>(spec.actions, row, session.getState().readOnly);
      return (
        <Menu
          title={`Actions: ${label}`}
          items={actions.map((a) => ({ id: a.id, label: a.label, key: a.key, note: a.refuse?.(row) ?? p.missing(actionScope(a, spec.writeScope), row) ?? undefined }))}
          // A marked entry says what is missing instead of opening a form the service would refuse.
          onSelect={(item) => (item.note ? ctx.notify(`${item.label}: ${item.note}`, 'error') : p.chooseAction(actions.find((a) => a.id === item.id)!, row))}
          onClose={close}
          width={dialogWidth(width)}
          height={height}
        />
      );
    }
    case 'confirm': {
      const action = actionById(spec, overlay.action);
      const isDelete = overlay.action === 'delete';
      const verb = spec.delete?.verb ?? 'Delete';
      const text = isDelete ? (spec.delete?.confirm?.(row) ?? `${verb} "${label}"?`) : typeof action?.confirm === 'function' ? action.confirm(row) : (action?.confirm ?? `${action?.label} "${label}"?`);
      const typed = isDelete ? spec.delete?.typeToConfirm : action?.typeToConfirm;
      return (
        <ConfirmDialog
          title={isDelete ? `${verb} ${label}` : `${action?.label}: ${label}`}
          message={cost ? `${text}\n${cost}` : text}
          confirmLabel={isDelete ? verb : (action?.label ?? 'OK')}
          destructive={isDelete || action?.destructive || typed}
          typeToConfirm={typed ? label : undefined}
          onConfirm={() => p.confirmed(overlay.action, row)}
          onCancel={close}
          width={dialogWidth(width)}
          height={height}
        />
      );
    }
  }
}
