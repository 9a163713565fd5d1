/**
 * A day in tmux, shortened: the built app on the embedded demo with
 * `--refresh 2` in a pseudo-terminal, an operator's round of views every
 * minute (`:vm`, an instance's overview, `:fw`, `:lb` and a balancer's ports,
 * `:audit`, `:costs`, `:jobs`, `:managed`, home), for MINUTES minutes. At each
 * minute the UI thread's heap is measured after a full garbage collection
 * (through the inspector: the app runs with --inspect on a port of its own,
 * nothing is added to the app for it), in all and without V8's code and
 * trusted spaces (compiled functions and their bytecode: they grow as more of
 * the program gets run or optimized, up to the program's size, whatever the
 * app holds), and the process's RSS read from /proc.
 * Prints each sample, then the growth per hour after the warm-up (the first
 * WARMUP minutes; default a fifth of the run, at least 2), from a least-squares
 * line through the samples after it.
 * Run: npm run build && npx tsx bench/tui-soak.ts 10   (ENTRY=path/to/vmtui.js WARMUP=2 ROUNDS_PER_MINUTE=1 NODE_ARGS='--v8-flag …')
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'undici';
import { jump, KEYS, spawnApp, type PtyApp } from '../test/helpers/pty.js';

const MINUTES = Number(process.argv[2] ?? 10);
if (!Number.isFinite(MINUTES) || MINUTES < 2) {
  console.error('usage: npx tsx bench/tui-soak.ts <minutes, at least 2>');
  process.exit(2);
}
const WARMUP = Number(process.env.WARMUP ?? Math.max(2, Math.round(MINUTES / 5)));
const ENTRY = process.env.ENTRY ?? 'dist/vmtui.js';
const ROUNDS_PER_MINUTE = Number(process.env.ROUNDS_PER_MINUTE ?? 1);
if (!Number.isInteger(ROUNDS_PER_MINUTE) || ROUNDS_PER_MINUTE < 1) {
  console.error('ROUNDS_PER_MINUTE: a whole number, at least 1');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A free port for the inspector. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The inspector of the app's main (UI) thread: garbage collection and the heap used after it. */
async function inspector(port: number) {
  let list: { webSocketDebuggerUrl: string }[] = [];
  for (let i = 0; i < 100 && list.length === 0; i++) {
    list = await fetch(`http://127.0.0.1:${port}/json/list`).then(
      (r) => r.json() as Promise<typeof list>,
      () => [],
    );
    if (list.length === 0) await sleep(100);
  }
  const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    /** MB of the UI thread's heap in use after a full collection: in all, and in the spaces that hold data rather than code. */
    heapAfterGc: async () => {
      await call('HeapProfiler.collectGarbage');
      const expression = `(() => {
        const spaces = process.getBuiltinModule('node:v8').getHeapSpaceStatistics();
        const used = spaces.reduce((n, s) => n + s.space_used_size, 0);
        const code = spaces.filter((s) => /^(code|trusted)/.test(s.space_name)).reduce((n, s) => n + s.space_used_size, 0);
        return [used, used - code];
      })()`;
      const r = await call('Runtime.evaluate', { expression, returnByValue: true });
      const [used, data] = r.result.value as [number, number];
      return { heap: used / 1024 / 1024, data: data / 1024 / 1024 };
    },
    close: () => ws.close(),
  };
}


/** One operator's round: every view of the issue, each drawn before the next. */
async function round(app: PtyApp) {
  await jump(app, 'vm', /\d+ items/, 30_000);
  app.press(KEYS.enter);
  await app.waitForScreen(/Disks/, 30_000);
  await jump(app, 'fw', /\d+ items/, 30_000);
  await jump(app, 'lb', /\d+ items/, 30_000);
  app.press(KEYS.enter);
  await app.waitForScreen(/configs/, 30_000);
  await jump(app, 'audit', /\d+ items/, 30_000);
  await jump(app, 'costs', /Total/, 30_000);
  await jump(app, 'jobs', /jobs|Nothing/i, 30_000);
  await jump(app, 'managed', /Services|services/, 30_000);
  await jump(app, 'home', /\d+ areas/, 30_000);
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

const home = mkdtempSync(join(tmpdir(), 'vmtui-soak-'));
const port = await freePort();
const app = spawnApp(['--fresh', '--refresh', '2'], {
  entry: ENTRY,
  cols: 140,
  rows: 40,
  nodeArgs: [`--inspect=127.0.0.1:${port}`, ...(process.env.NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
  env: { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache') },
});
try {
  await app.waitForScreen(/\d+ areas/, 60_000);
  const probe = await inspector(port);
  const samples: { minute: number; heap: number; data: number; rss: number }[] = [];
  const t0 = performance.now();
  console.log(`soak of ${ENTRY}: ${MINUTES} min, --refresh 2, ${ROUNDS_PER_MINUTE === 1 ? 'a round' : `${ROUNDS_PER_MINUTE} rounds`} of views a minute; warm-up ${WARMUP} min`);
  console.log('minute  heap after GC (MB)  without code (MB)  RSS (MB)');
  for (let minute = 0; minute <= MINUTES; minute++) {
    const sample = { minute, ...(await probe.heapAfterGc()), rss: rssMb(app.pid) };
    samples.push(sample);
    console.log(`${String(minute).padStart(6)}  ${sample.heap.toFixed(1).padStart(18)}  ${sample.data.toFixed(1).padStart(17)}  ${sample.rss.toFixed(0).padStart(8)}`);
    if (minute === MINUTES) break;
    // ROUNDS_PER_MINUTE above 1 crowds hours of an operator's rounds into the run: V8 compiles a function as it reaches a count of calls, so the program's code reaches what a longer day would bring.
    for (let r = 0; r < ROUNDS_PER_MINUTE; r++) {
      await round(app);
      await sleep(Math.max(0, t0 + (minute + (r + 1) / ROUNDS_PER_MINUTE) * 60_000 - performance.now()));
    }
  }
  probe.close();
  const warm = samples.filter((s) => s.minute >= WARMUP);
  const perHour = (pick: (s: (typeof samples)[number]) => number) => {
    const rate = slope(
      warm.map((s) => s.minute),
      warm.map(pick),
    ) * 60;
    return `${rate >= 0 ? '+' : ''}${rate.toFixed(1)} MB/h (${((rate / pick(warm[0]!)) * 100).toFixed(1)} % of the ${pick(warm[0]!).toFixed(1)} MB at minute ${WARMUP})`;
  };
  console.log(`growth per hour after the warm-up: heap ${perHour((s) => s.heap)}; without code ${perHour((s) => s.data)}; RSS ${perHour((s) => s.rss)}`);
  const last = samples.at(-1)!;
  const whole = (pick: (s: (typeof samples)[number]) => number) => `${(((pick(last) - pick(warm[0]!)) / pick(warm[0]!)) * 100).toFixed(1)} %`;
  console.log(`minute ${WARMUP} → ${last.minute}: heap ${whole((s) => s.heap)}, without code ${whole((s) => s.data)}, RSS ${whole((s) => s.rss)}`);
} finally {
  app.press('q');
  await Promise.race([app.exited, sleep(3000)]);
  app.kill();
  rmSync(home, { recursive: true, force: true });
}
