/**
 * A list that scrolls by a row moves every line of its band up or down by
 * one: line by line, the frame changed everywhere, yet the terminal holds all
 * but one of its lines already. A scrolling region moved by `by` rows turns
 * the screen into all of them at once (as ncurses does), and only the new
 * lines and the changed ones are drawn after.
 */
export interface Shift {
  /** The scrolling region: rows counted from 0, both included. */
  top: number;
  bottom: number;
  /** How far the region's lines move: up when positive (the list scrolled down), down when negative. */
  by: number;
}

// Shifts tried in full (region found, cost counted), the most voted first: a list scrolls by one amount at a time.
const CANDIDATES = 3;
// Rows of the previous frame a repeated line votes for: a column of identical lines says little about where it moved.
const VOTES_PER_LINE = 4;

const lineAt = (lines: readonly string[], row: number) => lines[row] ?? '';

/** The rows `screen` shows (blank past its end) after the terminal scrolls `shift`: the lines moved, the rows they left blank. */
export function shifted(screen: readonly string[], height: number, shift: Shift): string[] {
  const rows = Array.from({ length: height }, (_, row) => lineAt(screen, row));
  const { top, bottom, by } = shift;
  for (let row = top; row <= bottom; row++) {
    const from = row + by;
    rows[row] = from >= top && from <= bottom ? lineAt(screen, from) : '';
  }
  return rows;
}

/** The bytes that drawing the lines of `after` which `screen` does not already show costs. */
function drawCost(screen: readonly string[], after: readonly string[], height: number, cost: (row: number) => number): number {
  let bytes = 0;
  for (let row = 0; row < height; row++) if (lineAt(after, row) !== lineAt(screen, row)) bytes += cost(row);
  return bytes;
}

/**
 * For each candidate `by`, the band of rows where taking the line from `by`
 * rows away saves the most: a row gains what drawing it costs when its new
 * line is the moved one and it changed, and loses as much when it was right
 * where it was and the move would spoil it (Kadane's maximum subarray).
 */
function bestBand(before: readonly string[], after: readonly string[], height: number, by: number, cost: (row: number) => number) {
  let best: { first: number; last: number } | undefined;
  let bestGain = 0;
  let sum = 0;
  let start = 0;
  for (let row = Math.max(0, -by); row < Math.min(height, height - by); row++) {
    const now = lineAt(after, row);
    const was = lineAt(before, row);
    const gain = now === lineAt(before, row + by) ? (now === was ? 0 : cost(row)) : now === was ? -cost(row) : 0;
    if (sum <= 0) {
      sum = gain;
      start = row;
    } else sum += gain;
    if (sum > bestGain) {
      bestGain = sum;
      best = { first: start, last: row };
    }
  }
  return best;
}

/**
 * The shift after which turning `before` (on screen) into `after` costs the
 * fewest bytes, counting the scroll's own (`overhead`); undefined when none
 * beats drawing the changed lines as they are. `cost(row)` is what drawing
 * after's line at `row` costs. Candidates come from where the changed lines
 * of `after` stood in `before`: one lookup per line.
 */
export function cheapestShift(
  before: readonly string[],
  after: readonly string[],
  height: number,
  cost: (row: number) => number,
  overhead: (shift: Shift) => number,
): Shift | undefined {
  const rowsOf = new Map<string, number[]>();
  for (let row = 0; row < height; row++) {
    const line = lineAt(before, row);
    if (line === '') continue;
    const rows = rowsOf.get(line);
    if (rows) rows.push(row);
    else rowsOf.set(line, [row]);
  }
  const votes = new Map<number, number>();
  for (let row = 0; row < height; row++) {
    const line = lineAt(after, row);
    if (line === '' || line === lineAt(before, row)) continue;
    for (const from of rowsOf.get(line)?.slice(0, VOTES_PER_LINE) ?? []) votes.set(from - row, (votes.get(from - row) ?? 0) + 1);
  }
  if (votes.size === 0) return undefined;
  const candidates = [...votes].sort((a, b) => b[1] - a[1]).slice(0, CANDIDATES);
  let cheapest: Shift | undefined;
  let least = drawCost(before, after, height, cost);
  for (const [by] of candidates) {
    const band = bestBand(before, after, height, by, cost);
    if (!band) continue;
    // The band holds the rows that take a moved line; the region reaches on to the rows those lines leave.
    const shift = by > 0 ? { top: band.first, bottom: band.last + by, by } : { top: band.first + by, bottom: band.last, by };
    const bytes = overhead(shift) + drawCost(shifted(before, height, shift), after, height, cost);
    if (bytes < least) {
      least = bytes;
      cheapest = shift;
    }
  }
  return cheapest;
}
