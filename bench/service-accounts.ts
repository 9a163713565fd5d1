/**
 * Accounts in one service, over HTTP: how long creating an empty account and
 * a demo one takes (the aim for an empty one: milliseconds), and what a
 * request costs with 1 account added and with 100 (each has its own
 * store and job timer; a request finds its account by its token's hash). The
 * request is GET /profile, with the primary's token, an added account's, and
 * an unknown one (401), one at a time on one connection; the phases
 * alternate (1, 100, 1, 100) so the machine's load falls on both alike. The
 * service runs from the sources in this process.
 * Run: npx tsx bench/service-accounts.ts
 */
import { Pool } from 'undici';
import { startService } from '../src/server/service.js';

const TOKEN = 'bench-owner-token-0123456789abcdef';
const CREATES = Number(process.env.RUNS ?? 31);
const DEMO_CREATES = Math.max(5, Math.floor(CREATES / 3));
const REQUESTS = Number(process.env.REQUESTS ?? 1500);
const MANY = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const svc = await startService({ data: ':memory:', seed: 'empty', speed: 'instant', port: 0, token: TOKEN });
const pool = new Pool(svc.origin, { connections: 1 });

async function send(method: 'GET' | 'POST' | 'DELETE', path: string, token: string, body?: unknown): Promise<{ ms: number; status: number; json: any }> {
  const t0 = performance.now();
  const res = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.body.text();
  return { ms: performance.now() - t0, status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

async function create(seed: 'empty' | 'demo'): Promise<{ ms: number; id: number; token: string }> {
  const r = await send('POST', '/__control/accounts', TOKEN, { seed });
  if (r.status !== 200) throw new Error(`create ${seed}: ${r.status} ${JSON.stringify(r.json)}`);
  return { ms: r.ms, id: r.json.id, token: r.json.token };
}

async function remove(id: number): Promise<void> {
  const r = await send('DELETE', `/__control/accounts/${id}`, TOKEN);
  if (r.status !== 200) throw new Error(`delete ${id}: ${r.status}`);
}

/** Medians of GET /profile with each token, `REQUESTS` each, interleaved. */
async function latencies(tokens: Record<string, string>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(tokens).map((k) => [k, []]));
  for (let i = 0; i < REQUESTS; i++) {
    for (const [name, token] of Object.entries(tokens)) out[name]!.push((await send('GET', '/v4/profile', token)).ms);
  }
  return out;
}

try {
  // Warm-up: the code's first runs compile it.
  for (let i = 0; i < 5; i++) await remove((await create('empty')).id);
  await remove((await create('demo')).id);

  const empties: number[] = [];
  for (let i = 0; i < CREATES; i++) {
    const made = await create('empty');
    empties.push(made.ms);
    await remove(made.id);
  }
  const demos: number[] = [];
  for (let i = 0; i < DEMO_CREATES; i++) {
    const made = await create('demo');
    demos.push(made.ms);
    await remove(made.id);
  }

  const added = await create('empty');
  const tokens = { primary: TOKEN, added: added.token, unknown: 'bench-unknown-token-0123456789abcdef' };
  await latencies(tokens);
  const samples: Record<number, Record<string, number[]>> = { 1: {}, [MANY]: {} };
  const others: number[] = [];
  for (const count of [1, MANY, 1, MANY]) {
    // `count` accounts besides the primary: the one measured and count - 1 others.
    while (others.length < count - 1) others.push((await create('empty')).id);
    while (others.length > count - 1) await remove(others.pop()!);
    const phase = await latencies(tokens);
    for (const [name, ms] of Object.entries(phase)) (samples[count]![name] ??= []).push(...ms);
  }
  for (const id of others) await remove(id);

  console.log(`create an empty account: median ${median(empties).toFixed(2)} ms of ${CREATES} (aim: milliseconds)`);
  console.log(`create a demo account:   median ${median(demos).toFixed(2)} ms of ${DEMO_CREATES}; demo / empty = ${(median(demos) / median(empties)).toFixed(1)}x`);
  console.log(`GET /profile, median of ${2 * REQUESTS} per token and count of added accounts, one connection:`);
  for (const name of Object.keys(tokens)) {
    const one = median(samples[1]![name]!);
    const many = median(samples[MANY]![name]!);
    console.log(`  ${name.padEnd(8)} token: 1 added ${one.toFixed(3)} ms, ${MANY} added ${many.toFixed(3)} ms; ${MANY} / 1 = ${(many / one).toFixed(2)}`);
  }
} finally {
  await pool.close();
  await svc.close();
}
