import { useMemo } from 'react';
import { Box } from 'ink';
import { FixedLine, Text } from './Text.js';
import { defaultFormat, renderChart, summarize, type Point } from './braille-chart.js';

interface Props {
  title: string;
  points: readonly Point[];
  width: number;
  /** Lines in all, the title line included. */
  height: number;
  format?: (v: number) => string;
  color?: string;
}

/** A terminal line chart of one numeric series with current, min and max. */
export function Chart({ title, points, width, height, format = defaultFormat, color = 'cyan' }: Props) {
  const lines = useMemo(() => renderChart(points, { width, height: height - 1, format }), [points, width, height, format]);
  const summary = summarize(points);
  const stats = summary ? [`current ${format(summary.current)}`, `min ${format(summary.min)}`, `max ${format(summary.max)}`] : [];
  // Wide values in a narrow column: single spaces keep the max in view rather than cutting it off.
  const gap = title.length + stats.reduce((n, s) => n + s.length + 2, 0) <= width ? '  ' : ' ';
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      {/* The figures and the plot change at every refresh: lines of fixed width (see FixedLine). */}
      <Box>
        <Text bold wrap="truncate-end">
          {title}
        </Text>
        {stats.length > 0 && <FixedLine dimColor text={gap + stats.join(gap)} width={width - title.length} />}
      </Box>
      {lines.map((line, i) => (
        <FixedLine key={i} color={i < lines.length - 2 ? color : undefined} text={line} width={width} />
      ))}
    </Box>
  );
}
