/**
 * `vmtui import` over real HTTP from a local service: how long importing the
 * demo account takes (records, seconds), and how many records a second an
 * account of 10,000 instances (each with a config and two disks) imports at.
 * Both services run from the sources in this process, so the source's time
 * is in the figures, as it is against a local `vmtui serve`. The same-run
 * ratio says how the cost of a record grows from the demo to the large account.
 * Run: npx tsx bench/service-import.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../src/server/service.js';
import { importAccount } from '../src/server/import/import-account.js';
import { Source } from '../src/server/import/source.js';
import { Simulation } from '../src/server/sim.js';
import { Store } from '../src/server/store.js';
import { addInstances } from './lib/bulk-instances.js';

const TOKEN = 'bench-owner-token-0123456789abcdef';
const RUNS = Number(process.env.RUNS ?? 5);
const INSTANCES = 10_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One import into a new data file: its records and seconds. */
async function importOnce(svc: RunningService, dir: string, name: string): Promise<{ records: number; seconds: number }> {
  const file = join(dir, `${name}.sqlite`);
  const store = new Store(file);
  try {
    const source = new Source({ base: svc.baseUrl, beta: svc.betaUrl, token: TOKEN });
    const t0 = performance.now();
    const report = await importAccount(store, new Simulation(store, 'instant'), source, svc.baseUrl, { objects: 1000 });
    const seconds = (performance.now() - t0) / 1000;
    if (report.skipped.length > 0) throw new Error(`skipped: ${report.skipped.map((s) => `${s.area} (${s.reason})`).join(', ')}`);
    return { records: report.records, seconds };
  } finally {
    store.close();
    for (const suffix of ['', '-wal', '-shm', '.key']) rmSync(file + suffix, { force: true });
  }
}

async function measure(svc: RunningService, dir: string, label: string, runs: number) {
  await importOnce(svc, dir, `${label}-warm`);
  const times: number[] = [];
  let records = 0;
  for (let i = 0; i < runs; i++) {
    const r = await importOnce(svc, dir, `${label}-${i}`);
    times.push(r.seconds);
    records = r.records;
  }
  const seconds = median(times);
  console.log(`${label}: ${records.toLocaleString('en-US')} records in ${seconds.toFixed(2)} s (median of ${runs}), ${Math.round(records / seconds).toLocaleString('en-US')} records/s`);
  return { records, seconds };
}

const dir = mkdtempSync(join(tmpdir(), 'vmtui-bench-import-'));
const svc = await startService({ data: ':memory:', seed: 'demo', speed: 'instant', token: TOKEN, port: 0 });
try {
  const demo = await measure(svc, dir, 'demo account', RUNS);
  addInstances(svc, INSTANCES);
  const large = await measure(svc, dir, `${INSTANCES.toLocaleString('en-US')}-instance account`, Math.max(1, Math.floor(RUNS / 2)));
  const perRecord = (r: { records: number; seconds: number }) => r.seconds / r.records;
  console.log(`time per record, large / demo: ${(perRecord(large) / perRecord(demo)).toFixed(2)}`);
} finally {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}
