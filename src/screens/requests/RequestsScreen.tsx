import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { LOG_SIZE, type RequestRecord } from '../../api/request-log.js';
import { copyToClipboard } from '../../app/clipboard.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { Table } from '../../components/Table.js';
import { listHandlers } from '../../components/list/list-keys.js';
import { selectedIndex } from '../../components/list/list-view.js';
import { TextInput } from '../../components/TextInput.js';
import { editText } from '../../components/text-edit.js';
import { clamp } from '../../components/window.js';
import { plural } from '../../model/plural.js';
import { narrowestScopes } from '../../model/scopes.js';
import { DEFAULT_VIEW, type ListView } from '../../store/views.js';
import { CALL_COLUMNS, curlOf, filterCalls } from './calls.js';
import { RequestDetail } from './RequestDetail.js';
import { useCalls } from './use-calls.js';

/**
 * The app's network panel: every call its client made, newest first, live.
 * The selection follows its call (by id) as new ones arrive above it; until
 * the user moves, it stays on the newest.
 */
const callKey = (r: RequestRecord) => String(r.id);

export function RequestsScreen({ entry, width, height }: ScreenProps) {
  const { client, views, session } = useApp();
  const calls = useCalls(client.requests);
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  const rows = filterCalls(calls, view.filter);

  const update = (patch: Partial<ListView>) => views.getState().update(entry.key, patch);
  const current = () => {
    const v = views.getState().get(entry.key);
    const shown = filterCalls(client.requests.entries(), v.filter);
    const n = selectedIndex({ rows: shown }, callKey, v.selectedKey, v.selectedIndex);
    return { v, shown, n, row: shown[n] };
  };
  const select = (to: (n: number, count: number) => number) => {
    const { shown, n } = current();
    if (!shown.length) return;
    const next = clamp(to(n, shown.length), 0, shown.length - 1);
    // Back on the newest, the selection follows new calls again.
    update({ selectedIndex: next, selectedKey: next === 0 ? undefined : String(shown[next]!.id) });
  };
  const copy = (r: RequestRecord | undefined) => {
    if (!r) return;
    const curl = curlOf(r);
    if ('refused' in curl) return session.getState().notify(curl.refused, 'error');
    copyToClipboard(curl.line);
    session.getState().notify(curl.note, 'success');
  };
  const page = Math.max(1, height - 3);
  const open = view.overlay?.kind === 'detail' ? client.requests.get(Number(view.overlay.key)) : undefined;
  useCommands(
    listHandlers(view, () => views.getState().get(entry.key), select, update, page, {
      open: () => {
        const { row } = current();
        if (row) update({ overlay: { kind: 'detail', key: String(row.id) }, selectedKey: String(row.id) });
      },
      copy: () => copy(current().row),
    }, () => update({ overlay: null })),
    {
      priority: PRIORITY.screen,
      title: 'Requests',
      active: open === undefined,
      capture: (ev) => {
        const v = views.getState().get(entry.key);
        if (!v.filtering || ['return', 'escape', 'up', 'down'].includes(ev.name)) return false;
        const next = editText({ text: v.filter, cursor: v.filterCursor }, ev);
        if (next) update({ filter: next.text, filterCursor: next.cursor, selectedIndex: 0, selectedKey: undefined });
        // Everything else is swallowed while typing: q must not quit.
        return true;
      },
    },
  );

  if (open) return <RequestDetail call={open} width={width} height={height} onCopy={() => copy(open)} onClose={() => update({ overlay: null })} />;

  const n = selectedIndex({ rows }, callKey, view.selectedKey, view.selectedIndex);
  const narrowest = narrowestScopes(client.requests.needed);
  const pending = calls.filter((r) => r.duration === undefined).length;
  const filterWidth = Math.max(10, Math.min(24, Math.floor(width / 4)));
  const summary = [plural(calls.length, 'call'), view.filter ? `${rows.length} shown` : '', pending ? `${pending} pending` : '', `newest first; the last ${LOG_SIZE} are kept`].filter(Boolean).join(' · ');
  const statusLine = view.filtering ? (
    <Box height={1}>
      <Text color="cyan">/</Text>
      <Box width={filterWidth}>
        <TextInput value={{ text: view.filter, cursor: view.filterCursor }} width={filterWidth} focused />
      </Box>
      <Text dimColor wrap="truncate-end">{`  ${rows.length} of ${calls.length} · method, path or status words`}</Text>
    </Box>
  ) : (
    <Text wrap="truncate-end">
      {view.filter && <Text color="cyan">{`/${view.filter}  `}</Text>}
      <Text dimColor>{summary}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      {statusLine}
      {rows.length === 0 ? (
        <Text dimColor wrap="wrap">
          {view.filter ? `No call matches "${view.filter}". Esc clears the filter.` : 'No API call yet: every call the app makes shows here as it goes.'}
        </Text>
      ) : (
        <Table columns={CALL_COLUMNS} rows={rows} selected={n} height={height - 2} width={width} />
      )}
      <Text wrap="truncate-end">
        <Text dimColor>Narrowest token for this session: </Text>
        {narrowest ? <Text color="cyan">{narrowest}</Text> : <Text dimColor>no scope needed yet</Text>}
      </Text>
    </Box>
  );
}
