/**
 * vmtui/service as a test suite meets it: in a fresh Node process, the time
 * from calling startService() to its first answered API request (GET
 * /v4/regions), and the whole process from spawn to that answer (loading the
 * bundle included), each as a ratio to a bare `node -e ''` start and exit.
 * Median of RUNS (default 15) of each, taking turns, in the same run.
 * Run: npm run build && npx tsx bench/service-library.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const RUNS = Number(process.env.RUNS ?? 15);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const LIBRARY = resolve('dist/service.js');
if (!existsSync(LIBRARY)) throw new Error('no dist/service.js: run npm run build first');

// What a test suite's setup does, timed from inside: the process prints the milliseconds it measured.
const SCRIPT = `
const { startService } = require(${JSON.stringify(LIBRARY)});
const t0 = performance.now();
startService().then(async (svc) => {
  const res = await fetch(svc.baseUrl + '/regions', { headers: { authorization: 'Bearer ' + svc.token } });
  if (res.status !== 200) throw new Error('status ' + res.status);
  await res.arrayBuffer();
  process.stdout.write(String(performance.now() - t0));
  await svc.close();
});`;

const wall = (args: string[]) => {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return { ms: performance.now() - t0, out: run.stdout };
};

// Warm the file cache once: a test suite's first run is not what repeats.
wall(['-e', SCRIPT]);
const bare: number[] = [];
const inProcess: number[] = [];
const whole: number[] = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(wall(['-e', '']).ms);
  const started = wall(['-e', SCRIPT]);
  inProcess.push(Number(started.out));
  whole.push(started.ms);
}
const line = (label: string, xs: number[]) => `${label}: ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
console.log(line("node -e ''", bare));
console.log(line('startService() → first answer', inProcess));
console.log(line('process spawn → first answer, exit included', whole));
console.log(`ratio startService()→answer / node -e '': ${(median(inProcess) / median(bare)).toFixed(2)}`);
console.log(`ratio whole process / node -e '': ${(median(whole) / median(bare)).toFixed(2)}`);
