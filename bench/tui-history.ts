/**
 * What keeping history costs a refresh: a 10,000-instance list refetched
 * (rows parsed anew from JSON, as an answer's are) into a data store that the
 * history follows, against one that nothing follows; once with no record
 * changed and once with every record's status changed. Medians of RUNS
 * refreshes, taking turns, and their ratio.
 * Run: npx tsx bench/tui-history.ts
 */
import { ApiClient } from '../src/api/client.js';
import { createDataStore } from '../src/store/data.js';
import { createHistoryStore, followLists } from '../src/store/history.js';
import { syntheticInstances } from './lib/synthetic.js';

const N = Number(process.env.N ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 15);
const query = { path: '/vm/instances' };
const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'bench' });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function refreshTimes(changed: boolean): { plain: number; followed: number } {
  const plain = createDataStore({ client });
  const followed = createDataStore({ client });
  const history = createHistoryStore();
  followLists(history, followed);
  const rows = syntheticInstances(N);
  const answers = [JSON.stringify(rows), JSON.stringify(rows.map((r) => ({ ...r, status: r.status === 'running' ? 'offline' : 'running' })))];
  // The first sighting of every record, outside the measure.
  followed.getState().put(query, JSON.parse(answers[0]!));
  plain.getState().put(query, JSON.parse(answers[0]!));
  const times = { plain: [] as number[], followed: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const answer = answers[changed ? (i + 1) % 2 : 0]!;
    for (const [name, store] of [['plain', plain], ['followed', followed]] as const) {
      const fresh = JSON.parse(answer) as unknown[];
      const t = performance.now();
      store.getState().put(query, fresh);
      times[name].push(performance.now() - t);
    }
  }
  return { plain: median(times.plain), followed: median(times.followed) };
}

for (const changed of [false, true]) {
  const { plain, followed } = refreshTimes(changed);
  const what = changed ? 'every status changed' : 'nothing changed     ';
  console.log(`${N} instances, ${what}: refresh ${plain.toFixed(2)} ms without history, ${followed.toFixed(2)} ms with (×${(followed / Math.max(plain, 0.001)).toFixed(1)}, +${(followed - plain).toFixed(1)} ms)`);
}
