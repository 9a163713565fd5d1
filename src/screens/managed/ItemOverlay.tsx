import { describeError } from '../../api/errors.js';
import { useApp } from '../../app/context.js';
import type { ActionResult, ActionSpec, ListSpec, ScreenCtx } from '../../app/screen.js';
import { ListOverlay } from '../../components/list/ListOverlay.js';
import { actionById } from '../../components/list/row-actions.js';
import type { FormSpec } from '../../components/form/types.js';
import type { NavEntry } from '../../store/nav.js';
import type { Overlay } from '../../store/views.js';
import { EDIT, GOTO, ITEM_SPECS, SHOW_LIST, itemKey, itemName, jumpTo, type Item } from './item-specs.js';

interface Props {
  entry: NavEntry;
  /** The item the overlay is about; nothing is drawn without it. */
  item: Item | undefined;
  overlay: Overlay;
  ctx: ScreenCtx;
  width: number;
  height: number;
}

type Row = Record<string, unknown>;

/**
 * The menu, confirm, form or secret open over an item of the issue screen:
 * the item's own list spec drives it, so a service is disabled, a contact
 * edited or an instance's SSH access changed exactly as in their lists.
 */
export function ItemOverlay({ entry, item, overlay, ctx, width, height }: Props) {
  const { views, data, session, nav } = useApp();
  const update = (o: Overlay | null) => views.getState().update(entry.key, { overlay: o });
  const close = () => update(null);
  const notify = session.getState().notify;
  if (!item) return null;
  const spec = ITEM_SPECS[item.kind] as unknown as ListSpec<Row>;
  const path = spec.path as string;

  // No action of these items returns a secret: a result is a message.
  const finish = (result: ActionResult, fallback: string) => {
    close();
    notify((typeof result === 'object' && result ? result.message : result) || fallback, 'success');
  };
  const mutate = async (what: string, run: () => Promise<ActionResult>, paths: string[]) => {
    close();
    notify(`${what}…`);
    try {
      const result = await run();
      data.getState().invalidate(path, ...paths);
      finish(result, `${what}: done`);
    } catch (err) {
      notify(`${what} failed: ${describeError(err)}`, 'error');
    }
  };
  const name = itemName(item);
  const key = itemKey(item);

  const chooseAction = (a: ActionSpec<Row>, row: Row) => {
    if (a.id === EDIT) return update({ kind: 'form', form: 'edit', key });
    if (a.id === GOTO || a.id === SHOW_LIST) {
      close();
      return jumpTo(item, { nav, views }, a.id);
    }
    if (a.form) update({ kind: 'form', form: `action:${a.id}`, key });
    else if (a.confirm || a.typeToConfirm || a.destructive) update({ kind: 'confirm', action: `action:${a.id}`, key });
    else void mutate(`${a.label} ${name}`, () => a.run!(row, ctx), a.invalidates?.(row, entry.params) ?? []);
  };
  const confirmed = (action: string, row: Row) => {
    const a = actionById(spec, action);
    if (a?.run) void mutate(`${a.label} ${name}`, () => a.run!(row, ctx), a.invalidates?.(row, entry.params) ?? []);
  };
  const submitForm = async (form: FormSpec<Row>, body: Record<string, unknown>, row: Row | undefined) => {
    const result = await form.submit(body, ctx, row);
    data.getState().invalidate(path, ...(form.invalidates?.(row, entry.params) ?? []));
    finish(form.done?.(result, row), `Saved ${name}`);
  };

  return (
    <ListOverlay
      title={name}
      spec={spec}
      overlay={overlay}
      row={item.row as unknown as Row}
      label={() => name}
      ctx={ctx}
      missing={(s) => session.getState().missingScope(s)}
      close={close}
      chooseAction={chooseAction}
      confirmed={confirmed}
      submitForm={submitForm}
      width={width}
      height={height}
    />
  );
}
