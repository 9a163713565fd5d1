import { useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import type { NBStats, StatSeries } from '../../api/nodebalancers.js';
import { Chart } from '../../components/Chart.js';
import type { Point } from '../../components/braille-chart.js';
import { bitsPerSecond, perSecond } from './format.js';

interface Props {
  stats: NBStats;
  width: number;
  height: number;
}

const points = (series: StatSeries): Point[] => series.map(([t, v]) => ({ t, v }));

/** Connections, traffic in and traffic out, each a chart with current, min and max over the last day (UTC times). */
export function StatsCharts({ stats, width, height }: Props) {
  const charts = useMemo(
    () => [
      { title: 'Connections', points: points(stats.data.connections), format: perSecond, color: 'cyan' },
      { title: 'Traffic in', points: points(stats.data.traffic.in), format: bitsPerSecond, color: 'green' },
      { title: 'Traffic out', points: points(stats.data.traffic.out), format: bitsPerSecond, color: 'magenta' },
    ],
    [stats],
  );
  if (charts.every((c) => c.points.length === 0)) {
    return <Text dimColor wrap="wrap">No traffic recorded: a balancer without configs serves nothing. Add a port (Enter opens its configs).</Text>;
  }
  // Each chart needs its title, a few plot lines, the axis and the time labels.
  const each = Math.max(5, Math.floor(height / charts.length));
  const shown = charts.slice(0, Math.max(1, Math.floor(height / 5)));
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {shown.map((c) => (
        <Chart key={c.title} title={c.title} points={c.points} width={width} height={each} format={c.format} color={c.color} />
      ))}
    </Box>
  );
}
