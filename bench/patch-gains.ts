/**
 * What each patch of scripts/bundle-patches.mjs still gains: the bundle built
 * without it against the bundle with all of them, runs taking turns, on the
 * measure the patch is for:
 * - start-up patches of the UI: the CPU time the app's process has used when
 *   its first frame, and its first frame with data, reach the terminal (the
 *   home view against a service in this process), wall time beside;
 * - start-up patches of the service: CPU time of `vmtui serve` when it
 *   listens, wall time beside;
 * - drawing patches: the app's CPU per key (j every 30 ms) on 10,000 instances.
 * CPU time, every thread's (/proc/PID/task/ * /schedstat), because wall time on
 * a shared machine stretches with the load of others: the patches' gains are
 * in the CPU work they save.
 * Each build's code caches are saved by a first run (src/boot/code-cache.ts),
 * as any install's first use does. Medians of RUNS runs, with the lowest and
 * highest; a patch shows a gain when its bundle's median beats the other's by
 * more than the mean of their interquartile ranges (the noise of this machine
 * at the time).
 * One patch left out at a time: patches that save the same thing (each lazy
 * Intl.Segmenter saves ICU's load only while no other loads it at start-up;
 * the service's lazy loads together) show little alone and more together, so
 * a patch is not judged by its own line alone: `a+b` leaves out several together.
 * Run: npx tsx bench/patch-gains.ts [patch|patch+patch,...]   (builds its own bundles)
 */
import { spawn as spawnChild } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnApp } from '../test/helpers/pty.js';
import { cpuMs, openInstancesList } from './lib/instances-app.js';
import { OWNER_TOKEN, startTestService } from '../test/helpers/service.js';
import { buildVariant, removeBuild } from './lib/builds.js';
import { startStubApi } from './lib/stub-api.js';

const RUNS = Number(process.env.RUNS ?? 7);
const KEY_PRESSES = Number(process.env.KEY_PRESSES ?? 120);
const CODE_CACHE_SAVED_MS = 2500;

type Measure = 'ui start' | 'service start' | 'CPU per key';
const PATCHES: Record<string, Measure> = {
  'ink-one-frame-per-task': 'ui start',
  'ansi-tokenize-fast-path': 'ui start',
  'string-width-fast-path': 'ui start',
  'slice-ansi-lazy-segmenter': 'ui start',
  'terminal-size-lazy-child-process': 'ui start',
  'shared-interop': 'ui start',
  'fastify-lazy-semver': 'service start',
  'fastify-lazy-servers': 'service start',
  'fastify-unused-parts': 'service start',
  'find-my-way-closures': 'service start',
  'ink-frame-cache': 'CPU per key',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU time of every thread of the process so far, in ms (nanosecond counts, unlike /proc/PID/stat's 10 ms ticks). */
const threadsCpuMs = (pid: number) => {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1e6;
};

const home = mkdtempSync(join(tmpdir(), 'vmtui-bench-patches-'));
const svc = await startTestService({ seed: 'demo' });
const stub = await startStubApi(10_000);
const A_COUNT = /^[› ] .{18} \d/m;

/** Each build its own code cache folder, saved once before the timed runs. */
const cacheOf = (entry: string) => ({ XDG_CACHE_HOME: join(home, entry.replace(/\W/g, '_')) });

async function uiStart(entry: string, stay = 0) {
  const t0 = performance.now();
  const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], { entry, cols: 120, rows: 40, env: cacheOf(entry) });
  const times = ({ at }: { at: number }) => [threadsCpuMs(app.pid), at - t0];
  const frame = app.shown('? help', 30_000).then(times);
  const data = await app.shown(A_COUNT, 30_000).then(times);
  await sleep(stay);
  app.press('q');
  await app.exited;
  return [...(await frame), ...data];
}

async function serviceStart(entry: string, stay = 0) {
  const t0 = performance.now();
  const child = spawnChild(process.execPath, [entry, 'serve', '--data', ':memory:', '--seed', 'empty', '--port', '0', '--token', 'bench-token'], {
    env: { ...process.env, ...cacheOf(entry) },
  });
  let out = '';
  let cpu = 0;
  const listening = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('base root:')) resolve(performance.now() - t0);
      if (out.includes('base root:')) cpu = threadsCpuMs(child.pid!);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${out}`)));
  });
  await sleep(stay);
  child.removeAllListeners('exit');
  child.kill();
  return [cpu, listening];
}

async function cpuPerKey(entry: string) {
  const proc = await openInstancesList([entry, '--api-url', stub.baseUrl, '--token', 'bench-token', '--refresh', '3600'], 10000, { env: cacheOf(entry) });
  await sleep(300);
  const cpu0 = cpuMs(proc.pid);
  for (let i = 0; i < KEY_PRESSES; i++) {
    proc.write(i % 50 === 49 ? 'g' : 'j');
    await sleep(30);
  }
  await sleep(200);
  const cpu = (cpuMs(proc.pid) - cpu0) / KEY_PRESSES;
  proc.kill();
  return [cpu];
}

const MEASURES: Record<Measure, { run: (entry: string, stay?: number) => Promise<number[]>; labels: string[]; unit: string }> = {
  'ui start': { run: uiStart, labels: ['CPU at first frame', 'wall time to first frame', 'CPU at first frame with data', 'wall time to first frame with data'], unit: 'ms' },
  'service start': { run: serviceStart, labels: ['CPU at listening', 'wall time to listening'], unit: 'ms' },
  'CPU per key': { run: cpuPerKey, labels: ['app CPU per key'], unit: 'ms' },
};

// Each argument a patch, or patches joined by + left out together (they save the same thing); default every patch alone.
const subjects = process.argv[2]?.split(',') ?? Object.keys(PATCHES);
const base = buildVariant();
try {
  for (const patch of subjects) {
    const names = patch.split('+');
    const unknown = names.filter((name) => !Object.hasOwn(PATCHES, name));
    const measures = new Set(names.map((name) => PATCHES[name]));
    if (unknown.length || measures.size !== 1) throw new Error(`${patch}: name patches of ${Object.keys(PATCHES).join(', ')}, joined by + only when they have one measure`);
    const measure = PATCHES[names[0]!]!;
    const without = buildVariant(['--without', names.join(',')]);
    const m = MEASURES[measure];
    const runs = new Map<string, number[][]>([
      [base, []],
      [without, []],
    ]);
    // Code caches saved first, as by a first use.
    if (measure !== 'CPU per key') for (const entry of runs.keys()) await m.run(entry, CODE_CACHE_SAVED_MS);
    const runCount = measure === 'CPU per key' ? Math.max(2, Math.ceil(RUNS / 3)) : RUNS;
    for (let i = 0; i < runCount; i++) for (const entry of i % 2 ? [without, base] : [base, without]) runs.get(entry)!.push(await m.run(entry));
    removeBuild(without);
    console.log(`${patch} (${measure}, ${runCount} runs each):`);
    m.labels.forEach((label, k) => {
      const stats = (entry: string) => {
        const xs = runs.get(entry)!.map((r) => r[k]!);
        const sorted = [...xs].sort((p, q) => p - q);
        const iqr = sorted[Math.floor((3 * sorted.length) / 4)]! - sorted[Math.floor(sorted.length / 4)]!;
        return { median: median(xs), iqr, min: sorted[0]!, max: sorted.at(-1)! };
      };
      const a = stats(base);
      const b = stats(without);
      const gain = b.median - a.median;
      const shows = gain > 0 && gain > (a.iqr + b.iqr) / 2;
      const fmt = (s: typeof a) => `${s.median.toFixed(1)} ${m.unit} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
      console.log(`  ${label}: with ${fmt(a)}, without ${fmt(b)}; gain ${gain.toFixed(1)} ${m.unit}, ratio ${(a.median / b.median).toFixed(2)}${shows ? '' : '   (not above noise)'}`);
    });
  }
} finally {
  removeBuild(base);
  await svc.close();
  await stub.close();
  rmSync(home, { recursive: true, force: true });
}
