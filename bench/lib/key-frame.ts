import type { IPty } from '@lydell/node-pty';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Key press → the app's next output, for `presses` presses of `key(i)`, 30 ms
 * apart (past the 16 ms frame throttle, so each press gets its own frame).
 * The first 10 are warm-up; returns p50 and p95 of the rest (of those `timed`
 * says, when the sequence mixes keys that only set the scene), in ms.
 * `settled(i)`: what the output after press i shows once the view it opened
 * is whole (a tree whose first branch is read after its first frame), waited
 * for, then 20 ms without output (a list read again behind the rows it shows
 * draws again), before the gap: the next press meets a quiet app.
 */
export async function keyFrameTimes(
  proc: IPty,
  key: (i: number) => string,
  presses: number,
  { timed = () => true, gapMs = 30, settled }: { timed?: (i: number) => boolean; gapMs?: number; settled?: (i: number) => RegExp } = {},
): Promise<{ p50: number; p95: number }> {
  let onOutput: (() => void) | undefined;
  let since = '';
  let lastOutput = 0;
  const listening = proc.onData((d) => {
    since += d;
    lastOutput = performance.now();
    onOutput?.();
  });
  const times: number[] = [];
  for (let i = 0; i < presses; i++) {
    since = '';
    const got = new Promise<void>((r) => (onOutput = r));
    const t0 = performance.now();
    proc.write(key(i));
    await Promise.race([got, sleep(2000)]);
    if (timed(i)) times.push(performance.now() - t0);
    else times.push(Number.NaN);
    const whole = settled?.(i);
    if (whole) {
      const end = performance.now() + 2000;
      while ((!whole.test(since) || performance.now() - lastOutput < 20) && performance.now() < end) await sleep(1);
    }
    onOutput = undefined;
    await sleep(gapMs);
  }
  listening.dispose();
  const sorted = times.slice(10).filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** A timing as the benchmarks print it: p50 and p95, and the p95's ratio to a baseline's of the same run when given. */
export const shown = (t: { p50: number; p95: number }, base?: { p95: number }) =>
  `p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms${base ? ` (p95 ratio ${(t.p95 / base.p95).toFixed(2)})` : ''}`;
