/**
 * Memory of the running app with 10,000 instances cached: the built app in a
 * pseudo-terminal against a stub API whose instances are synthetic (shaped
 * like the API's, every field a list page returns), since the service's demo
 * account holds only a few. RSS is read from /proc once the list is loaded
 * and the app has settled; the same with 100 instances is the baseline.
 * Run: npm run build && npx tsx bench/tui-memory.ts
 */
import { readFileSync } from 'node:fs';
import { openOnStub } from './lib/instances-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function measure(rows: number): Promise<number> {
  const app = await openOnStub(rows);
  // Scroll through a little, then let the garbage collector catch up.
  for (let i = 0; i < 50; i++) app.proc.write('j');
  await sleep(2000);
  const rss = rssMb(app.proc.pid);
  await app.close();
  return rss;
}

const base = await measure(100);
const full = await measure(10_000);
console.log(`RSS with 100 instances cached: ${base.toFixed(0)} MB`);
console.log(`RSS with 10,000 instances cached: ${full.toFixed(0)} MB (aim: ≤ 150 MB); ratio 10,000/100: ${(full / base).toFixed(2)}`);
