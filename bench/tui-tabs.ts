/**
 * Tabs at 100 and 10,000 instances, end to end: the built app in a
 * pseudo-terminal against the stub API, the instance list loaded in tab 1;
 * `:tab` opens tab 2 and `:vm` shows the same list there (from the cache).
 * Key → frame is timed for `j` in a tab and for Alt-1/Alt-2 in turn (each
 * switch shows one tab's screens and hides the other's), against `j` before
 * any tab was opened (same process). Medians and p95 of PRESSES presses.
 * Run: npm run build && npx tsx bench/tui-tabs.ts
 */
import { openOnStub } from './lib/instances-app.js';
import { keyFrameTimes, shown } from './lib/key-frame.js';

const PRESSES = Number(process.env.PRESSES ?? 100);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const rows of SIZES) {
  const app = await openOnStub(rows);
  const { proc } = app;
  const plain = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  for (const line of [':tab', ':vm']) {
    proc.write(line);
    await sleep(300);
    proc.write('\r');
    await sleep(1000);
  }
  const inTab = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  const switching = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? '\x1b1' : '\x1b2'), PRESSES);
  await app.close();
  console.log(`${String(rows).padStart(6)} instances: j before any tab ${shown(plain)}; j in tab 2 ${shown(inTab, plain)}`);
  console.log(`${String(rows).padStart(6)} instances: Alt-1/Alt-2, switching tabs ${shown(switching, plain)}   (aim: p95 under 10 ms)`);
}
