import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Chart } from '../../src/components/Chart.js';
import { FixedLine, Text } from '../../src/components/Text.js';
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

describe('FixedLine', () => {
  /** The texts Ink keeps as it measures them for layout (its cache is a module's Map of text to { width, height }): those holding `marker`. */
  const measuredWhile = (marker: string, draw: () => void) => {
    const seen = new Set<string>();
    const set = Map.prototype.set;
    Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      if (typeof key === 'string' && key.includes(marker) && typeof value === 'object' && value !== null && 'height' in value) seen.add(key);
      return set.call(this, key, value);
    };
    try {
      draw();
    } finally {
      Map.prototype.set = set;
    }
    return seen;
  };
  const lines = Array.from({ length: 30 }, (_, i) => `zq-${i} ┤⠀⣀⡤ 10:${String(i).padStart(2, '0')}`);

  it('shows its line, gated and fitted to the width, in its style; Ink measures only the blank it stands in for', () => {
    const { lastFrame, rerender } = render(<FixedLine text={'a\u001b[2Jbcd'} width={6} />);
    expect(lastFrame()).toBe('a␛[2Jb'.slice(0, 5) + '…');
    const seen = measuredWhile('zq-', () => {
      for (const line of lines) rerender(<FixedLine color="cyan" text={line} width={30} />);
    });
    expect(lastFrame()).toBe(lines.at(-1));
    expect([...seen]).toEqual([]);
    // The control: the same lines in a plain <Text> are measured one by one (and kept by Ink for good).
    const plain = render(<Text>{lines[0]}</Text>);
    const measured = measuredWhile('zq-', () => {
      for (const line of lines) plain.rerender(<Text>{line}</Text>);
    });
    expect(measured.size).toBeGreaterThanOrEqual(lines.length - 1);
  });
});
