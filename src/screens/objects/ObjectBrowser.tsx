import { useEffect, useMemo, useRef, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useScreenCtx } from '../../app/use-screen-ctx.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { BulkRun } from '../../app/bulk.js';
import type { Column, ScreenCtx, ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { BulkOverlay, isBulkOverlay } from '../../components/list/BulkOverlay.js';
import { bulkOps } from '../../components/list/bulk-ops.js';
import { listBulk } from '../../components/list/list-bulk.js';
import { ListOverlay } from '../../components/list/ListOverlay.js';
import { ListStatus } from '../../components/list/ListStatus.js';
import { filterCapture, listHandlers } from '../../components/list/list-keys.js';
import { createDeriver, selectedIndex } from '../../components/list/list-view.js';
import { clearMarks, markRange, marksInOrder, pruneMarks, toggleMark } from '../../components/list/marks.js';
import { saveRows } from '../../components/list/save-rows.js';
import { offeredActions, rowActions } from '../../components/list/row-actions.js';
import { Spinner } from '../../components/Spinner.js';
import { Table } from '../../components/Table.js';
import { clamp } from '../../components/window.js';
import { queryKey } from '../../store/data.js';
import { DEFAULT_VIEW, type ListView } from '../../store/views.js';
import { relativeName } from './format.js';
import { isPrefix, objectRowKey as rowKey, objectSpec, type ObjectRow } from './object-spec.js';
import { useObjectList } from './use-object-list.js';
import { scopeKnowledge } from '../../store/session.js';
import { flawOf } from '../../model/response.js';
import { UNREADABLE_LABEL, unreadableRefusal } from '../../components/list/unreadable.js';

const EMPTY: readonly ObjectRow[] = [];

const moreRow = (loading: boolean): ObjectRow => ({
  name: loading ? '… loading the next page' : '… more on the server: m, or move here',
  more: true,
  etag: null,
  last_modified: null,
  owner: null,
  size: null,
  next_marker: null,
  is_truncated: false,
});

/**
 * A bucket's objects, one folder (prefix) per screen: Enter on a folder opens
 * it as a new level (Esc goes back up), pages load by marker as the selection
 * reaches the "… more" line or on m. The overlays are the generic list's.
 */
export function ObjectBrowser({ entry, width, height }: ScreenProps) {
  const { client, data, views, session, nav } = useApp();
  const cluster = entry.params.cluster!;
  const bucket = entry.params.bucket!;
  const prefix = entry.params.prefix ?? '';
  const flat = entry.params.flat === '1';
  const objects = useObjectList({ cluster, bucket, prefix, flat });
  const qkey = queryKey(objects.query);
  const loaded = () => (data.getState().lists[qkey]?.rows as ObjectRow[] | undefined) ?? EMPTY;
  const spec = useMemo(() => objectSpec({ cluster, bucket }, prefix, loaded), [cluster, bucket, prefix, qkey]);
  const label = (r: ObjectRow) => (r.more ? 'more' : flawOf(r) ? UNREADABLE_LABEL : relativeName(r.name, prefix) || r.name);
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  useStore(session, scopeKnowledge);
  const [derive] = useState(() => createDeriver(spec.columns, rowKey));
  const ctx = useScreenCtx(entry.params);

  /** The rows as shown now: filtered, with the "… more" line while the server has more. */
  const shownRows = (v: ListView, rows: readonly ObjectRow[], hasMore: boolean, loadingMore: boolean) => {
    const d = derive(rows, null, false, v.filter);
    return hasMore ? [...d.rows, moreRow(loadingMore)] : d.rows;
  };
  const current = () => {
    const v = views.getState().get(entry.key);
    const rows = loaded();
    const list = shownRows(v, rows, rows[rows.length - 1]?.is_truncated === true, false);
    const i = selectedIndex({ rows: list }, rowKey, v.selectedKey, v.selectedIndex);
    return { v, list, i, row: list[i] };
  };
  const update = (patch: Partial<ListView>) => views.getState().update(entry.key, patch);
  const select = (to: (i: number, n: number) => number) => {
    const { list, i } = current();
    if (list.length === 0) return;
    const n = clamp(to(i, list.length), 0, list.length - 1);
    update({ selectedIndex: n, selectedKey: rowKey(list[n]!) });
    // Reaching the end of what is loaded fetches the next page.
    if (list[n]!.more) objects.more();
  };
  const open = (row: ObjectRow) => {
    if (row.more) objects.more();
    else if (isPrefix(row) && !flawOf(row)) nav.getState().push('object-browser', { cluster, bucket, prefix: row.name }, relativeName(row.name, prefix));
    else update({ overlay: { kind: 'detail', key: rowKey(row) } });
  };
  /** `acts`: the key does something to the row, which an unreadable row refuses (d and y show what the server sent). */
  const withRow = (make: (row: ObjectRow) => ListView['overlay'], refuse?: (row: ObjectRow) => string | undefined, acts = true) => () => {
    const { row } = current();
    if (!row || row.more) return;
    const why = (acts ? unreadableRefusal(row) : undefined) ?? refuse?.(row);
    if (why) session.getState().notify(why, 'error');
    else update({ overlay: make(row) });
  };
  const refetch = (extra: string[]) => data.getState().invalidate(objects.query.path, ...extra);
  const notify = session.getState().notify;
  const drop = (row: ObjectRow) => {
    const gone = rowKey(row);
    data.getState().put(objects.query, loaded().filter((r) => rowKey(r) !== gone));
  };
  const { close, chooseAction, confirmed, submitForm } = rowActions({ spec, ctx, rowKey, label, update, refetch, notify, drop });

  const mark = (scope: string | undefined) => session.getState().missingScope(scope ?? spec.writeScope) ?? undefined;

  /** Only objects take a mark: a folder stands for names not loaded, the "… more" line for none. */
  const markable = (row: ObjectRow) => !row.more && !isPrefix(row) && !flawOf(row);
  const markedRows = (): ObjectRow[] => {
    const { v, list } = current();
    return marksInOrder(v.marks, list, loaded(), rowKey);
  };
  const running = useRef<BulkRun<ObjectRow>>(undefined);
  const ops = bulkOps(spec, ctx, { readOnly: session.getState().readOnly, missing: (scope) => mark(scope) });
  const bulk = listBulk({ getView: () => current().v, update, marked: markedRows, rowKey, label, refetch, notify, running, jobs: ctx.jobs });
  const marking = () => current().v.marks.size > 0;
  const bulkDelete = () => {
    const op = ops.find((o) => o.id === 'delete');
    if (op) bulk.choose(op);
    else notify('Deleting is not allowed here (read-only): ^\\ clears the marks', 'error');
  };
  /** Ctrl-S: the objects as shown (the marked ones when there are marks) as CSV and JSON. */
  const saveList = async () => {
    const { v, list } = current();
    if (data.getState().lists[qkey]?.status !== 'ready') return notify(`Not yet: ${bucket}/${prefix} is still loading`, 'error');
    const rows = list.filter((r) => !r.more && (v.marks.size === 0 || v.marks.has(rowKey(r))));
    await saveRows({ area: `objects-${bucket}`, columns: spec.columns, rows, marked: v.marks.size > 0, dir: session.getState().exportDir, notify });
  };
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
        if (row) open(row);
      },
      create: () => {
        const missing = mark(spec.create?.scope);
        if (missing) session.getState().notify(`Cannot upload: ${missing}`, 'error');
        else update({ overlay: { kind: 'form', form: 'create' } });
      },
      delete: () =>
        marking()
          ? bulkDelete()
          : withRow(
              (row) => ({ kind: 'confirm', action: 'delete', key: rowKey(row) }),
              (row) => spec.delete!.refuse?.(row) ?? (mark(spec.delete?.scope) && `Cannot delete ${row.name}: ${mark(spec.delete?.scope)}`),
            )(),
      mark: () => {
        const { v, row } = current();
        if (!row) return;
        if (!markable(row)) return notify(unreadableRefusal(row) ?? (row.more ? 'The "… more" line is not an object' : `${row.name} is a folder: only objects are marked (Enter opens it)`), 'error');
        update(toggleMark(v, rowKey(row)));
        select((i) => i + 1);
      },
      markRange:
        view.marks.size > 0 &&
        (() => {
          const { v, list, i } = current();
          const patch = markRange(v, list.map(rowKey), i);
          // Folders and the "… more" line in the range stay unmarked.
          const objectKeys = new Set(list.filter(markable).map(rowKey));
          update({ ...patch, marks: new Set([...patch.marks!].filter((k) => objectKeys.has(k) || v.marks.has(k))) });
        }),
      clearMarks: (view.marks.size > 0 || view.failures.size > 0) && (() => update(clearMarks())),
      exportList: () => void saveList(),
      actions:
        (offeredActions(spec.actions, undefined, session.getState().readOnly).length > 0 || (view.marks.size > 0 && ops.length > 0)) &&
        (() => (marking() && ops.length ? update({ overlay: { kind: 'bulk-menu' } }) : withRow((row) => ({ kind: 'menu', key: rowKey(row) }))())),
      detail: withRow((row) => ({ kind: 'detail', key: rowKey(row) }), undefined, false),
      json: withRow((row) => ({ kind: 'json', key: rowKey(row) }), undefined, false),
      copy: withRow((row) => ({ kind: 'copy', key: rowKey(row) })),
      refresh: () => void data.getState().refresh(objects.query),
      more: objects.hasMore && objects.more,
    },
    close,
  );
  useCommands(handlers, {
    priority: PRIORITY.screen,
    title: `Objects of ${bucket}`,
    modal: view.overlay ? 'screen' : false,
    marks: { create: mark(spec.create?.scope), delete: mark(spec.delete?.scope) },
    capture: filterCapture(() => views.getState().get(entry.key), update),
  });

  const list = objects.entry;
  const rows = (list?.rows as ObjectRow[] | undefined) ?? EMPTY;
  const shown = shownRows(view, rows, objects.hasMore, objects.loadingMore);
  const index = selectedIndex({ rows: shown }, rowKey, view.selectedKey, view.selectedIndex);
  const overlayKey = view.overlay && 'key' in view.overlay ? view.overlay.key : undefined;
  const overlayRow = overlayKey === undefined ? undefined : rows.find((r) => rowKey(r) === overlayKey);
  const gone = overlayKey !== undefined && list?.status === 'ready' && !overlayRow;
  useEffect(() => {
    if (gone) update({ overlay: null });
  });
  const hasMarks = view.marks.size > 0 || view.failures.size > 0;
  // An object that leaves the listing loses its mark.
  useEffect(() => {
    if (!hasMarks || list?.status !== 'ready') return;
    const keys = new Set(rows.map(rowKey));
    const patch = pruneMarks(views.getState().get(entry.key), (k) => keys.has(k));
    if (patch) update(patch);
  }, [list?.rows, list?.status, hasMarks]);
  const { marks, failures } = view;
  const columns = useMemo(
    () => (failures.size ? [...spec.columns, { key: '', title: 'Not done', flex: 3, format: (r: ObjectRow) => failures.get(rowKey(r)) ?? '' } satisfies Column<ObjectRow>] : spec.columns),
    [spec.columns, failures],
  );
  const shownMarked = marks.size ? shown.reduce((n, r) => n + (marks.has(rowKey(r)) ? 1 : 0), 0) : 0;

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
  } else if (view.overlay && !gone) {
    body = (
      <ListOverlay
        title={`${bucket}/${prefix}`}
        spec={spec}
        overlay={view.overlay}
        row={overlayRow}
        label={label}
        ctx={ctx}
        missing={(s) => session.getState().missingScope(s)}
        close={close}
        show={(overlay) => update({ overlay })}
        chooseAction={chooseAction}
        confirmed={confirmed}
        submitForm={submitForm}
        width={width}
        height={height - 1}
      />
    );
  } else if (!list || (list.status === 'loading' && rows.length === 0)) body = <Spinner label={`listing ${bucket}/${prefix}…`} />;
  else if (list.status === 'error') body = <Text color="red" wrap="wrap">{`Could not list ${bucket}/${prefix}: ${list.error}. Press r to retry.`}</Text>;
  else if (shown.length === 0)
    body = <Text dimColor>{view.filter ? `Nothing loaded matches "${view.filter}". Esc clears the filter.` : `${prefix ? `${prefix} is` : `${bucket} is`} empty. Press c to upload a file.`}</Text>;
  else body = <Table columns={columns} rows={shown} selected={index} height={height - 1} width={width} marked={marks.size ? (r) => marks.has(rowKey(r)) : undefined} />;

  const more = objects.hasMore ? (objects.loadingMore ? ' · loading more…' : ' · more on the server (m)') : '';
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Box height={1}>
        <Text color="cyan" wrap="truncate-end">{`${cluster}/${bucket}/${prefix}${flat ? ' (all names, no folders)' : ''}  `}</Text>
        <ListStatus list={list} view={view} shown={shown.length - (objects.hasMore ? 1 : 0)} columns={spec.columns as never} width={width} marked={{ count: marks.size, hidden: marks.size - shownMarked }} />
        {more && <Text dimColor>{more}</Text>}
      </Box>
      {body}
    </Box>
  );
}
