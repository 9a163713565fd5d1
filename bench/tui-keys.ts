/**
 * Key press → frame, end to end: the built app (dist/vmtui.js, production
 * React) in a pseudo-terminal against a stub API holding 100, 10,000 and
 * 100,000 instances. With the list loaded, `j` is pressed every 30 ms
 * (bench/lib/key-frame.ts) and each press is timed until the app's next output.
 * Run: npm run build && npx tsx bench/tui-keys.ts
 */
import { cpuMs, openOnStub } from './lib/instances-app.js';
import { keyFrameTimes } from './lib/key-frame.js';

const PRESSES = Number(process.env.PRESSES ?? 200);
const SIZES = (process.env.SIZES ?? '100,10000,100000').split(',').map(Number);


async function measure(rows: number) {
  const app = await openOnStub(rows, { nodeArgs: process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [] });
  const cpu0 = cpuMs(app.proc.pid);
  const { p50, p95 } = await keyFrameTimes(app.proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  const cpu = (cpuMs(app.proc.pid) - cpu0) / PRESSES;
  await app.close();
  return { p50, p95, cpu };
}

const results = new Map<number, { p50: number; p95: number; cpu: number }>();
for (const size of SIZES) {
  const r = await measure(size);
  results.set(size, r);
  console.log(`${String(size).padStart(7)} rows: key → frame p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms; app CPU ${r.cpu.toFixed(1)} ms per key`);
}
const small = results.get(SIZES[0]!)!;
const large = results.get(SIZES[SIZES.length - 1]!)!;
console.log(`ratio ${SIZES[SIZES.length - 1]}/${SIZES[0]} rows: p50 ${(large.p50 / small.p50).toFixed(2)}, p95 ${(large.p95 / small.p95).toFixed(2)}   (aim: p95 ≤ 10 ms at every size)`);
