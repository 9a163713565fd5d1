/**
 * The single executable against the npm-installed app, in the same run:
 * its size, and process start → the home view's first count drawn, on the
 * embedded demo in a pseudo-terminal (as bench/tui-startup.ts times it). The
 * two take turns, median of RUNS each, after a first run of each that stays
 * open long enough to save its code caches (the executable also lays its
 * bundles out then). Ratio = executable / installed.
 * Run: npx tsx bench/exe-start.ts   (RUNS=7)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedApp } from '../test/helpers/installed.js';
import { spawnApp, type SpawnOptions } from '../test/helpers/pty.js';

const RUNS = Number(process.env.RUNS ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// The home view's count column holds a number once its first list is in.
const A_COUNT = /^[› ] .{18} \d/m;

const work = mkdtempSync(join(tmpdir(), 'vmtui-exe-start-'));
const exe = join(work, 'vmtui-linux-x64');
const installed = installedApp();
try {
  execFileSync(process.execPath, ['scripts/build-exe.mjs', '--out', exe], { stdio: 'inherit' });
  const env = (name: string) => ({ XDG_DATA_HOME: join(work, name, 'data'), XDG_CONFIG_HOME: join(work, name, 'config'), XDG_CACHE_HOME: join(work, name, 'cache') });
  const kinds: [string, SpawnOptions][] = [
    ['installed (node + dist/vmtui.js)', { entry: installed.entry, env: env('installed') }],
    ['single executable', { executable: exe, env: { ...env('exe'), PATH: '' } }],
  ];
  const time = async (opts: SpawnOptions, stay = 0) => {
    const t0 = performance.now();
    const app = spawnApp([], { ...opts, cols: 120, rows: 40 });
    const { at } = await app.shown(A_COUNT, 60_000);
    await new Promise((r) => setTimeout(r, stay));
    app.press('q');
    await app.exited;
    return at - t0;
  };
  for (const [, opts] of kinds) await time(opts, 3000);
  const times = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
  for (let i = 0; i < RUNS; i++) for (const [name, opts] of kinds) times.get(name)!.push(await time(opts));
  const [a, b] = kinds.map(([name]) => median(times.get(name)!));
  console.log(`Node.js ${process.version}; ${RUNS} runs each, medians`);
  console.log(`single executable: ${(statSync(exe).size / 1e6).toFixed(1)} MB`);
  console.log(`start → first data, installed: ${a!.toFixed(0)} ms`);
  console.log(`start → first data, single executable: ${b!.toFixed(0)} ms (ratio to installed ${(b! / a!).toFixed(2)})`);
} finally {
  installed.remove();
  rmSync(work, { recursive: true, force: true });
}
