import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { NODEBALANCERS_PATH, type NodeBalancer } from '../../api/nodebalancers.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { Spinner } from '../../components/Spinner.js';
import { Table } from '../../components/Table.js';
import { useListData } from '../../components/list/use-list-data.js';
import { clamp } from '../../components/window.js';
import { queryKey, type ListQuery } from '../../store/data.js';
import { CONFIGS_SCREEN } from './ids.js';
import { StatsCharts } from './StatsCharts.js';
import { useBalancerStats } from './use-balancer-stats.js';

/** The same query as the balancer list, so both share one cached list. */
const BALANCERS: ListQuery = { path: NODEBALANCERS_PATH };
const PICKER: Column<NodeBalancer>[] = [{ key: 'label', title: 'Load balancer' }];
const PICKER_WIDTH = 22;
const EMPTY: NodeBalancer[] = [];

/**
 * Statistics of one load balancer over the last day, with the balancers to
 * pick from beside them: ↑↓ switch, Enter opens the chosen one's configs.
 */
export function StatsScreen({ entry, width, height }: ScreenProps) {
  const { data, nav } = useApp();
  const list = useListData(BALANCERS);
  const [{ chosen }, store] = useLocalStore(() => ({ chosen: entry.params.nb }));
  const rows = () => (data.getState().lists[queryKey(BALANCERS)]?.rows as NodeBalancer[] | undefined) ?? EMPTY;
  const indexOf = (all: NodeBalancer[], id: string | undefined) => Math.max(0, all.findIndex((b) => String(b.id) === id));
  const balancers = (list?.rows as NodeBalancer[] | undefined) ?? EMPTY;
  const index = indexOf(balancers, chosen);
  const current = balancers[index];
  const stats = useBalancerStats(current?.id);

  const move = (to: (i: number, n: number) => number) => {
    const all = rows();
    if (all.length === 0) return;
    const next = all[clamp(to(indexOf(all, store.getState().chosen), all.length), 0, all.length - 1)]!;
    store.setState({ chosen: String(next.id) });
  };
  useCommands(
    {
      up: () => move((i) => i - 1),
      down: () => move((i) => i + 1),
      top: () => move(() => 0),
      bottom: () => move((_, n) => n - 1),
      open: () => {
        const all = rows();
        const b = all[indexOf(all, store.getState().chosen)];
        if (b) nav.getState().push(CONFIGS_SCREEN, { nb: String(b.id) }, b.label);
      },
      refresh: () => {
        stats.reload();
        void data.getState().refresh(BALANCERS);
      },
    },
    { priority: PRIORITY.screen, title: 'Load balancer statistics' },
  );

  if (!list || (list.status === 'loading' && balancers.length === 0)) return <Spinner label="loading load balancers…" />;
  if (list.status === 'error') return <Text color="red" wrap="wrap">{`Could not load the load balancers: ${list.error}. Press r to retry.`}</Text>;
  if (!current) return <Text dimColor>No load balancers yet: create one in :nodebalancers.</Text>;

  const side = width >= 70;
  const chartWidth = side ? width - PICKER_WIDTH - 1 : width;
  const status = stats.error ? `statistics failed: ${stats.error}` : stats.loading ? 'refreshing…' : '';
  let body;
  if (stats.stats) body = <StatsCharts stats={stats.stats} width={chartWidth} height={height - 1} />;
  else if (stats.error) body = <Text color="red" wrap="wrap">{`Could not load the statistics of ${current.label}: ${stats.error}. Press r to retry.`}</Text>;
  else body = <Spinner label={`loading the statistics of ${current.label}…`} />;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>{stats.stats?.title ?? current.label}</Text>
        <Text dimColor>{side ? '' : `  ${index + 1}/${balancers.length} ↑↓`}</Text>
        {status && <Text color={stats.error ? 'red' : undefined} dimColor={!stats.error}>{`  ${status}`}</Text>}
      </Text>
      <Box height={height - 1}>
        {side && (
          <Box width={PICKER_WIDTH} marginRight={1}>
            <Table columns={PICKER} rows={balancers} selected={index} height={height - 1} width={PICKER_WIDTH} />
          </Box>
        )}
        <Box flexDirection="column" width={chartWidth}>
          {body}
        </Box>
      </Box>
    </Box>
  );
}
