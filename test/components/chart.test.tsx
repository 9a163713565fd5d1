import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Chart } from '../../src/components/Chart.js';
import { renderChart } from '../../src/components/braille-chart.js';

const t0 = Date.UTC(2024, 0, 1, 0, 0);
const series = Array.from({ length: 288 }, (_, i) => ({ t: t0 + i * 5 * 60_000, v: 50 + 40 * Math.sin(i / 20) }));

describe('Chart', () => {
  it('draws a braille line with y-axis labels, time labels, current, min and max', () => {
    const { lastFrame } = render(<Chart title="CPU %" points={series} width={70} height={10} />);
    const frame = lastFrame()!;
    const lines = frame.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^CPU %  current [\d.]+  min 10\.0  max 90\.0$/);
    // Top label is the max, bottom plot row the min.
    expect(lines[1]).toMatch(/^90\.0 ┤/);
    expect(lines[7]).toMatch(/^10\.0 ┤/);
    expect(lines[8]).toMatch(/^\s+└─+$/);
    expect(lines[9]).toMatch(/^\s+00:00\s+11:5\d\s+23:55$/);
    expect(frame).toMatch(/[\u2801-\u28ff]/);
    expect(lines.every((l) => l.length <= 70)).toBe(true);
  });

  it('closes up the title line rather than cutting off the max when the column is narrow', () => {
    const { lastFrame } = render(<Chart title="CPU %" points={series} width={37} height={10} />);
    expect(lastFrame()!.split('\n')[0]).toMatch(/^CPU % current [\d.]+ min 10\.0 max 90\.0$/);
  });

  it('puts a rising series low on the left and high on the right', () => {
    const rising = Array.from({ length: 20 }, (_, i) => ({ t: t0 + i * 1000, v: i }));
    const lines = renderChart(rising, { width: 30, height: 6, format: String });
    const plot = lines.slice(0, 4).map((l) => l.slice(l.indexOf('┤') + 1));
    expect(plot[0]!.trimEnd().at(-1)).not.toBe('⠀');
    expect(plot[3]![0]).not.toBe('⠀');
    expect(plot[0]![0]).toBe('⠀');
  });

  it('says so when there is no data, and copes with a flat series', () => {
    expect(renderChart([], { width: 30, height: 5 })).toEqual(['no data']);
    const flat = renderChart([{ t: t0, v: 3 }, { t: t0 + 1000, v: 3 }], { width: 30, height: 5 });
    expect(flat[0]).toMatch(/^3 ┤/);
  });
});
