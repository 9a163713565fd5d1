/**
 * The xray at 100 and 10,000 instances, end to end: the built app in a
 * pseudo-terminal against the stub API, the instance list loaded; `x` and
 * Esc in turn (the tree opened on the selected instance, its first branch
 * read, then closed), each `x` timed to the next frame; then, in the tree,
 * `j`/`k` and →/← (a branch opened and closed in place). The baseline is `j`
 * in the same list, same process. Medians and p95 of PRESSES presses.
 * Run: npm run build && npx tsx bench/tui-xray.ts
 */
import { openOnStub } from './lib/instances-app.js';
import { keyFrameTimes, shown } from './lib/key-frame.js';

const PRESSES = Number(process.env.PRESSES ?? 100);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const rows of SIZES) {
  const app = await openOnStub(rows);
  const { proc } = app;
  const plain = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  // Esc waits for Ink's escape timeout, and the list redraws: 300 ms apart, so each x finds the list again.
  const open = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? 'x' : '\x1b'), PRESSES * 2, (i) => i % 2 === 0, 300);
  proc.write('x');
  await sleep(500);
  const move = await keyFrameTimes(proc, (i) => (i % 10 < 5 ? 'j' : 'k'), PRESSES);
  const branch = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? '\x1b[D' : '\x1b[C'), PRESSES);
  await app.close();
  console.log(`${String(rows).padStart(6)} instances: j in the list ${shown(plain)}`);
  console.log(`${String(rows).padStart(6)} instances: x (the xray opens) ${shown(open, plain)}`);
  console.log(`${String(rows).padStart(6)} instances: j/k in the tree ${shown(move, plain)}; ←/→ closing and opening a branch ${shown(branch, plain)}   (aim: p95 under 10 ms)`);
}
