/**
 * The xray at 100 and 10,000 instances, end to end: the built app in a
 * pseudo-terminal against the stub API, the instance list loaded; `x` and
 * Esc in turn (the tree opened on the selected instance, its first branch
 * read, then closed), each `x` timed to the next frame and pressed 30 ms after
 * the list is back; then, in the tree, `j`/`k` and →/← (a branch opened and
 * closed in place). The baseline is `j` in the same list, same process, 30 ms
 * apart as every key here is. Medians and p95 of PRESSES presses.
 * BEFORE=path/to/vmtui.js (another build) runs it too, the two builds taking
 * turns RUNS times on one stub: medians of the runs, and the ratios of `x`
 * (its frame, and the app's CPU for an `x` and its Esc).
 * Run: npm run build && npx tsx bench/tui-xray.ts   (PRESSES=100 SIZES=100,10000 BEFORE=… RUNS=3)
 */
import { cpuMs, openOnStub } from './lib/instances-app.js';
import { comparedBuilds, median } from './lib/builds.js';
import { keyFrameTimes, shown } from './lib/key-frame.js';
import { startStubApi } from './lib/stub-api.js';

const PRESSES = Number(process.env.PRESSES ?? 100);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const { builds: BUILDS, runs: RUNS } = comparedBuilds();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Timing = { p50: number; p95: number };
type Run = Record<'plain' | 'open' | 'move' | 'branch', Timing> & { pairCpu: number };

async function measure(rows: number, entry: string, api: Awaited<ReturnType<typeof startStubApi>>): Promise<Run> {
  const app = await openOnStub(rows, { api, entry });
  const { proc } = app;
  const plain = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  const cpu0 = cpuMs(proc.pid);
  // The tree's first branch is drawn after the tree's first frame, the list after Esc: each waited for, so every x meets the list at rest.
  const open = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? 'x' : '\x1b'), PRESSES * 2, { timed: (i) => i % 2 === 0, settled: (i) => (i % 2 === 0 ? /What \S+ touches/ : /\d+ items/) });
  const pairCpu = (cpuMs(proc.pid) - cpu0) / PRESSES;
  proc.write('x');
  await sleep(500);
  const move = await keyFrameTimes(proc, (i) => (i % 10 < 5 ? 'j' : 'k'), PRESSES);
  const branch = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? '\x1b[D' : '\x1b[C'), PRESSES);
  await app.close();
  return { plain, open, move, branch, pairCpu };
}

for (const rows of SIZES) {
  const api = await startStubApi(rows);
  const runs = new Map<string, Run[]>(BUILDS.map(([name]) => [name, []]));
  for (let r = 0; r < RUNS; r++) for (const [name, entry] of BUILDS) runs.get(name)!.push(await measure(rows, entry, api));
  await api.close();
  const of = (name: string, key: Exclude<keyof Run, 'pairCpu'>): Timing => {
    const all = runs.get(name)!.map((run) => run[key]);
    return { p50: median(all.map((t) => t.p50)), p95: median(all.map((t) => t.p95)) };
  };
  const pairCpu = (name: string) => median(runs.get(name)!.map((run) => run.pairCpu));
  for (const [name] of BUILDS) {
    const at = `${String(rows).padStart(6)} instances${BUILDS.length > 1 ? `, ${name}` : ''}${RUNS > 1 ? ` (medians of ${RUNS})` : ''}`;
    const plain = of(name, 'plain');
    console.log(`${at}: j in the list ${shown(plain)}`);
    console.log(`${at}: x (the xray opens) ${shown(of(name, 'open'), plain)}; the app's CPU for an x and its Esc ${pairCpu(name).toFixed(1)} ms${RUNS > 1 ? `; p95 of each run ${runs.get(name)!.map((run) => run.open.p95.toFixed(2)).join(', ')} ms` : ''}`);
    console.log(`${at}: j/k in the tree ${shown(of(name, 'move'), plain)}; ←/→ closing and opening a branch ${shown(of(name, 'branch'), plain)}   (aim: p95 under 10 ms)`);
  }
  if (process.env.BEFORE) {
    const now = of('this build', 'open');
    const before = of('before', 'open');
    console.log(`${String(rows).padStart(6)} instances, x, this build / before: p50 ${(now.p50 / before.p50).toFixed(2)}, p95 ${(now.p95 / before.p95).toFixed(2)}, CPU for an x and its Esc ${(pairCpu('this build') / pairCpu('before')).toFixed(2)}`);
  }
}
