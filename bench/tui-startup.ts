/**
 * Process start → first frame, and → first frame with data (the home view's
 * counts), for the built app in a pseudo-terminal: against a service in this
 * process (--api-url) and on the embedded demo account (its first run, which
 * seeds the data file, is left out). Median of 10 runs each, after a first
 * run of each kind that stays open long enough to save its code caches
 * (src/boot/code-cache.ts), as any first use of the app does.
 * Run: npm run build && npx tsx bench/tui-startup.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnApp } from '../test/helpers/pty.js';
import { OWNER_TOKEN, startTestService } from '../test/helpers/service.js';

const RUNS = Number(process.env.RUNS ?? 10);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const CODE_CACHE_SAVED_MS = 3000;

async function timeRun(args: string[], env: Record<string, string>, stay = 0) {
  const t0 = performance.now();
  const app = spawnApp(args, { env, cols: 120, rows: 40 });
  let frame = 0;
  const first = app.waitForScreen('? help', 30_000).then(() => (frame = performance.now() - t0));
  await app.waitForScreen(/Regions\s+\d+/, 30_000);
  const data = performance.now() - t0;
  await first;
  await new Promise((resolve) => setTimeout(resolve, stay));
  app.press('q');
  await app.exited;
  return { frame, data };
}

async function series(label: string, args: string[], env: Record<string, string>) {
  await timeRun(args, env, CODE_CACHE_SAVED_MS);
  const frames: number[] = [];
  const datas: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await timeRun(args, env);
    frames.push(r.frame);
    datas.push(r.data);
  }
  console.log(`${label}: first frame median ${median(frames).toFixed(0)} ms; first frame with data median ${median(datas).toFixed(0)} ms (min ${Math.min(...datas).toFixed(0)}, max ${Math.max(...datas).toFixed(0)})`);
  return median(datas);
}

// Data, configuration and code caches of the benchmark's own.
const home = mkdtempSync(join(tmpdir(), 'vmtui-bench-'));
const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };

const svc = await startTestService({ seed: 'demo' });
const remote = await series('--api-url (a service in the benchmark process)', ['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], env);
await svc.close();

const embedded = await series('embedded demo (service in the app)', [], env);
rmSync(home, { recursive: true, force: true });
console.log(`ratio embedded/remote: ${(embedded / remote).toFixed(2)}   (aim: ≤ 300 ms with data)`);
