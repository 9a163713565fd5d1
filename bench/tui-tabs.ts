/**
 * Tabs at 100 and 10,000 instances, end to end: the built app in a
 * pseudo-terminal against the stub API, the instance list loaded in tab 1;
 * `:tab` opens tab 2 and `:vm` shows the same list there (from the cache).
 * Key → frame is timed for Alt-1/Alt-2 in turn (each switch draws the other
 * tab's stack afresh) and for `j` in a tab, against `j` before any tab was
 * opened (same process). Medians and p95 of PRESSES presses.
 * Run: npm run build && npx tsx bench/tui-tabs.ts
 */
import { openInstancesList } from './lib/instances-app.js';
import { keyFrameTimes } from './lib/key-frame.js';
import { startStubApi } from './lib/stub-api.js';

const PRESSES = Number(process.env.PRESSES ?? 100);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (t: { p50: number; p95: number }) => `p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms`;

for (const rows of SIZES) {
  const api = await startStubApi(rows);
  const proc = await openInstancesList(['dist/vmtui.js', '--api-url', api.baseUrl, '--token', 'bench-token', '--refresh', '3600'], rows, { timeoutMs: 300_000 });
  await sleep(300);
  const plain = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  for (const line of [':tab', ':vm']) {
    proc.write(line);
    await sleep(300);
    proc.write('\r');
    await sleep(1000);
  }
  const inTab = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  const switching = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? '\x1b1' : '\x1b2'), PRESSES);
  console.log(`${String(rows).padStart(6)} instances: j before any tab ${ms(plain)}; j in tab 2 ${ms(inTab)} (p95 ratio ${(inTab.p95 / plain.p95).toFixed(2)})`);
  console.log(`${String(rows).padStart(6)} instances: Alt-1/Alt-2, switching tabs ${ms(switching)} (p95 ratio ${(switching.p95 / plain.p95).toFixed(2)})   (aim: p95 under 10 ms)`);
  proc.write('q');
  await sleep(200);
  proc.kill();
  await api.close();
}
