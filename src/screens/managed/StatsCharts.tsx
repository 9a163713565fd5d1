import { Box } from 'ink';
import { Chart } from '../../components/Chart.js';
import type { Point } from '../../components/braille-chart.js';

export interface Series {
  title: string;
  points: readonly Point[];
  format?: (v: number) => string;
  color?: string;
}

/** Charts narrower than this go one per row: the title line holds current, min and max. */
const MIN_CHART_WIDTH = 46;
/** Title, two plot rows, the axis and the time labels. */
export const MIN_CHART_HEIGHT = 5;
const MAX_CHART_HEIGHT = 14;

export interface ChartGrid {
  columns: number;
  rows: number;
  chartHeight: number;
}

/** Charts side by side when they fit, each as tall as the room allows (never below MIN_CHART_HEIGHT: then the rows scroll). */
export function chartGrid(count: number, width: number, height: number): ChartGrid {
  const columns = width >= MIN_CHART_WIDTH * 2 + 2 ? 2 : 1;
  const rows = Math.ceil(count / columns);
  const chartHeight = Math.max(MIN_CHART_HEIGHT, Math.min(MAX_CHART_HEIGHT, Math.floor(height / Math.max(1, rows))));
  return { columns, rows, chartHeight };
}

interface Props {
  series: readonly Series[];
  grid: ChartGrid;
  width: number;
  /** First chart row shown, and how many. */
  firstRow: number;
  rowCount: number;
}

/** Rows of charts, each with its current, min and max values and a time axis. */
export function StatsCharts({ series, grid, width, firstRow, rowCount }: Props) {
  const chartWidth = Math.floor((width - (grid.columns - 1) * 2) / grid.columns);
  const rows = Array.from({ length: grid.rows }, (_, r) => series.slice(r * grid.columns, (r + 1) * grid.columns)).slice(firstRow, firstRow + rowCount);
  return (
    <Box flexDirection="column">
      {rows.map((row, r) => (
        <Box key={firstRow + r} flexDirection="row" gap={2} height={grid.chartHeight}>
          {row.map((s) => (
            <Box key={s.title} width={chartWidth} flexDirection="column">
              <Chart title={s.title} points={s.points} width={chartWidth} height={grid.chartHeight} format={s.format} color={s.color} />
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}
