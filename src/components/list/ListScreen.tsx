import { useEffect, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import { listPath, listQuery, type ListSpec, type ScreenCtx, type ScreenDef, type ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { pluginCommands } from '../../app/plugins.js';
import { queryKey, type ListQuery } from '../../store/data.js';
import { flawOf } from '../../model/response.js';
import { DEFAULT_VIEW, type ListView, type Overlay } from '../../store/views.js';
import { Spinner } from '../Spinner.js';
import { Table } from '../Table.js';
import { clamp } from '../window.js';
import { ListOverlay } from './ListOverlay.js';
import { offeredActions, rowActions } from './row-actions.js';
import { ListStatus } from './ListStatus.js';
import { filterCapture, listHandlers } from './list-keys.js';
import { createDeriver, selectedIndex } from './list-view.js';
import { useListData } from './use-list-data.js';

type Row = Record<string, unknown>;

const EMPTY: readonly Row[] = [];
const defaultKey = (row: Row) => String(row.id);

function attempt<T>(run: () => T, fallback: () => T): T {
  try {
    return run();
  } catch {
    return fallback();
  }
}

/**
 * The generic resource list behind every declarative screen (ScreenDef.list):
 * paging, filter, sort, refresh, detail, JSON, actions, forms and confirms.
 */
export function ListScreen({ def, entry, width, height }: ScreenProps & { def: ScreenDef }) {
  const app = useApp();
  const { client, data, views, session, nav } = app;
  const spec = def.list as ListSpec<Row>;
  const ownKey = spec.rowKey ?? defaultKey;
  // A row the client could not read has only what it was sent: none of the spec's callbacks run on it.
  // A readable row may still hold null where a callback looks inside (the API presents unset fields so): that row's
  // key or name falls back, the app goes on.
  const rowKey = (row: Row) => flawOf(row)?.key ?? attempt(() => ownKey(row), () => JSON.stringify(row));
  const plainLabel = (row: Row) => (typeof row.label === 'string' && row.label ? row.label : rowKey(row));
  const label = (row: Row) => (flawOf(row) ? 'the unreadable item' : attempt(() => spec.label?.(row) ?? plainLabel(row), () => plainLabel(row)));
  const params = entry.params;
  const path = listPath(spec as ListSpec<unknown>, params);
  const query = useMemo<ListQuery>(() => listQuery(spec, params), [spec, path, params]);
  const qkey = queryKey(query);
  const list = useListData(query);
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  useStore(session, (s) => s.scopes);
  useStore(session, (s) => s.grants);
  const [derive] = useState(() => createDeriver(spec.columns, rowKey));
  const ctx = useMemo<ScreenCtx>(
    () => ({
      client,
      params,
      invalidate: (...prefixes) => data.getState().invalidate(...prefixes),
      notify: (text, kind) => session.getState().notify(text, kind),
      push: (screen, p, l) => nav.getState().push(screen, p, l),
    }),
    [client, params, data, session, nav],
  );

  /** Everything a key handler needs, from the stores as they are now. */
  const current = () => {
    const v = views.getState().get(entry.key);
    const d = derive((data.getState().lists[qkey]?.rows as Row[] | undefined) ?? EMPTY, v.sortCol, v.sortDesc, v.filter);
    const i = selectedIndex(d, rowKey, v.selectedKey, v.selectedIndex);
    return { v, d, i, row: d.rows[i] };
  };
  const update = (patch: Partial<ListView>) => views.getState().update(entry.key, patch);
  const select = (to: (i: number, n: number) => number) => {
    const { d, i } = current();
    if (d.rows.length === 0) return;
    const n = clamp(to(i, d.rows.length), 0, d.rows.length - 1);
    update({ selectedIndex: n, selectedKey: rowKey(d.rows[n]!) });
  };
  const withRow = (make: (row: Row) => Overlay, refuse?: (row: Row) => string | undefined) => () => {
    const { row } = current();
    if (!row) return;
    const flaw = flawOf(row);
    const why = flaw ? `The server sent this item in a form the app cannot read (${flaw.reason}); d or y shows what it sent` : refuse?.(row);
    if (why) session.getState().notify(why, 'error');
    else update({ overlay: make(row) });
  };
  /** d and y work on every row: for one the client could not read, they show what the server sent. */
  const showRecord = (kind: 'detail' | 'json') => {
    const { row } = current();
    if (row) update({ overlay: { kind, key: rowKey(row) } });
  };
  const notify = session.getState().notify;
  const refetch = (extra: string[]) => data.getState().invalidate(path, ...extra);
  const { close, chooseAction, confirmed, submitForm } = rowActions({ spec, ctx, rowKey, label, update, refetch, notify });

  /** Why the user cannot do this (to this row): a scope its token lacks, or a grant it does not hold. */
  const why = (scope: string | undefined, row?: Row): string | undefined => {
    const s = session.getState();
    const needed = scope ?? spec.writeScope;
    const missing = s.missingScope(needed);
    const grant = spec.grant;
    if (missing || !grant || !needed?.includes(':read_write') || (row && flawOf(row))) return missing ?? undefined;
    if (row === undefined && grant.add) return s.missingAddGrant(grant.add) ?? undefined;
    const id = grant.id ? grant.id(row, params) : (row as { id?: number } | undefined)?.id;
    return id === undefined ? undefined : (s.missingGrant(grant.kind, id) ?? undefined);
  };
  /** A change the user cannot make is refused at the key, before any form or question: the reason instead. */
  const refusal = (verb: string, scope: string | undefined, refuse?: (row: Row, user?: string) => string | undefined) => (row: Row) => {
    const missing = why(scope, row);
    return missing ? `Cannot ${verb} ${label(row)}: ${missing}` : refuse?.(row, session.getState().user);
  };
  const offered = offeredActions(spec.actions, undefined, session.getState().readOnly);
  const tableRows = Math.max(1, height - 2);
  const handlers = listHandlers(
    view,
    () => current().v,
    select,
    update,
    tableRows,
    {
      open: () => {
        const { row } = current();
        if (!row) return;
        const target = flawOf(row) ? undefined : spec.drill?.(row, params);
        if (target) nav.getState().push(target.screen, target.params ?? {}, spec.crumb?.(row) ?? label(row));
        else update({ overlay: { kind: 'detail', key: rowKey(row) } });
      },
      create:
        spec.create &&
        (() => {
          const missing = why(spec.create?.scope);
          if (missing) notify(`Cannot create: ${missing}`, 'error');
          else update({ overlay: { kind: 'form', form: 'create' } });
        }),
      edit: spec.edit && withRow((row) => ({ kind: 'form', form: 'edit', key: rowKey(row) }), refusal('edit', spec.edit.scope, spec.edit.refuse)),
      delete: spec.delete && withRow((row) => ({ kind: 'confirm', action: 'delete', key: rowKey(row) }), refusal(spec.delete.verb?.toLowerCase() ?? 'delete', spec.delete.scope, spec.delete.refuse)),
      actions: offered.length > 0 && withRow((row) => ({ kind: 'menu', key: rowKey(row) })),
      detail: () => showRecord('detail'),
      json: () => showRecord('json'),
      sort: () => {
        const { v } = current();
        const next = v.sortCol === null ? 0 : v.sortCol + 1 < spec.columns.length ? v.sortCol + 1 : null;
        update({ sortCol: next, sortDesc: false });
      },
      reverse: () => {
        const { v } = current();
        update({ sortCol: v.sortCol ?? 0, sortDesc: v.sortCol === null ? true : !v.sortDesc });
      },
      refresh: () => void data.getState().refresh(query),
    },
    close,
  );
  useCommands(handlers, {
    priority: PRIORITY.screen,
    title: def.title,
    modal: view.overlay ? 'screen' : false,
    marks: {
      create: why(spec.create?.scope),
      edit: why(spec.edit?.scope, current().row),
      delete: why(spec.delete?.scope, current().row),
    },
    capture: filterCapture(() => views.getState().get(entry.key), update),
    // The config file's plugins for this view, on the selected row.
    extensions: view.overlay || view.filtering ? undefined : pluginCommands(app, def.id, () => flawOf(current().row) ? undefined : current().row),
  });

  const d = derive((list?.rows as Row[] | undefined) ?? EMPTY, view.sortCol, view.sortDesc, view.filter);
  const index = selectedIndex(d, rowKey, view.selectedKey, view.selectedIndex);
  const overlayKey = view.overlay && 'key' in view.overlay ? view.overlay.key : undefined;
  const overlayRow = overlayKey === undefined ? undefined : (list?.rows as Row[] | undefined)?.find((r) => rowKey(r) === overlayKey);
  const gone = overlayKey !== undefined && list?.status === 'ready' && !overlayRow;
  useEffect(() => {
    if (!gone) return;
    update({ overlay: null });
    notify('That item no longer exists', 'error');
  });

  let body;
  if (view.overlay && !gone) {
    body = (
      <ListOverlay
        title={def.title}
        spec={spec}
        overlay={view.overlay}
        row={overlayRow}
        label={label}
        ctx={ctx}
        missing={why}
        close={close}
        chooseAction={chooseAction}
        confirmed={confirmed}
        submitForm={submitForm}
        width={width}
        height={height - 1}
      />
    );
  } else if (!list || (list.status === 'loading' && list.rows.length === 0)) body = <Spinner label={`loading ${def.title}…`} />;
  else if (list.status === 'error') body = <Text color="red" wrap="wrap">{`Could not load ${def.title}: ${list.error}. Press r to retry.`}</Text>;
  else if (d.rows.length === 0)
    body = <Text dimColor>{view.filter ? `Nothing matches "${view.filter}". Esc clears the filter.` : (spec.empty ?? `No ${def.title.toLowerCase()} yet.${spec.create ? ' Press c to create one.' : ''}`)}</Text>;
  else body = <Table columns={spec.columns} rows={d.rows} selected={index} height={height - 1} width={width} sortCol={view.sortCol} sortDesc={view.sortDesc} />;

  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <ListStatus list={list} view={view} shown={d.rows.length} columns={spec.columns as never} width={width} />
      {body}
    </Box>
  );
}
