/**
 * What recording a call costs the client: the request log's work per call
 * (begin + finish) on a page of 100 instances (~50 KB of JSON) and on a
 * write whose body holds a secret, against the whole round trip of a page
 * of 100 instances from a stub API on loopback.
 * Run: npx tsx bench/request-log.ts
 */
import { ApiClient } from '../src/api/client.js';
import { RequestLog } from '../src/api/request-log.js';
import { startStubApi } from './lib/stub-api.js';
import { syntheticInstances } from './lib/synthetic.js';

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function recordCost(text: string, parsed: unknown, body?: unknown): number {
  const log = new RequestLog();
  const url = new URL('http://127.0.0.1:8484/v4/vm/instances?page=1&page_size=100');
  const headers = { authorization: 'Bearer 0123456789abcdef0123456789abcdef', accept: 'application/json' };
  const reply = { 'content-type': 'application/json', 'content-length': String(text.length) };
  const bodyText = body === undefined ? undefined : JSON.stringify(body);
  const runs: number[] = [];
  for (let round = 0; round < 15; round++) {
    const n = 2000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const r = log.begin({ method: body === undefined ? 'GET' : 'POST', url, path: '/vm/instances', root: 'base', attempt: 1, headers, body, text: bodyText });
      log.finish(r, { status: 200, headers: reply, text, parsed });
    }
    runs.push(((performance.now() - t0) / n) * 1000);
  }
  return median(runs);
}

const page = { data: syntheticInstances(100), page: 1, pages: 1, results: 100 };
const pageText = JSON.stringify(page);
const pageUs = recordCost(pageText, page);
const secretBody = { region: 'us-east', type: 'vm-standard-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42!', label: 'web-1' };
const created = { ...page.data[0] };
const writeUs = recordCost(JSON.stringify(created), created, secretBody);

const api = await startStubApi(100);
const client = new ApiClient({ baseUrl: api.baseUrl, betaUrl: api.baseUrl, token: 'bench-token', retryDelaysMs: [] });
const trips: number[] = [];
for (let i = 0; i < 300; i++) {
  const t0 = performance.now();
  await client.get('/vm/instances', { query: { page: 1, page_size: 100 } });
  if (i >= 50) trips.push(performance.now() - t0);
}
await api.close();
const tripUs = median(trips) * 1000;

console.log(`page of 100 instances (${(pageText.length / 1024).toFixed(0)} KB): recording ${pageUs.toFixed(1)} µs per call (median)`);
console.log(`POST with root_pass (masked): recording ${writeUs.toFixed(1)} µs per call (median)`);
console.log(`the same page's round trip on loopback: ${(tripUs / 1000).toFixed(2)} ms (median); recording is ${((pageUs / tripUs) * 100).toFixed(2)}% of it`);
