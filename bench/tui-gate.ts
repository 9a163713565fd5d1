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
 * The difference is within what the machine's load moves a frame, so the
 * gate's own work is also timed in process: every string of a frame of that
 * list (the 38 rows in view, each cell as the table makes it visible and as
 * <Text> passes it again), 2,000 frames, the median of 9 runs.
 * Run: npx tsx bench/tui-gate.ts   (ROUNDS, PRESSES, ROWS change the sizes; E2E=0 times the gate in process only)
 */
import { buildVariant, removeBuild } from './lib/builds.js';
import { cpuMs, openOnStub } from './lib/instances-app.js';
import { PAYLOAD } from '../test/helpers/hostile.js';
import { ApiClient } from '../src/api/client.js';
import { createAppContext } from '../src/app/context.js';
import { visible } from '../src/app/visible.js';
import { fit } from '../src/components/cells.js';
import { cellText } from '../src/components/table-layout.js';
import { screens } from '../src/screens/index.js';
import { syntheticInstances } from './lib/synthetic.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PRESSES = Number(process.env.PRESSES ?? 150);
const ROWS = Number(process.env.ROWS ?? 10_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(entry: string, suffix: string) {
  const app = await openOnStub(ROWS, { entry, suffix });
  const { proc } = app;
  let onOutput: (() => void) | undefined;
  proc.onData(() => onOutput?.());
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
  await app.close();
  return { frame: median(times), cpu };
}

/** The gate's own work on one frame of the list: each cell made visible by fit, then passed again by <Text>; µs per frame. */
function gateWork(suffix: string): number {
  const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'bench' });
  const app = createAppContext({ client, screens, session: { endpoint: client.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 } });
  const columns = app.screens.get('instances').list!.columns;
  const rows = syntheticInstances(ROWS).map((r) => ({ ...r, label: r.label + suffix, tags: r.tags.map((t) => t + suffix) }));
  // The cells' text is made once, outside the timing: what is timed is the gate alone.
  const texts = rows.slice(0, 38).flatMap((row) => columns.map((c) => cellText(c, row)));
  const fitted = texts.map((t) => fit(t, 24));
  const runs: number[] = [];
  for (let r = 0; r < 9; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) {
      for (const t of texts) visible(t);
      for (const t of fitted) visible(t, true);
    }
    runs.push(((performance.now() - t0) / 2000) * 1000);
  }
  return median(runs);
}

for (const [what, suffix] of [['plain rows', ''], ['every label and tag hostile', PAYLOAD]] as const) console.log(`gate's own work per frame, ${what}: ${gateWork(suffix).toFixed(1)} µs`);

if (process.env.E2E === '0') process.exit(0);
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
