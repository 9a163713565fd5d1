/**
 * Alerts at 100 and 10,000 instances. End to end: the built app in a
 * pseudo-terminal against the stub API, whose every read of the instance list
 * (once the list is loaded) stops 20 more running instances (someone else's doing); `r` is pressed 3
 * times, each refresh raising 20 alerts, then key → frame is timed for `j`
 * in the instance list (the header counting the unread alerts) and in
 * `:alerts`, against `j` in the same list before any alert (same process). In process: what the alerts' look at a refreshed list costs,
 * against the same refresh without them (medians of RUNS, same run).
 * Run: npm run build && npx tsx bench/tui-alerts.ts
 */
import { ApiClient } from '../src/api/client.js';
import { createAlertsStore, watchAlerts } from '../src/store/alerts.js';
import { createDataStore } from '../src/store/data.js';
import { openOnStub } from './lib/instances-app.js';
import { keyFrameTimes, shown } from './lib/key-frame.js';
import { syntheticInstances } from './lib/synthetic.js';

const PRESSES = Number(process.env.PRESSES ?? 120);
const RUNS = Number(process.env.RUNS ?? 21);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const STOPS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function endToEnd(rows: number) {
  const app = await openOnStub(rows);
  const { proc, api } = app;
  let out = '';
  proc.onData((d) => (out = (out + d).slice(-20_000)));
  const waitFor = async (re: RegExp) => {
    const end = Date.now() + 60_000;
    while (!re.test(out)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}: ${JSON.stringify(out.slice(-1500))}`);
      await sleep(20);
    }
  };
  // The baseline, same process: the list before any alert.
  const plain = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  api.stopOnRead(STOPS);
  const wanted = Math.min(3 * STOPS, Math.floor(rows / 4));
  for (let i = 1; i <= 3; i++) {
    proc.write('r');
    await waitFor(new RegExp(`● ${Math.min(i * STOPS, wanted)} (new )?alerts`));
  }
  await sleep(300);
  const list = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  proc.write(':alerts');
  await sleep(200);
  proc.write('\r');
  await waitFor(new RegExp(`${wanted} alerts this session`));
  await sleep(300);
  const alerts = await keyFrameTimes(proc, (i) => (i % 20 === 19 ? 'g' : 'j'), PRESSES);
  await app.close();
  return { plain, list, alerts, raised: wanted };
}

/** One refresh of the instance list landing in the cache, with and without the alerts looking at it. */
function inProcess(rows: number) {
  const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'bench' });
  const times = { with: [] as number[], without: [] as number[] };
  for (const mode of ['without', 'with'] as const) {
    const data = createDataStore({ client });
    const watch = mode === 'with' ? watchAlerts({ data, alerts: createAlertsStore() }) : undefined;
    for (let i = 0; i < RUNS; i++) {
      const fresh = syntheticInstances(rows).map((vm, n) => (n < i * STOPS ? { ...vm, status: 'offline' } : vm));
      const t0 = performance.now();
      data.getState().put({ path: '/vm/instances' }, fresh);
      times[mode].push(performance.now() - t0);
    }
    watch?.stop();
  }
  return { with: median(times.with), without: median(times.without) };
}

for (const rows of SIZES) {
  const cost = inProcess(rows);
  console.log(`${String(rows).padStart(6)} instances, a refresh landing: ${cost.without.toFixed(2)} ms without alerts, ${cost.with.toFixed(2)} ms with (+${(cost.with - cost.without).toFixed(2)} ms, ratio ${(cost.with / cost.without).toFixed(2)})`);
  const e = await endToEnd(rows);
  console.log(`${String(rows).padStart(6)} instances: j in the list before any alert ${shown(e.plain)}`);
  console.log(`${String(rows).padStart(6)} instances, ${e.raised} alerts: j in the list ${shown(e.list, e.plain)}; j in :alerts ${shown(e.alerts, e.plain)}   (aim: p95 under 10 ms)`);
}
