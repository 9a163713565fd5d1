/**
 * Snapshots of the control interface over real HTTP: how long saving,
 * restoring and exporting take for the demo account and for one of 10,000
 * instances (each with its config and two disks), on :memory: and on a data
 * file, and how long a reset to the demo seed takes. Before each restore an
 * instance is deleted over HTTP, as a test would change the account. The aim for a restore of
 * the demo account is 50 ms. The service runs from the sources in this
 * process; each request is one transaction, so the times are the service's.
 * Run: npx tsx bench/service-snapshots.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startService, type RunningService } from '../src/server/service.js';
import { addInstances } from './lib/bulk-instances.js';

const TOKEN = 'bench-owner-token-0123456789abcdef';
const RUNS = Number(process.env.RUNS ?? 9);
const INSTANCES = 10_000;
const AIM_MS = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(svc: RunningService, method: 'GET' | 'POST', path: string, body?: unknown): Promise<number> {
  const t0 = performance.now();
  const res = await request(`${svc.origin}/__control${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  await res.body.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode}`);
  return ms;
}

interface Result {
  save: number;
  restore: number;
  exportMs: number;
  rows: number;
}

/** Deletes the account's first instance over HTTP, so each restore has something to bring back, as after a test. */
async function deleteAnInstance(svc: RunningService): Promise<void> {
  const list = await request(`${svc.baseUrl}/vm/instances?page_size=25`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const { data } = (await list.body.json()) as { data: { id: number }[] };
  const res = await request(`${svc.baseUrl}/vm/instances/${data[0]!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`DELETE instance: ${res.statusCode}`);
}

async function measure(svc: RunningService, prefix: string): Promise<Result> {
  // A first save and restore, untimed: the code's first run compiles it.
  await timed(svc, 'POST', '/snapshots', { name: `${prefix}warm` });
  await timed(svc, 'POST', `/snapshots/${prefix}warm/restore`);
  const saves: number[] = [];
  for (let i = 0; i < RUNS; i++) saves.push(await timed(svc, 'POST', '/snapshots', { name: `${prefix}${i}` }));
  const restores: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await deleteAnInstance(svc);
    restores.push(await timed(svc, 'POST', `/snapshots/${prefix}${i}/restore`));
  }
  const exports: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 5); i++) exports.push(await timed(svc, 'GET', `/snapshots/${prefix}${i}/export`));
  const rows = svc.store.db.prepare('SELECT count(*) FROM rows').pluck().get() as number;
  return { save: median(saves), restore: median(restores), exportMs: median(exports), rows };
}

const dir = mkdtempSync(join(tmpdir(), 'vmtui-bench-snapshots-'));
const results = new Map<string, Result>();
let resetMs = 0;
try {
  for (const [where, data] of [
    ['file', join(dir, 'bench.sqlite')],
    [':memory:', ':memory:'],
  ] as const) {
    const svc = await startService({ data, seed: 'demo', speed: 'instant', port: 0, token: TOKEN });
    try {
      results.set(`demo, ${where}`, await measure(svc, 'demo-'));
      if (where === 'file') {
        const resets: number[] = [];
        for (let i = 0; i < Math.min(RUNS, 5); i++) resets.push(await timed(svc, 'POST', '/reset', { seed: 'demo' }));
        resetMs = median(resets);
      }
      addInstances(svc, INSTANCES);
      results.set(`${INSTANCES} instances, ${where}`, await measure(svc, 'large-'));
    } finally {
      await svc.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`median of ${RUNS} runs (export: of ${Math.min(RUNS, 5)}), over HTTP`);
for (const [name, r] of results) {
  console.log(
    `${name.padEnd(28)} ${String(r.rows).padStart(6)} rows  save ${r.save.toFixed(1).padStart(6)} ms  restore ${r.restore.toFixed(1).padStart(6)} ms  export ${r.exportMs.toFixed(1).padStart(6)} ms`,
  );
}
console.log(`reset to the demo seed (file): ${resetMs.toFixed(1)} ms`);
for (const where of [':memory:', 'file']) {
  const demo = results.get(`demo, ${where}`)!;
  const large = results.get(`${INSTANCES} instances, ${where}`)!;
  console.log(
    `${where}: demo restore / aim (${AIM_MS} ms) = ${(demo.restore / AIM_MS).toFixed(2)}; ${INSTANCES} instances / demo restore = ${(large.restore / demo.restore).toFixed(1)}x for ${(large.rows / demo.rows).toFixed(1)}x the rows`,
  );
}
