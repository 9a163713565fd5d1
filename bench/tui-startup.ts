/**
 * Process start → first frame; → first frame with data (the first of the home
 * view's counts); → the home view complete (every count), for the built app
 * in a pseudo-terminal: against a service in this process (--api-url) and on
 * the embedded demo account (its first run, which seeds the data file, is
 * left out). Median of 10 runs each, the two kinds taking turns, after a
 * first run of each that stays open long enough to save its code caches
 * (src/boot/code-cache.ts), as any first use of the app does. Each frame is
 * timed by when the app's write that completed it reached the terminal.
 * Run: npm run build && npx tsx bench/tui-startup.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnApp } from '../test/helpers/pty.js';
import { OWNER_TOKEN, startTestService } from '../test/helpers/service.js';

const RUNS = Number(process.env.RUNS ?? 10);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const CODE_CACHE_SAVED_MS = 3000;
// The home view's count column holds a number, or … while it loads: some number, then no … left.
const A_COUNT = /^[› ] .{18} \d/m;
const EVERY_COUNT = /(?<![^])(?![^]*^[› ] .{18} …)[^]*^[› ] .{18} \d/m;

async function timeRun(args: string[], env: Record<string, string | undefined>, stay = 0) {
  const t0 = performance.now();
  const app = spawnApp(args, { env, cols: 120, rows: 40 });
  // When the app's write that completed the frame reached the terminal.
  const since = ({ at }: { at: number }) => at - t0;
  const frame = app.shown('? help', 30_000).then(since);
  const data = app.shown(A_COUNT, 30_000).then(since);
  const complete = await app.shown(EVERY_COUNT, 30_000).then(since);
  const times = { frame: await frame, data: await data, complete };
  await new Promise((resolve) => setTimeout(resolve, stay));
  app.press('q');
  await app.exited;
  return times;
}

type Times = { frame: number; data: number; complete: number };

function report(label: string, runs: Times[]) {
  const of = (k: keyof Times) => runs.map((r) => r[k]);
  const line = (k: keyof Times) => `${median(of(k)).toFixed(0)} ms (min ${Math.min(...of(k)).toFixed(0)}, max ${Math.max(...of(k)).toFixed(0)})`;
  console.log(`${label}:\n  first frame ${line('frame')}\n  first frame with data ${line('data')}\n  home view complete ${line('complete')}`);
  return median(of('data'));
}

function nodeStart() {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  return performance.now() - t0;
}

// Data, configuration and code caches of the benchmark's own.
const home = mkdtempSync(join(tmpdir(), 'vmtui-bench-'));
const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
const svc = await startTestService({ seed: 'demo' });
// Where the machine sets NODE_EXTRA_CA_CERTS, every Node process reads those certificates as it starts (Node 20 does, TLS or not):
// the embedded demo is timed without it as well, as it starts on a machine that does not set it.
const extraCerts = process.env.NODE_EXTRA_CA_CERTS !== undefined;
const kinds: { label: string; args: string[]; env: Record<string, string | undefined>; runs: Times[] }[] = [
  { label: '--api-url (a service in the benchmark process)', args: ['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], env, runs: [] },
  { label: 'embedded demo (service in the app)', args: [], env, runs: [] },
  ...(extraCerts ? [{ label: 'embedded demo, NODE_EXTRA_CA_CERTS unset', args: [], env: { ...env, NODE_EXTRA_CA_CERTS: undefined }, runs: [] }] : []),
];
for (const kind of kinds) await timeRun(kind.args, kind.env, CODE_CACHE_SAVED_MS);
// The kinds take turns (and Node's own start with them), so that each sees the machine as it is at the time: its speed drifts.
const nodeStarts: number[] = [];
for (let i = 0; i < RUNS; i++) {
  nodeStarts.push(nodeStart());
  for (const kind of i % 2 ? [...kinds].reverse() : kinds) kind.runs.push(await timeRun(kind.args, kind.env));
}
await svc.close();
rmSync(home, { recursive: true, force: true });

// What Node's own start costs on this machine: the floor under every figure below.
console.log(`node -e '' (Node's own start and exit): ${median(nodeStarts).toFixed(0)} ms${extraCerts ? ' (NODE_EXTRA_CA_CERTS is set: Node reads those certificates at every start)' : ''}`);
const [remote, embedded] = kinds.map((kind) => report(kind.label, kind.runs));
console.log(`ratio embedded/remote (first data): ${(embedded! / remote!).toFixed(2)}   (aim: embedded first frame with data ≤ 300 ms)`);
