/**
 * What the gate (src/app/visible.ts) costs per frame, end to end: the built
 * app in a 120×40 pseudo-terminal on a list of 10,000 instances (a stub API),
 * `j` pressed every 30 ms (each press its own frame; `g` every 50th, a frame
 * whose rows all change), each press timed until the app's next output, and
 * the app's CPU time per press. Two builds take turns in the same run: the
 * app, and `--no-gate` (server text passed as it came). Once with plain rows
 * (the gate's fast path: one scan of each string), once with the issue's
 * payload in every label and tag (every such string rewritten).
 * Prints the medians over the runs, and the ratios gate / no gate.
 * Run: npx tsx bench/tui-gate.ts   (ROUNDS, PRESSES, ROWS change the sizes)
 */
import { buildVariant, removeBuild } from './lib/builds.js';
import { cpuMs, openInstancesList } from './lib/instances-app.js';
import { startStubApi } from './lib/stub-api.js';
import { PAYLOAD } from '../test/helpers/hostile.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PRESSES = Number(process.env.PRESSES ?? 150);
const ROWS = Number(process.env.ROWS ?? 10_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(entry: string, suffix: string) {
  const api = await startStubApi(ROWS, suffix);
  const proc = await openInstancesList([entry, '--api-url', api.baseUrl, '--token', 'bench-token', '--refresh', '3600'], ROWS, { timeoutMs: 300_000 });
  let onOutput: (() => void) | undefined;
  proc.onData(() => onOutput?.());
  await sleep(300);
  const times: number[] = [];
  const cpu0 = cpuMs(proc.pid);
  for (let i = 0; i < PRESSES; i++) {
    const got = new Promise<void>((r) => (onOutput = r));
    const t0 = performance.now();
    proc.write(i % 50 === 49 ? 'g' : 'j');
    await Promise.race([got, sleep(2000)]);
    times.push(performance.now() - t0);
    onOutput = undefined;
    await sleep(30);
  }
  const cpu = (cpuMs(proc.pid) - cpu0) / PRESSES;
  proc.write('q');
  await sleep(200);
  proc.kill();
  await api.close();
  return { frame: median(times), cpu };
}

const builds = { gate: buildVariant(), none: buildVariant(['--no-gate']) };
try {
  for (const [what, suffix] of [['plain rows', ''], ['every label and tag hostile', PAYLOAD]] as const) {
    const runs = { gate: [] as { frame: number; cpu: number }[], none: [] as { frame: number; cpu: number }[] };
    // Turns, so a change in the machine's load falls on both builds.
    for (let i = 0; i < ROUNDS; i++) for (const side of ['gate', 'none'] as const) runs[side].push(await measure(builds[side], suffix));
    const m = (side: 'gate' | 'none', k: 'frame' | 'cpu') => median(runs[side].map((r) => r[k]));
    console.log(`${what} (${ROWS} instances, ${ROUNDS} runs of ${PRESSES} keys per build)`);
    for (const [k, title] of [['frame', 'key → frame'], ['cpu', 'app CPU per key']] as const)
      console.log(`  ${title}: ${m('gate', k).toFixed(2)} ms with the gate, ${m('none', k).toFixed(2)} ms without: ratio ${(m('gate', k) / m('none', k)).toFixed(2)}`);
  }
} finally {
  removeBuild(builds.gate);
  removeBuild(builds.none);
}
