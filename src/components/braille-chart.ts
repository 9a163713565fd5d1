/** A line chart drawn with braille dots: each character cell holds 2×4 dots. */

export interface Point {
  /** Time in milliseconds since the epoch. */
  t: number;
  v: number;
}

export interface ChartOptions {
  width: number;
  /** Lines for the plot, the axis and the time labels together (at least 3). */
  height: number;
  format?: (v: number) => string;
  time?: (t: number) => string;
}

export interface ChartSummary {
  current: number;
  min: number;
  max: number;
}

const BRAILLE = 0x2800;
// Dot bits by [x][y] inside a cell.
const DOT = [
  [0x01, 0x02, 0x04, 0x40],
  [0x08, 0x10, 0x20, 0x80],
];

export const defaultFormat = (v: number) => (Math.abs(v) >= 1000 ? v.toExponential(1) : Number.isInteger(v) ? String(v) : v.toFixed(1));
export const utcTime = (t: number) => new Date(t).toISOString().slice(11, 16);

export function summarize(points: readonly Point[]): ChartSummary | null {
  if (points.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    min = Math.min(min, p.v);
    max = Math.max(max, p.v);
  }
  return { current: points[points.length - 1]!.v, min, max };
}

/** The chart as lines of text: y-axis labels, the plot, the axis, then time labels. */
export function renderChart(points: readonly Point[], opts: ChartOptions): string[] {
  const format = opts.format ?? defaultFormat;
  const time = opts.time ?? utcTime;
  const summary = summarize(points);
  const plotRows = Math.max(1, opts.height - 2);
  if (!summary) return ['no data'];
  const { min, max } = summary;
  const labels = [format(max), format((min + max) / 2), format(min)];
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const cols = Math.max(2, opts.width - labelWidth - 2);
  const dotsX = cols * 2;
  const dotsY = plotRows * 4;
  const t0 = points[0]!.t;
  const t1 = points[points.length - 1]!.t;
  const span = t1 - t0 || 1;
  const range = max - min || 1;

  // Average the points that fall into each dot column; empty columns stay undefined.
  const sums = new Array<number>(dotsX).fill(0);
  const counts = new Array<number>(dotsX).fill(0);
  for (const p of points) {
    const x = Math.min(dotsX - 1, Math.floor(((p.t - t0) / span) * dotsX));
    sums[x]! += p.v;
    counts[x]!++;
  }
  const cells = Array.from({ length: plotRows }, () => new Array<number>(cols).fill(0));
  const plot = (x: number, y: number) => {
    const row = Math.floor(y / 4);
    cells[row]![Math.floor(x / 2)]! |= DOT[x % 2]![y % 4]!;
  };
  let prevY: number | undefined;
  for (let x = 0; x < dotsX; x++) {
    if (counts[x] === 0) continue;
    const v = sums[x]! / counts[x]!;
    // Row 0 is the top: the largest value.
    const y = dotsY - 1 - Math.round(((v - min) / range) * (dotsY - 1));
    // Join to the previous point so steep changes stay a line.
    const from = prevY ?? y;
    for (let yy = Math.min(from, y); yy <= Math.max(from, y); yy++) plot(x, yy);
    prevY = y;
  }

  const labelFor = (row: number) => {
    if (row === 0) return labels[0]!;
    if (row === plotRows - 1) return labels[2]!;
    if (row === Math.floor((plotRows - 1) / 2) && plotRows > 2) return labels[1]!;
    return '';
  };
  const lines = cells.map((row, i) => `${labelFor(i).padStart(labelWidth)} ┤${row.map((b) => String.fromCharCode(BRAILLE + b)).join('')}`);
  lines.push(`${' '.repeat(labelWidth)} └${'─'.repeat(cols)}`);
  const first = time(t0);
  const last = time(t1);
  const mid = time(t0 + span / 2);
  const axis = new Array<string>(cols).fill(' ');
  const put = (at: number, text: string) => [...text].forEach((ch, i) => at + i < cols && at + i >= 0 && (axis[at + i] = ch));
  put(0, first);
  if (cols >= first.length + mid.length + last.length + 4) put(Math.floor(cols / 2 - mid.length / 2), mid);
  put(cols - last.length, last);
  lines.push(`${' '.repeat(labelWidth + 2)}${axis.join('')}`);
  return lines;
}
