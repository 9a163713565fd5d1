/**
 * Service speed: reads of a 100-item instance page and durable creates with 50
 * concurrent clients on loopback, and start-up time of `serve` with the demo
 * seed. The service runs in its own process (the built bundle) so the client
 * does not share its event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { Store } from '../src/server/store.js';

const TOKEN = 'bench-owner-token-0123456789abcdef';
const CLIENTS = 50;
const READ_SECONDS = 5;
const WRITE_SECONDS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function startServe(args: string[]): Promise<{ child: ChildProcess; origin: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/vmtui.js', 'serve', '--port', '0', '--token', TOKEN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /base root:\s+(http:\/\/[^/\s]+)\/v4/.exec(out);
      if (m) resolve({ child, origin: m[1]!, ms: performance.now() - started });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function load(origin: string, seconds: number, makeRequest: (pool: Pool, i: number) => Promise<number>) {
  const pool = new Pool(origin, { connections: CLIENTS, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  let seq = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const status = await makeRequest(pool, seq++);
        latencies.push(performance.now() - t0);
        if (status >= 400) failures++;
      }
    }),
  );
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures, count: latencies.length };
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'vmtui-bench-'));
  try {
    const startups: number[] = [];
    for (let i = 0; i < 5; i++) {
      const file = join(dir, `startup-${i}.sqlite`);
      const { child, ms } = await startServe(['--data', file, '--seed', 'demo']);
      startups.push(ms);
      await stop(child);
    }
    startups.sort((a, b) => a - b);
    console.log(`serve start-up with the demo seed (new file): median ${percentile(startups, 50).toFixed(0)} ms (target <= 1000 ms)`);

    const data = join(dir, 'load.sqlite');
    const { child, origin } = await startServe(['--data', data, '--seed', 'demo', '--speed', 'instant']);
    const before = await fetch(`${origin}/v4/vm/instances?page_size=25`, { headers }).then((r) => r.json() as Promise<{ results: number }>);
    // Fill to at least 100 instances so every read returns a full 100-item page.
    for (let i = before.results; i < 120; i++) {
      await fetch(`${origin}/v4/vm/instances`, { method: 'POST', headers, body: JSON.stringify({ region: 'us-east', type: 'g6-nanode-1', label: `bench-fill-${i}` }) });
    }
    const reads = await load(origin, READ_SECONDS, async (pool) => {
      const res = await pool.request({ path: '/v4/vm/instances?page=1&page_size=100', method: 'GET', headers });
      await res.body.text();
      return res.statusCode;
    });
    console.log(
      `GET /vm/instances (100-item page), ${CLIENTS} clients: ${reads.rps.toFixed(0)} req/s (target >= 1000, ratio ${(reads.rps / 1000).toFixed(2)}), p50 ${reads.p50.toFixed(1)} ms, p99 ${reads.p99.toFixed(1)} ms (target <= 50), failures ${reads.failures}`,
    );
    const writes = await load(origin, WRITE_SECONDS, async (pool, i) => {
      const res = await pool.request({
        path: '/v4/managed/contacts',
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `bench contact ${i}`, email: `bench${i}@example.com`, group: 'bench' }),
      });
      await res.body.text();
      return res.statusCode;
    });
    console.log(
      `POST /managed/contacts (durable creates), ${CLIENTS} clients: ${writes.rps.toFixed(0)} writes/s (target >= 500, ratio ${(writes.rps / 500).toFixed(2)}), p50 ${writes.p50.toFixed(1)} ms, p99 ${writes.p99.toFixed(1)} ms (target <= 50), failures ${writes.failures}`,
    );
    // Durable when acknowledged: kill -9, then count what the file holds.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const store = new Store(data);
    const kept = store.all('managed_contact').filter((c) => String(c.name).startsWith('bench contact')).length;
    store.close();
    console.log(`after kill -9: ${kept} of ${writes.count - writes.failures} acknowledged creates on disk (ratio ${(kept / Math.max(1, writes.count - writes.failures)).toFixed(3)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
