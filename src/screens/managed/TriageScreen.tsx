import { refreshFailed } from '../../app/use-data-age.js';
import { useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import type { ManagedIssue, ManagedService } from '../../api/managed.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { NOTICEABLE_MS, useLasting } from '../../app/use-lasting.js';
import { Spinner } from '../../components/Spinner.js';
import { TextInput } from '../../components/TextInput.js';
import { listHandlers } from '../../components/list/list-keys.js';
import { selectedIndex } from '../../components/list/list-view.js';
import { useListData } from '../../components/list/use-list-data.js';
import { editText } from '../../components/text-edit.js';
import { clamp, windowStart } from '../../components/window.js';
import { DEFAULT_VIEW, type ListView } from '../../store/views.js';
import { LineView, type Line } from './LineView.js';
import { Q } from './queries.js';
import { statusLook } from './status.js';
import { ago, apiTime } from './time.js';
import { TRIAGE_FILTER_HELP, filterTriage, triageRows, type TriageRow } from './triage-filter.js';
import { plural } from '../../model/plural.js';
import { issueNumber } from './issue-model.js';

const EMPTY: never[] = [];

/** An issue as a block of lines: age and ticket, then each affected service. */
function blockLines(row: TriageRow, now: number, servicesReady: boolean): Line[] {
  const { issue } = row;
  const head: Line = {
    segs: [
      { text: ago(apiTime(issue.created), now).padEnd(9), bold: true },
      { text: `${issueNumber(issue)}  `, color: 'red', bold: true },
      { text: issue.entity.label, bold: true },
    ],
  };
  const services: Line[] = row.services.map(({ id, service: s }) => {
    if (!s) return { segs: [{ text: `      service #${id} ${servicesReady ? '(deleted)' : '…'}`, dim: true }] };
    const look = statusLook(s.status);
    return {
      segs: [
        { text: '      ' },
        { text: look.text.padEnd(11), color: look.color, bold: look.bold, dim: look.dim },
        { text: s.label, bold: s.status === 'problem' },
        { text: `  ${s.service_type}  ${s.address}` },
        { text: s.consultation_group ? `  · ${s.consultation_group}` : '', dim: true },
      ],
    };
  });
  return [head, ...services];
}

/**
 * Open managed issues, newest first: how long ago each was detected, its
 * ticket, and every affected service with status, type and address. Enter
 * opens an issue with all that is needed to act on it.
 */
const issueKey = (r: TriageRow) => String(r.issue.id);

export function TriageScreen({ entry, width, height }: ScreenProps) {
  const { views, data, nav } = useApp();
  const issues = useListData(Q.issues);
  const services = useListData(Q.services);
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  const now = Date.now();
  const all = useMemo(
    () => triageRows((issues?.rows ?? EMPTY) as ManagedIssue[], (services?.rows ?? EMPTY) as ManagedService[]),
    [issues?.rows, services?.rows],
  );
  const rows = filterTriage(all, view.filter, now);

  const update = (patch: Partial<ListView>) => views.getState().update(entry.key, patch);
  const current = () => {
    const v = views.getState().get(entry.key);
    const shown = filterTriage(all, v.filter);
    const n = selectedIndex({ rows: shown }, issueKey, v.selectedKey, v.selectedIndex);
    return { v, shown, n, row: shown[n] };
  };
  const select = (to: (n: number, count: number) => number) => {
    const { shown, n } = current();
    if (!shown.length) return;
    const next = clamp(to(n, shown.length), 0, shown.length - 1);
    update({ selectedIndex: next, selectedKey: String(shown[next]!.issue.id) });
  };
  const open = () => {
    const { row } = current();
    if (row) nav.getState().push('managed-issue', { issueId: String(row.issue.id) }, issueNumber(row.issue));
  };
  useCommands(
    listHandlers(view, () => views.getState().get(entry.key), select, update, 3, {
      open,
      refresh: () => {
        void data.getState().refresh(Q.issues);
        void data.getState().refresh(Q.services);
      },
    }, () => update({ overlay: null })),
    {
      priority: PRIORITY.screen,
      title: 'Triage',
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

  const start = useRef(0);
  const refreshing = useLasting(Boolean(issues?.refreshing || services?.refreshing), NOTICEABLE_MS);
  const problems = ((services?.rows ?? EMPTY) as ManagedService[]).filter((s) => s.status === 'problem').length;
  const status = [
    issues?.status === 'ready' ? plural(all.length, 'open issue') : '',
    view.filter ? `${rows.length} shown` : '',
    services?.status === 'ready' ? plural(problems, 'problem service') : '',
    'newest first',
    refreshing ? 'refreshing…' : '',
  ].filter(Boolean);
  const filterWidth = Math.max(10, Math.min(24, Math.floor(width / 4)));
  const statusLine = view.filtering ? (
    <Box height={1}>
      <Text color="cyan">/</Text>
      <Box width={filterWidth}>
        <TextInput value={{ text: view.filter, cursor: view.filterCursor }} width={filterWidth} focused />
      </Box>
      <Text dimColor wrap="truncate-end">{`  ${rows.length} of ${all.length} · ${TRIAGE_FILTER_HELP}`}</Text>
    </Box>
  ) : (
    <Text wrap="truncate-end">
      {view.filter && <Text color="cyan">{`/${view.filter}  `}</Text>}
      <Text dimColor>{status.join(' · ')}</Text>
      {refreshFailed(issues) && <Text color="red">{`  ${refreshFailed(issues)}`}</Text>}
    </Text>
  );

  let body;
  if (!issues || (issues.status === 'loading' && issues.rows.length === 0)) body = <Spinner label="loading managed issues…" />;
  else if (issues.status === 'error')
    body = <Text color="red" wrap="wrap">{`Could not load managed issues: ${issues.error}. Press r to retry.`}</Text>;
  else if (rows.length === 0)
    body = (
      <Text color={view.filter ? undefined : 'green'} dimColor={Boolean(view.filter)} wrap="wrap">
        {view.filter ? `No open issue matches "${view.filter}". Esc clears the filter.` : '✓ No open managed issues. :managed shows the dashboard, :services every service.'}
      </Text>
    );
  else {
    const n = selectedIndex({ rows }, issueKey, view.selectedKey, view.selectedIndex);
    const lines: Line[] = [];
    let selectedFrom = 0;
    let selectedTo = 0;
    rows.forEach((r, i) => {
      if (i === n) selectedFrom = lines.length;
      lines.push(...blockLines(r, now, services?.status === 'ready'));
      if (i === n) selectedTo = lines.length - 1;
    });
    const room = Math.max(1, height - 1);
    // Keep the whole selected block in view: its last line first, then its head.
    start.current = windowStart(windowStart(start.current, selectedTo, room, lines.length), selectedFrom, room, lines.length);
    body = <LineView lines={lines} start={start.current} height={room} selected={selectedFrom} />;
  }

  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {statusLine}
      {body}
    </Box>
  );
}
