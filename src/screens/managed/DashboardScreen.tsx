import { useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { STATS_SERIES, type ManagedIssue, type ManagedService, type ManagedStats, type StatsSeries } from '../../api/managed.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { Spinner } from '../../components/Spinner.js';
import { wrapLine } from '../../components/cells.js';
import { useListData } from '../../components/list/use-list-data.js';
import { clamp } from '../../components/window.js';
import type { ServiceStatus } from '../../model/managed.js';
import { useCopy } from '../../components/use-copy.js';
import { Q } from './queries.js';
import { StatsCharts, chartGrid, type Series } from './StatsCharts.js';
import { statusLook } from './status.js';
import { ago, apiTime, newestFirst } from './time.js';
import { bitsPerSecond, compact, percent, perSecond } from './units.js';
import { plural } from '../../model/plural.js';

const SERIES: Record<StatsSeries, { title: string; format: (v: number) => string; color: string }> = {
  cpu: { title: 'cpu (%)', format: percent, color: 'cyan' },
  disk: { title: 'disk (blocks/s)', format: perSecond, color: 'magenta' },
  net_in: { title: 'net_in (bits/s)', format: bitsPerSecond, color: 'green' },
  net_out: { title: 'net_out (bits/s)', format: bitsPerSecond, color: 'blue' },
  swap: { title: 'swap (blocks/s)', format: compact, color: 'yellow' },
};

const STATUS_ORDER: ServiceStatus[] = ['ok', 'pending', 'problem', 'disabled'];

/**
 * The managed overview: service status counts, the last 24 hours of the
 * managed instances' usage as charts, and the managed SSH key. Open issues
 * are named at the top, Enter (or `!`, `:issues`) opens triage.
 */
export function DashboardScreen({ width, height }: ScreenProps) {
  const { nav, data } = useApp();
  const copy = useCopy();
  const services = useListData(Q.services);
  const issues = useListData(Q.issues);
  const stats = useListData(Q.stats);
  const sshKey = useListData(Q.sshKey);
  const [{ top }, store] = useLocalStore(() => ({ top: 0 }));
  const openIssues = (issues?.rows ?? []) as ManagedIssue[];

  const graphs = stats?.rows[0] as ManagedStats | undefined;
  const series = useMemo<Series[]>(
    () =>
      graphs && 'graphs' in graphs
        ? STATS_SERIES.map((name) => ({ ...SERIES[name], points: graphs.graphs[name].map((p) => ({ t: p.x, v: p.y })) }))
        : [],
    [graphs],
  );
  const key = (sshKey?.rows[0] as string | undefined) ?? '';
  const keyLines = key ? wrapLine(key, width) : [];

  // Blocks that scroll: the chart rows, then the SSH key.
  const chartRoom = Math.max(1, height - 2);
  const grid = chartGrid(series.length || STATS_SERIES.length, width, chartRoom);
  const blocks = [...Array.from({ length: grid.rows }, () => grid.chartHeight), 1 + Math.max(1, keyLines.length)];
  /** How many blocks from `from` fit (at least one: a block taller than the room is cut). */
  const fits = (from: number) => {
    let room = chartRoom;
    let n = 0;
    for (let i = from; i < blocks.length && room >= blocks[i]!; i++, n++) room -= blocks[i]!;
    return Math.max(1, n);
  };
  const tail = (from: number) => blocks.slice(from).reduce((a, b) => a + b, 0);
  // The furthest scroll: the last block just in view.
  let last = blocks.length - 1;
  while (last > 0 && tail(last - 1) <= chartRoom) last--;
  const first = clamp(top, 0, last);
  const shown = fits(first);
  const scroll = (by: number) => store.setState((s) => ({ top: clamp(clamp(s.top, 0, last) + by, 0, last) }));

  useCommands(
    {
      up: () => scroll(-1),
      down: () => scroll(1),
      pageUp: () => scroll(-shown),
      pageDown: () => scroll(shown),
      top: () => scroll(-blocks.length),
      bottom: () => scroll(blocks.length),
      open: () => nav.getState().push('issues'),
      copy: key ? () => copy(key, 'the managed SSH key') : undefined,
      refresh: () => {
        for (const q of [Q.services, Q.issues, Q.stats, Q.sshKey]) void data.getState().refresh(q);
      },
    },
    { priority: PRIORITY.screen, title: 'Managed' },
  );

  const counts = new Map<string, number>();
  for (const s of (services?.rows ?? []) as ManagedService[]) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const newest = [...openIssues].sort(newestFirst)[0];
  const more = first + shown < blocks.length ? ' · j/k scroll' : first > 0 ? ' · k scrolls up' : '';

  const chartRows = Math.max(0, Math.min(shown, grid.rows - first));
  const keyShown = first + shown > grid.rows;
  let charts;
  if (!stats || stats.status === 'loading') charts = <Spinner label="loading usage graphs…" />;
  else if (stats.status === 'error') charts = <Text color="red" wrap="wrap">{`Could not load /managed/stats: ${stats.error}. Press r to retry.`}</Text>;
  else if (graphs && 'messages' in graphs) charts = <Text dimColor wrap="wrap">{`Graphs are not available yet: ${graphs.messages.join(' ')}`}</Text>;
  else if (chartRows > 0) charts = <StatsCharts series={series} grid={grid} width={width} firstRow={first} rowCount={chartRows} />;

  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Services </Text>
        {services?.status === 'ready'
          ? STATUS_ORDER.map((st) => {
              const look = statusLook(st);
              return (
                <Text key={st} color={look.color} bold={look.bold && (counts.get(st) ?? 0) > 0} dimColor={look.dim}>
                  {` ${look.text.split(' ')[0]} ${counts.get(st) ?? 0} ${st}  `}
                </Text>
              );
            })
          : services?.status === 'error'
            ? <Text color="red">{services.error}</Text>
            : <Text dimColor>loading…</Text>}
        <Text dimColor>{services?.status === 'ready' ? `(${services.rows.length} in all; :services)` : ''}</Text>
      </Text>
      {/* Texts apart: the count and the age each have few forms, joined they would be a new text for Ink to remember every minute. */}
      <Box height={1} overflow="hidden">
        {openIssues.length > 0 ? (
          <Box flexShrink={0}>
            <Text color="red" bold>{`⚠ ${plural(openIssues.length, 'open issue')}, newest `}</Text>
            <Text color="red" bold>{ago(apiTime(newest!.created))}</Text>
            <Text color="red" bold>: Enter opens triage</Text>
          </Box>
        ) : issues?.status === 'ready' ? (
          <Box flexShrink={0}>
            <Text color="green">✓ no open issues</Text>
          </Box>
        ) : (
          <Text dimColor wrap="truncate-end">issues: {issues?.status === 'error' ? issues.error : 'loading…'}</Text>
        )}
        <Text dimColor wrap="truncate-end">{`${more} · last 24 h, all managed instances`}</Text>
      </Box>
      {charts}
      {keyShown && (
        <Box flexDirection="column">
          <Text bold wrap="truncate-end">
            Managed SSH key <Text dimColor>· add it to authorized_keys for support access{key ? ' · Y copies it' : ''}</Text>
          </Text>
          {sshKey?.status === 'error' ? (
            <Text color="red">{`Could not load the key: ${sshKey.error}`}</Text>
          ) : key ? (
            keyLines.map((l, i) => <Text key={i}>{l}</Text>)
          ) : (
            <Spinner label="loading the key…" />
          )}
        </Box>
      )}
    </Box>
  );
}
