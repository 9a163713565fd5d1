/**
 * Key press → frame, end to end: the built app (dist/vmtui.js, production
 * React) in a pseudo-terminal against a stub API holding 100, 10,000 and
 * 100,000 instances. With the list loaded, `j` is pressed every 30 ms
 * (bench/lib/key-frame.ts) and each press is timed until the app's next output;
 * the first presses after the load are the ones a long list makes slow.
 * Also per key: the app's CPU and its page faults (touching memory the
 * garbage collector had given back: slow on a virtual machine).
 * BEFORE=path/to/vmtui.js (another build, e.g. a copy of an earlier dist/)
 * runs it too, the two builds taking turns RUNS times on one stub, and prints
 * the medians and their ratios.
 * Run: npm run build && npx tsx bench/tui-keys.ts   (PRESSES=200 SIZES=100,10000 BEFORE=… RUNS=3)
 */
import { readFileSync } from 'node:fs';
import { cpuMs, openOnStub } from './lib/instances-app.js';
import { comparedBuilds, median } from './lib/builds.js';
import { keyFrameTimes } from './lib/key-frame.js';
import { startStubApi } from './lib/stub-api.js';

const PRESSES = Number(process.env.PRESSES ?? 200);
const SIZES = (process.env.SIZES ?? '100,10000,100000').split(',').map(Number);
const { builds: BUILDS, runs: RUNS } = comparedBuilds();

/** Minor page faults of a process so far. */
const faults = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7]);

interface Run {
  p50: number;
  p95: number;
  cpu: number;
  faults: number;
}

async function measure(rows: number, entry: string, api: Awaited<ReturnType<typeof startStubApi>>): Promise<Run> {
  const app = await openOnStub(rows, { api, entry, nodeArgs: process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [] });
  const cpu0 = cpuMs(app.proc.pid);
  const faults0 = faults(app.proc.pid);
  const { p50, p95 } = await keyFrameTimes(app.proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  const run = { p50, p95, cpu: (cpuMs(app.proc.pid) - cpu0) / PRESSES, faults: (faults(app.proc.pid) - faults0) / PRESSES };
  await app.close();
  return run;
}

const results = new Map<number, Run>();
for (const size of SIZES) {
  const api = await startStubApi(size);
  const runs = new Map<string, Run[]>(BUILDS.map(([name]) => [name, []]));
  for (let r = 0; r < RUNS; r++) for (const [name, entry] of BUILDS) runs.get(name)!.push(await measure(size, entry, api));
  await api.close();
  const of = (name: string): Run => {
    const all = runs.get(name)!;
    return { p50: median(all.map((r) => r.p50)), p95: median(all.map((r) => r.p95)), cpu: median(all.map((r) => r.cpu)), faults: median(all.map((r) => r.faults)) };
  };
  const now = of('this build');
  results.set(size, now);
  for (const [name] of BUILDS) {
    const r = of(name);
    console.log(`${String(size).padStart(7)} rows, ${name}: key → frame p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms; app CPU ${r.cpu.toFixed(1)} ms, ${r.faults.toFixed(0)} page faults per key${RUNS > 1 ? ` (medians of ${RUNS})` : ''}`);
  }
  if (process.env.BEFORE) {
    const before = of('before');
    console.log(`${String(size).padStart(7)} rows, this build / before: p50 ${(now.p50 / before.p50).toFixed(2)}, p95 ${(now.p95 / before.p95).toFixed(2)}, CPU ${(now.cpu / before.cpu).toFixed(2)}, page faults ${(now.faults / Math.max(1, before.faults)).toFixed(2)}`);
  }
}
const small = results.get(SIZES[0]!)!;
const large = results.get(SIZES[SIZES.length - 1]!)!;
console.log(`ratio ${SIZES[SIZES.length - 1]}/${SIZES[0]} rows: p50 ${(large.p50 / small.p50).toFixed(2)}, p95 ${(large.p95 / small.p95).toFixed(2)}   (aim: p95 ≤ 10 ms at every size)`);
