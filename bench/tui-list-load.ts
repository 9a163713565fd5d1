/**
 * Opening a long list: the built app in a pseudo-terminal against a stub API
 * holding 10,000 instances (100 pages). Timed from the Enter that opens
 * `:vm` to the first rows on screen, and to the whole list loaded (the status
 * line says "10000 items" with no pages left). Median of 5 runs.
 * Run: npm run build && npx tsx bench/tui-list-load.ts
 */
import { spawn } from '@lydell/node-pty';
import { startStubApi } from './lib/stub-api.js';

const RUNS = Number(process.env.RUNS ?? 5);
const ROWS = Number(process.env.ROWS ?? 10_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(baseUrl: string) {
  const proc = spawn(process.execPath, [...(process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : []), 'dist/vmtui.js', '--api-url', baseUrl, '--token', 'bench-token', '--refresh', '3600'], {
    cols: 120,
    rows: 40,
    env: { ...(process.env as Record<string, string>), CI: 'false', TERM: 'xterm-256color' },
  });
  let out = '';
  let seen = 0;
  proc.onData((d) => (out += d));
  // Only output written after `from`: the home view must not count.
  const waitFor = async (re: RegExp, from: number) => {
    const end = Date.now() + 120_000;
    while (!re.test(out.slice(from))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}`);
      await sleep(2);
    }
    return performance.now();
  };
  await waitFor(/\? help/, 0);
  proc.write(':vm');
  await sleep(200);
  seen = out.length;
  const t0 = performance.now();
  proc.write('\r');
  const first = (await waitFor(/web-0000\d\d/, seen)) - t0;
  const all = (await waitFor(new RegExp(`${ROWS} items?(?! ·)`), seen)) - t0;
  proc.write('q');
  await sleep(200);
  proc.kill();
  return { first, all };
}

const api = await startStubApi(ROWS);
const firsts: number[] = [];
const alls: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const r = await measure(api.baseUrl);
  firsts.push(r.first);
  alls.push(r.all);
}
await api.close();
console.log(`${ROWS} instances: first rows median ${median(firsts).toFixed(0)} ms (aim ≤ 150); whole list median ${median(alls).toFixed(0)} ms (aim ≤ 1500; min ${Math.min(...alls).toFixed(0)}, max ${Math.max(...alls).toFixed(0)})`);
