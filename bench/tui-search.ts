/**
 * Search on a 10,000-instance account.
 * In process: the store holding 10,000 instances (as after `:vm`), then
 * `plan` + `search` as the search view runs them on each change: the first
 * search (the rows' search text built) and the following ones, by label, by
 * ID, by IPv4, by tag, and one that matches nothing. Median of RUNS.
 * End to end: the built app in a pseudo-terminal against a stub API with
 * 10,000 instances, the list loaded by `:vm`; from the Enter of
 * `:search web-00NNNN` to the hit on screen.
 * Run: npm run build && npx tsx bench/tui-search.ts
 */
import { ApiClient } from '../src/api/client.js';
import { listQuery } from '../src/app/screen.js';
import { createAppContext } from '../src/app/context.js';
import { screens } from '../src/screens/index.js';
import { parseQuery } from '../src/screens/search/match.js';
import { plan, search } from '../src/screens/search/sources.js';
import { openInstancesList } from './lib/instances-app.js';
import { startStubApi } from './lib/stub-api.js';
import { syntheticInstances } from './lib/synthetic.js';

const RUNS = Number(process.env.RUNS ?? 21);
const E2E_RUNS = Number(process.env.E2E_RUNS ?? 5);
const ROWS = Number(process.env.ROWS ?? 10_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function inProcess() {
  const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'bench' });
  const app = createAppContext({ client, screens, session: { endpoint: client.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 } });
  const def = app.screens.get('instances');
  const queries = { label: 'web-004242', id: '5242', ipv4: '203.0.16.146', tag: 'prod', none: 'no-such-thing' };
  const out: string[] = [];
  const run = (words: string) => {
    const t0 = performance.now();
    const hits = search(plan(app, app.data.getState().lists).collections, parseQuery(words));
    return { ms: performance.now() - t0, hits: hits.length };
  };
  // Cold: each run a fresh copy of the rows, as a refetch brings them.
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    app.data.getState().put(listQuery(def.list!, {}), syntheticInstances(ROWS));
    cold.push(run(queries.label).ms);
  }
  out.push(`first search after the list arrives (search text built): median ${median(cold).toFixed(1)} ms`);
  for (const [what, words] of Object.entries(queries)) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < RUNS; i++) ({ ms: times[i], hits } = run(words) as { ms: number; hits: number });
    out.push(`by ${what} ("${words}", ${hits} hits): median ${median(times).toFixed(2)} ms`);
  }
  return out;
}

async function endToEnd() {
  const api = await startStubApi(ROWS);
  const proc = await openInstancesList(['dist/vmtui.js', '--api-url', api.baseUrl, '--token', 'bench-token', '--refresh', '3600'], ROWS);
  let out = '';
  proc.onData((d) => (out = (out + d).slice(-50_000)));
  const times: number[] = [];
  for (let i = 0; i < E2E_RUNS; i++) {
    const label = `web-${String(1000 + i * 977).padStart(6, '0')}`;
    proc.write(`:search ${label}`);
    await sleep(300);
    out = '';
    const t0 = performance.now();
    proc.write('\r');
    const end = Date.now() + 60_000;
    // The screen writer sends a run of spaces as a cursor move.
    while (!new RegExp(`Instances(?:\\s|\\x1b\\[\\d+C)+${label}`).test(out)) {
      if (Date.now() > end) throw new Error(`timed out waiting for the hit ${label}; the app wrote: ${JSON.stringify(out.slice(-3000))}`);
      await sleep(2);
    }
    times.push(performance.now() - t0);
    proc.write('\x1b');
    await sleep(300);
  }
  proc.write('q');
  await sleep(200);
  proc.kill();
  await api.close();
  return `end to end, Enter to the hit on screen: first ${times[0]!.toFixed(0)} ms (other lists fetched), median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`;
}

console.log(`search over ${ROWS} instances, in process (median of ${RUNS}):`);
for (const line of inProcess()) console.log(`  ${line}`);
if (process.env.SKIP_E2E !== '1') console.log(`  ${await endToEnd()}`);
