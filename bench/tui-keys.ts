/**
 * Key press → frame: the whole app (header, list, footer) in ink-testing-library
 * over a synthetic list of 100, 10,000 and 100,000 rows in the data store;
 * `j` is pressed repeatedly and each press is timed until the new frame is
 * written. React runs its production build, as in the bundle.
 * Run: npx tsx bench/tui-keys.ts
 */
process.env.NODE_ENV = 'production';

const { renderApp } = await import('../test/helpers/ink.js');
const { defineScreen } = await import('../src/app/screen.js');
const { syntheticInstances, INSTANCE_COLUMNS } = await import('./synthetic.js');

const PRESSES = 300;
const SIZES = [100, 10_000, 100_000];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const bench = defineScreen({ id: 'bench', title: 'Instances', list: { path: '/bench', columns: INSTANCE_COLUMNS } });

async function measure(size: number) {
  const r = renderApp({ screens: [bench], rows: 40, cols: 120, session: { refreshSeconds: 3600 } });
  r.ctx.data.getState().put({ path: '/bench' }, syntheticInstances(size));
  r.ctx.nav.getState().jump('bench');
  await new Promise((res) => setTimeout(res, 50));
  const times: number[] = [];
  for (let i = 0; i < PRESSES; i++) {
    const before = r.frames.length;
    const t0 = performance.now();
    r.stdin.write(i % 50 === 49 ? 'g' : 'j');
    while (r.frames.length === before) await new Promise((res) => setImmediate(res));
    times.push(performance.now() - t0);
  }
  r.unmount();
  // The first presses warm the JIT up.
  const sorted = times.slice(20).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

const results: Record<number, { p50: number; p95: number }> = {};
for (const size of SIZES) {
  results[size] = await measure(size);
  console.log(`${String(size).padStart(7)} rows: key → frame p50 ${results[size]!.p50.toFixed(2)} ms, p95 ${results[size]!.p95.toFixed(2)} ms`);
}
console.log(`ratio 100k/100: p50 ${(results[100_000]!.p50 / results[100]!.p50).toFixed(2)}, p95 ${(results[100_000]!.p95 / results[100]!.p95).toFixed(2)}  (aim: p95 ≤ 10 ms at every size)`);
process.exit(0);
