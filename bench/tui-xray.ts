/**
 * The xray at 100 and 10,000 instances, end to end: the built app in a
 * pseudo-terminal against the stub API, the instance list loaded; `x` and
 * Esc in turn (the tree opened on the selected instance, its first branch
 * read, then closed), each `x` timed to the next frame; then, in the tree,
 * `j`/`k` and →/← (a branch opened and closed in place). The baseline is `j`
 * in the same list, same process. Medians and p95 of PRESSES presses.
 * Run: npm run build && npx tsx bench/tui-xray.ts
 */
import { openInstancesList } from './lib/instances-app.js';
import { keyFrameTimes } from './lib/key-frame.js';
import { startStubApi } from './lib/stub-api.js';

const PRESSES = Number(process.env.PRESSES ?? 100);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (t: { p50: number; p95: number }) => `p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms`;

for (const rows of SIZES) {
  const api = await startStubApi(rows);
  const proc = await openInstancesList(['dist/vmtui.js', '--api-url', api.baseUrl, '--token', 'bench-token', '--refresh', '3600'], rows, { timeoutMs: 300_000 });
  await sleep(300);
  const plain = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  // Esc waits for Ink's escape timeout, and the list redraws: 300 ms apart, so each x finds the list again.
  const open = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? 'x' : '\x1b'), PRESSES * 2, (i) => i % 2 === 0, 300);
  proc.write('x');
  await sleep(500);
  const move = await keyFrameTimes(proc, (i) => (i % 10 < 5 ? 'j' : 'k'), PRESSES);
  const branch = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? '\x1b[D' : '\x1b[C'), PRESSES);
  console.log(`${String(rows).padStart(6)} instances: j in the list ${ms(plain)}`);
  console.log(`${String(rows).padStart(6)} instances: x (the xray opens) ${ms(open)} (p95 ratio ${(open.p95 / plain.p95).toFixed(2)})`);
  console.log(`${String(rows).padStart(6)} instances: j/k in the tree ${ms(move)}; ←/→ closing and opening a branch ${ms(branch)} (p95 ratio ${(branch.p95 / plain.p95).toFixed(2)})   (aim: p95 under 10 ms)`);
  proc.write('q');
  await sleep(200);
  proc.kill();
  await api.close();
}
