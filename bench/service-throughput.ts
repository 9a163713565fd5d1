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
import type { Pool } from 'undici';
import { load, percentile } from './lib/load.js';
import { Store } from '../src/server/store.js';

const TOKEN = 'bench-owner-token-0123456789abcdef';
const CLIENTS = 50;
const READ_SECONDS = 5;
const WRITE_SECONDS = 5;

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
    const readPage = async (pool: Pool) => {
      const res = await pool.request({ path: '/v4/vm/instances?page=1&page_size=100', method: 'GET', headers });
      await res.body.text();
      return res.statusCode;
    };
    const reads = await load(origin, READ_SECONDS, readPage);
    console.log(
      `GET /vm/instances (100-item page), ${CLIENTS} clients as fast as they go: ${reads.rps.toFixed(0)} req/s (target >= 1000, ratio ${(reads.rps / 1000).toFixed(2)}), p50 ${reads.p50.toFixed(1)} ms, p99 ${reads.p99.toFixed(1)} ms, failures ${reads.failures}`,
    );
    const pacedReads = await load(origin, READ_SECONDS, readPage, 1000);
    console.log(
      `GET /vm/instances at 1000 req/s from ${CLIENTS} clients: p50 ${pacedReads.p50.toFixed(1)} ms, p99 ${pacedReads.p99.toFixed(1)} ms (target <= 50, ratio ${(pacedReads.p99 / 50).toFixed(2)}), failures ${pacedReads.failures}`,
    );
    const createContact = async (pool: Pool, i: number) => {
      const res = await pool.request({
        path: '/v4/managed/contacts',
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `bench contact ${i}`, email: `bench${i}@example.com`, group: 'bench' }),
      });
      await res.body.text();
      return res.statusCode;
    };
    const writes = await load(origin, WRITE_SECONDS, createContact);
    console.log(
      `POST /managed/contacts (durable creates), ${CLIENTS} clients as fast as they go: ${writes.rps.toFixed(0)} writes/s (target >= 500, ratio ${(writes.rps / 500).toFixed(2)}), p50 ${writes.p50.toFixed(1)} ms, p99 ${writes.p99.toFixed(1)} ms, failures ${writes.failures}`,
    );
    const pacedWrites = await load(origin, WRITE_SECONDS, (pool, i) => createContact(pool, writes.count + i), 500);
    console.log(
      `POST /managed/contacts at 500 writes/s from ${CLIENTS} clients: p50 ${pacedWrites.p50.toFixed(1)} ms, p99 ${pacedWrites.p99.toFixed(1)} ms (target <= 50, ratio ${(pacedWrites.p99 / 50).toFixed(2)}), failures ${pacedWrites.failures}`,
    );
    // Durable when acknowledged: kill -9, then count what the file holds.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const store = new Store(data);
    const kept = store.all('managed_contact').filter((c) => String(c.name).startsWith('bench contact')).length;
    store.close();
    const acknowledged = writes.count - writes.failures + pacedWrites.count - pacedWrites.failures;
    console.log(`after kill -9: ${kept} of ${acknowledged} acknowledged creates on disk (ratio ${(kept / Math.max(1, acknowledged)).toFixed(3)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
