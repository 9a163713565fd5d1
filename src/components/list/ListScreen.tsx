import { useEffect, useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from '../Text.js';
import { useStore } from 'zustand';
import { useScreenCtx } from '../../app/use-screen-ctx.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import { listPath, listQuery, type Column, type ListSpec, type ScreenCtx, type ScreenDef, type ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { pluginCommands } from '../../app/plugins.js';
import { queryKey, whole, type ListQuery } from '../../store/data.js';
import { flawOf } from '../../model/response.js';
import { DEFAULT_VIEW, type ListView, type Overlay } from '../../store/views.js';
import { Spinner } from '../Spinner.js';
import { Table } from '../Table.js';
import { clamp } from '../window.js';
import { ListOverlay } from './ListOverlay.js';
import { offeredActions, rowActions } from './row-actions.js';
import { ListStatus } from './ListStatus.js';
import { BulkOverlay, isBulkOverlay } from './BulkOverlay.js';
import { bulkOps } from './bulk-ops.js';
import { listBulk } from './list-bulk.js';
import { clearMarks, markRange, marksInOrder, pruneMarks, toggleMark } from './marks.js';
import { saveRows } from './save-rows.js';
import type { BulkRun } from '../../app/bulk.js';
import { filterCapture, listHandlers } from './list-keys.js';
import { createDeriver, selectedIndex } from './list-view.js';
import { useListData } from './use-list-data.js';
import { UNREADABLE_LABEL, unreadableRefusal } from './unreadable.js';
import { sortKeyHelp, sortKeys } from './sort-keys.js';
import { useSsh } from '../../app/use-ssh.js';
import { ColumnChooser } from './ColumnChooser.js';
import { choiceOf, chosenColumns, offeredColumns } from './column-choice.js';
import { layoutColumns } from '../table-layout.js';
import { drillTo } from '../../app/drill.js';
import { scopeKnowledge } from '../../store/session.js';

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

/** The width each shown column has on screen, by key: where C's first + or - starts from. */
const widthsNow = (columns: readonly Column<Row>[], width: number, rows: readonly unknown[]) => {
  const widths = layoutColumns(columns as Column<unknown>[], width - 2, rows.slice(0, 100));
  return new Map(columns.map((c, i) => [c.key, widths[i]!]));
};

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
  const label = (row: Row) => (flawOf(row) ? UNREADABLE_LABEL : attempt(() => spec.label?.(row) ?? plainLabel(row), () => plainLabel(row)));
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  const switched = spec.switch && (view.switched ?? spec.switch.values[0]!);
  const params = useMemo(() => (spec.switch ? { ...entry.params, [spec.switch.param]: switched! } : entry.params), [entry.params, switched]);
  const path = listPath(spec as ListSpec<unknown>, params);
  const query = useMemo<ListQuery>(() => listQuery(spec, params, data), [spec, path, params]);
  const qkey = queryKey(query);
  const list = useListData(query);
  useStore(session, scopeKnowledge);
  useStore(session, (s) => s.grants);
  const chosen = useStore(app.columns, (s) => s.byView.get(def.id));
  // The columns C chose for this view (saved in config.json), else the list's own.
  const shownColumns = useMemo(() => (chosen ? chosenColumns(spec.columns, chosen) : spec.columns), [spec.columns, chosen]);
  const derive = useMemo(() => createDeriver(shownColumns, rowKey), [shownColumns]);
  const ctx = useScreenCtx(params);

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
  /** A key that acts on the selected row, when there is none, says why rather than nothing. */
  const noRow = () => {
    const loaded = data.getState().lists[qkey];
    const filter = current().v.filter;
    let why = `${def.title}: the list is empty`;
    if (!loaded || loaded.status === 'loading') why = `Not yet: ${def.title} is still loading`;
    else if (loaded.status === 'error') why = `${def.title} could not be loaded: r tries again`;
    else if (filter) why = `Nothing matches "${filter}": Esc clears the filter`;
    session.getState().notify(why, 'error');
  };
  const withRow = (make: (row: Row) => Overlay, refuse?: (row: Row) => string | undefined) => () => {
    const { row } = current();
    if (!row) return noRow();
    const why = unreadableRefusal(row) ?? refuse?.(row);
    if (why) session.getState().notify(why, 'error');
    else update({ overlay: make(row) });
  };
  /** d and y work on every row: for one the client could not read, they show what the server sent. */
  const showRecord = (kind: 'detail' | 'json') => {
    const { row } = current();
    if (row) update({ overlay: { kind, key: rowKey(row) } });
    else noRow();
  };
  const notify = session.getState().notify;
  const refetch = (extra: string[]) => data.getState().invalidate(path, ...extra);
  const allRows = () => (data.getState().lists[qkey]?.rows as Row[] | undefined) ?? EMPTY;
  const drop = (row: Row) => {
    const gone = rowKey(row);
    data.getState().put(query, allRows().filter((r) => rowKey(r) !== gone));
  };
  const { close, chooseAction, confirmed, submitForm } = rowActions({ spec, ctx, rowKey, label, update, refetch, notify, drop });

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

  const markedRows = (): Row[] => {
    const { v, d } = current();
    return marksInOrder(v.marks, d.rows, allRows(), rowKey);
  };
  const running = useRef<BulkRun<Row>>(undefined);
  const ops = bulkOps(spec, ctx, { readOnly: session.getState().readOnly, missing: why, user: session.getState().user });
  const bulk = listBulk({ getView: () => current().v, update, marked: markedRows, rowKey, label, refetch, notify, running, jobs: ctx.jobs });
  const marking = () => current().v.marks.size > 0;
  /** Ctrl-S: the rows as shown (the marked ones when there are marks) as CSV and JSON. */
  const saveList = async () => {
    const { v, d } = current();
    const loaded = data.getState().lists[qkey];
    if (!whole(loaded)) return notify(`Not yet: ${def.title} is still loading`, 'error');
    const rows = v.marks.size ? d.rows.filter((r) => v.marks.has(rowKey(r))) : d.rows;
    await saveRows({ area: def.id, columns: shownColumns, rows, marked: v.marks.size > 0, dir: session.getState().exportDir, notify });
  };
  const sorting = useMemo(() => sortKeys(shownColumns as never), [shownColumns]);
  const ssh = useSsh();
  const note = spec.note?.(params);
  const noteLines = note === undefined ? 0 : 1;
  const tableRows = Math.max(1, height - 2 - noteLines);
  const deleteOne = spec.delete && withRow((row) => ({ kind: 'confirm', action: 'delete', key: rowKey(row) }), refusal(spec.delete.verb?.toLowerCase() ?? 'delete', spec.delete.scope, spec.delete.refuse));
  const bulkDelete = () => {
    const op = ops.find((o) => o.id === 'delete');
    if (op) bulk.choose(op);
    else notify(`${def.title}: no deleting several at once here (^\\ clears the marks)`, 'error');
  };
  const actionsMenu = withRow((row) => ({ kind: 'menu', key: rowKey(row) }));
  const bulkMenu = () => {
    if (ops.length) update({ overlay: { kind: 'bulk-menu' } });
    else notify(`${def.title}: no action here takes several items at once (^\\ clears the marks)`, 'error');
  };
  const handlers = listHandlers(
    view,
    () => current().v,
    select,
    update,
    tableRows,
    {
      open: () => {
        const { row } = current();
        if (!row) return noRow();
        const target = flawOf(row) ? undefined : spec.drill?.(row, params);
        if (!target) return update({ overlay: { kind: 'detail', key: rowKey(row) } });
        drillTo(nav, views, target, spec.crumb?.(row) ?? label(row));
      },
      create:
        spec.create &&
        (() => {
          const missing = why(spec.create?.scope);
          if (missing) notify(`Cannot create: ${missing}`, 'error');
          else update({ overlay: { kind: 'form', form: 'create' } });
        }),
      edit: spec.edit && withRow((row) => ({ kind: 'form', form: 'edit', key: rowKey(row) }), refusal('edit', spec.edit.scope, spec.edit.refuse)),
      delete: spec.delete && (() => (marking() ? bulkDelete() : deleteOne?.())),
      actions: (offered.length > 0 || (view.marks.size > 0 && ops.length > 0)) && (() => (marking() ? bulkMenu() : actionsMenu())),
      mark: () => {
        const { v, row } = current();
        if (!row) return;
        update(toggleMark(v, rowKey(row)));
        select((i) => i + 1);
      },
      markRange: view.marks.size > 0 && (() => {
        const { v, d, i } = current();
        if (d.rows.length) update(markRange(v, d.rows.map(rowKey), i));
      }),
      clearMarks: (view.marks.size > 0 || view.failures.size > 0) && (() => update(clearMarks())),
      exportList: () => void saveList(),
      detail: () => showRecord('detail'),
      json: () => showRecord('json'),
      sortBy: (ev) => {
        const col = sorting.indexOf(ev.name);
        if (col < 0) return notify(`${ev.name} sorts by no column here; ? lists the sort keys`, 'error');
        // The cursor stays on its row, wherever the new order puts it.
        const { v, row } = current();
        update({ sortCol: col, sortDesc: v.sortCol === col ? !v.sortDesc : false, ...(row ? { selectedKey: rowKey(row) } : {}) });
      },
      copy: withRow((row) => ({ kind: 'copy', key: rowKey(row) })),
      history: () => {
        const { row } = current();
        if (!row || flawOf(row)) return;
        // A row standing for another record (an overview's lines for their instance): that record's history.
        const of = spec.subject?.(row, params)?.path;
        const [itemPath, id] = of ? [of.slice(0, of.lastIndexOf('/')), of.slice(of.lastIndexOf('/') + 1)] : [path, rowKey(row)];
        // The crumbs name the item already when the row stands for another record.
        nav.getState().push('history', { path: itemPath, id, label: label(row) }, of ? '' : label(row));
      },
      columns: () => update({ overlay: { kind: 'columns' } }),
      xray: () => {
        const { row } = current();
        if (!row) return noRow();
        const refused = unreadableRefusal(row);
        if (refused) return notify(refused, 'error');
        const vm = attempt(() => spec.instance?.(row), () => undefined);
        const of = attempt(() => spec.xray?.(row, params), () => undefined) ?? (vm ? { type: 'vm', id: String(vm.id) } : { type: 'other', kind: def.title.replace(/s$/, ''), label: label(row) });
        nav.getState().push('xray', of, vm?.label ?? label(row));
      },
      ssh:
        spec.instance &&
        (() => {
          const { row } = current();
          const vm = row && !flawOf(row) ? attempt(() => spec.instance!(row), () => undefined) : undefined;
          if (vm) ssh(vm);
          else if (row) notify('This line is not an instance: nothing to ssh to', 'error');
        }),
      refresh: () => void data.getState().refresh(query),
      switchView:
        spec.switch &&
        (() => {
          const values = spec.switch!.values;
          const now = current().v.switched ?? values[0]!;
          update({ switched: values[(values.indexOf(now) + 1) % values.length], selectedIndex: 0, selectedKey: undefined, ...clearMarks() });
        }),
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
    details: { sortBy: sortKeyHelp(shownColumns as never, sorting) },
    // The config file's plugins for this view, on the selected row.
    extensions: view.overlay || view.filtering ? undefined : pluginCommands(app, def.id, () => flawOf(current().row) ? undefined : current().row),
  });

  const d = derive((list?.rows as Row[] | undefined) ?? EMPTY, view.sortCol, view.sortDesc, view.filter);
  const rows = list?.rows;
  const summary = useMemo(() => spec.summary && rows && attempt(() => spec.summary!((rows as Row[]).filter((r) => !flawOf(r))), () => undefined), [spec, rows]);
  const index = selectedIndex(d, rowKey, view.selectedKey, view.selectedIndex);
  const hasMarks = view.marks.size > 0 || view.failures.size > 0;
  // A row that leaves the list loses its mark; not while pages are still coming, when it may only be late.
  useEffect(() => {
    if (!hasMarks || !whole(list)) return;
    const keys = new Set((list.rows as Row[]).map(rowKey));
    const patch = pruneMarks(views.getState().get(entry.key), (k) => keys.has(k));
    if (patch) update(patch);
  }, [list?.rows, list?.status, list?.progress, list?.partial, hasMarks]);
  const failures = view.failures;
  const columns = useMemo(
    () => (failures.size ? [...shownColumns, { key: '', title: 'Not done', flex: 3, format: (r: Row) => failures.get(rowKey(r)) ?? '' } satisfies Column<Row>] : shownColumns),
    [shownColumns, failures],
  );
  const marks = view.marks;
  const shownMarked = marks.size ? d.rows.reduce((n, r) => n + (marks.has(rowKey(r)) ? 1 : 0), 0) : 0;
  const overlayKey = view.overlay && 'key' in view.overlay ? view.overlay.key : undefined;
  const overlayRow = overlayKey === undefined ? undefined : (list?.rows as Row[] | undefined)?.find((r) => rowKey(r) === overlayKey);
  const gone = overlayKey !== undefined && list?.status === 'ready' && !overlayRow;
  useEffect(() => {
    if (!gone) return;
    update({ overlay: null });
    notify('That item no longer exists', 'error');
  });

  let body;
  if (isBulkOverlay(view.overlay)) {
    body = (
      <BulkOverlay
        overlay={view.overlay}
        ops={ops}
        marked={markedRows()}
        label={label}
        ctx={ctx}
        choose={bulk.choose}
        filled={bulk.filled}
        start={bulk.start}
        stop={bulk.stop}
        close={close}
        width={width}
        height={height - 1}
      />
    );
  } else if (view.overlay?.kind === 'columns') {
    body = (
      <ColumnChooser
        title={def.title}
        offered={offeredColumns(spec.columns, list?.rows ?? EMPTY) as Column<unknown>[]}
        current={chosen ?? choiceOf(spec.columns as Column<unknown>[])}
        widths={widthsNow(shownColumns, width, list?.rows ?? EMPTY)}
        onCancel={close}
        onDone={(choice) => {
          // The sort stays on its column wherever the column now is; off when it is no longer shown.
          const sortKey = view.sortCol === null ? undefined : shownColumns[view.sortCol]?.key;
          const at = choice.findIndex((c) => c.key === sortKey);
          app.columns.getState().choose(def.id, choice);
          update({ overlay: null, sortCol: at >= 0 ? at : null });
        }}
        width={width}
        height={height - 1}
      />
    );
  } else if (view.overlay && !gone) {
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
        show={(overlay) => update({ overlay })}
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
  else
    body = (
      <Table
        columns={columns}
        rows={d.rows}
        selected={index}
        height={height - 1 - noteLines}
        width={width}
        sortCol={view.sortCol}
        sortDesc={view.sortDesc}
        marked={marks.size ? (r) => marks.has(rowKey(r)) : undefined}
      />
    );

  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <ListStatus list={list} view={view} summary={summary} shown={d.rows.length} columns={shownColumns as never} width={width} marked={{ count: marks.size, hidden: marks.size - shownMarked }} />
      {note !== undefined && <Text wrap="truncate-end">{note}</Text>}
      {body}
    </Box>
  );
}
