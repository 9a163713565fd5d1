/**
 * Which SQLite binding the service stands on, measured in one run: Node's
 * built-in `node:sqlite` (what the package ships) against better-sqlite3 13
 * (Node-API, the upstream fix for the Node 24 abort of 12). Each variant is
 * the package as a user gets it: packed, then installed with `npm install`
 * into a fresh folder (better-sqlite3 13 carries its prebuilt binaries in its
 * package), and its `vmtui` run from that folder.
 * The variants take turns on each measure, so both see the same machine.
 *
 * Prints, per variant: the install's time, the tarball's size and node_modules'; reads of a
 * 100-item page and durable creates a second (50 clients on loopback); a
 * snapshot's restore; the import of an account of --instances instances; and
 * kill -9 rounds (creates in flight, then the file read by a new start), with
 * the acknowledged creates lost. Ratios are better-sqlite3 / node:sqlite.
 * Usage: npx tsx bench/sqlite-binding.ts [--instances N] [--rounds N]   (10,000 and 5)
 * It installs both and imports a large account twice (minutes): run when named.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Pool } from 'undici';
import { startService } from '../src/server/service.js';
import { addInstances } from './lib/bulk-instances.js';
import { nodeHeaders } from './lib/node-headers.js';
import { load } from './lib/load.js';

const { values } = parseArgs({ options: { instances: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } } });
const INSTANCES = Number(values.instances);
const ROUNDS = Number(values.rounds);
if (!Number.isInteger(INSTANCES) || INSTANCES < 0 || !Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--instances and --rounds take whole numbers');

const TOKEN = 'bench-owner-token-0123456789abcdef';
const BETTER = 'better-sqlite3@13.2.0';
const work = mkdtempSync(join(tmpdir(), 'vmtui-sqlite-binding-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_nodedir: nodeHeaders(), npm_config_fund: 'false', npm_config_audit: 'false' } });

interface Variant {
  name: string;
  tarballBytes: number;
  installSeconds: number;
  installedBytes: number;
  entry: string;
}

/** Packs the package with this build and these extra dependencies, installs it into a fresh folder, and times the install. */
function packAndInstall(name: string, buildFlags: string[], extraDependencies: Record<string, string>): Variant {
  const stage = join(work, `${name}-stage`);
  mkdirSync(stage);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
  pkg.dependencies = { ...pkg.dependencies, ...extraDependencies };
  writeFileSync(join(stage, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const file of ['README.md', 'LICENSE']) copyFileSync(file, join(stage, file));
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', join(stage, 'dist'), ...buildFlags], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`build of ${name} failed`);
  const packed = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], stage);
  if (packed.status !== 0) throw new Error(packed.stderr);
  const [info] = JSON.parse(packed.stdout) as { filename: string; size: number }[];
  const tarball = join(work, `${name}.tgz`);
  copyFileSync(join(work, info!.filename), tarball);
  const consumer = join(work, `${name}-consumer`);
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
  const t0 = performance.now();
  const installed = npm(['install', tarball, '--prefer-offline', '--foreground-scripts'], consumer);
  const installSeconds = (performance.now() - t0) / 1000;
  if (installed.status !== 0) throw new Error(`install of ${name} failed:\n${installed.stderr.slice(-2000)}`);
  const installedBytes = Number(spawnSync('du', ['-sb', join(consumer, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0]);
  return { name, tarballBytes: info!.size, installSeconds, installedBytes, entry: join(consumer, 'node_modules', 'vmtui', 'dist', 'vmtui.js') };
}

function serve(v: Variant, args: string[]): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [v.entry, 'serve', '--port', '0', '--token', TOKEN, '--ready-json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, base: (JSON.parse(line) as { base_url: string }).base_url });
    });
    child.once('exit', (code) => reject(new Error(`${v.name}: serve exited (${code}): ${err}`)));
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const origin = (base: string) => new URL(base).origin;

const createContact = (prefix: string) => async (pool: Pool, i: number) => {
  const res = await pool.request({ path: '/v4/managed/contacts', method: 'POST', headers, body: JSON.stringify({ name: `${prefix} ${i}`, email: `c${i}@example.com` }) });
  await res.body.text();
  return res.statusCode;
};

/** Reads of a full 100-item page, and durable creates, each for 5 s as fast as 50 clients go. */
async function throughput(v: Variant): Promise<{ reads: number; writes: number }> {
  const file = join(work, `${v.name}-load.sqlite`);
  const { child, base } = await serve(v, ['--data', file, '--seed', 'demo', '--speed', 'instant']);
  try {
    for (let i = 0; i < 100; i++) await fetch(`${base}/vm/instances`, { method: 'POST', headers, body: JSON.stringify({ region: 'us-east', type: 'g6-nanode-1', label: `fill-${i}` }) });
    const reads = await load(origin(base), 5, async (pool) => {
      const res = await pool.request({ path: '/v4/vm/instances?page=1&page_size=100', method: 'GET', headers });
      await res.body.text();
      return res.statusCode;
    });
    const writes = await load(origin(base), 5, createContact('load'));
    return { reads: reads.rps, writes: writes.rps };
  } finally {
    await stop(child);
  }
}

/** The median restore of a snapshot of the demo account with `INSTANCES / 10` more instances, each after a delete. */
async function restore(v: Variant): Promise<number> {
  const file = join(work, `${v.name}-snap.sqlite`);
  const { child, base } = await serve(v, ['--data', file, '--seed', 'demo', '--speed', 'instant']);
  const control = `${origin(base)}/__control`;
  try {
    for (let i = 0; i < 200; i++) await fetch(`${base}/vm/instances`, { method: 'POST', headers, body: JSON.stringify({ region: 'us-east', type: 'g6-nanode-1', label: `snap-${i}` }) });
    await fetch(`${control}/snapshots`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) });
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const list = (await (await fetch(`${base}/vm/instances?page_size=25`, { headers })).json()) as { data: { id: number }[] };
      await fetch(`${base}/vm/instances/${list.data[0]!.id}`, { method: 'DELETE', headers });
      const t0 = performance.now();
      const res = await fetch(`${control}/snapshots/bench/restore`, { method: 'POST', headers });
      await res.text();
      if (res.status !== 200) throw new Error(`${v.name}: restore answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    return median(times);
  } finally {
    await stop(child);
  }
}

/** kill -9 while 50 clients create; a new start then counts what the file kept of what was acknowledged. */
async function killRounds(v: Variant): Promise<{ acknowledged: number; lost: number }> {
  const file = join(work, `${v.name}-kill.sqlite`);
  let acknowledged = 0;
  let lost = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { child, base } = await serve(v, ['--data', file, '--seed', 'empty']);
    let acked = 0;
    const writing = load(origin(base), 3, async (pool, i) => {
      const status = await createContact(`round${round}`)(pool, i).catch(() => 0);
      if (status === 200) acked++;
      return status || 599;
    });
    await new Promise((r) => setTimeout(r, 1500));
    await stop(child, 'SIGKILL');
    await writing.catch(() => undefined);
    const again = await serve(v, ['--data', file, '--seed', 'empty']);
    // The file holds every round's contacts: what all rounds acknowledged must all be there.
    const kept = ((await (await fetch(`${again.base}/managed/contacts?page_size=25`, { headers })).json()) as { results: number }).results;
    await stop(again.child);
    acknowledged += acked;
    lost = Math.max(lost, acknowledged - kept);
  }
  return { acknowledged, lost };
}

/** `vmtui import` of the source account into a new file: seconds. Not spawnSync: the source answers from this process. */
async function importSeconds(v: Variant, from: string): Promise<number> {
  const file = join(work, `${v.name}-import-${Date.now()}.sqlite`);
  const t0 = performance.now();
  const child = spawn(process.execPath, [v.entry, 'import', '--from', from, '--token', TOKEN, '--data', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${v.name}: import failed (${String(code)}): ${err.slice(-1000)}`);
  return (performance.now() - t0) / 1000;
}

try {
  const variants = [
    packAndInstall('node-sqlite', [], {}),
    packAndInstall('better-sqlite3', ['--sqlite-binding', resolve('bench/lib/better-sqlite3-binding.mjs')], { 'better-sqlite3': BETTER.split('@')[1]! }),
  ];
  const results = new Map<string, Record<string, number>>(variants.map((v) => [v.name, { install_s: v.installSeconds, tarball_kB: v.tarballBytes / 1000, node_modules_MB: v.installedBytes / 1e6 }]));
  const record = (v: Variant, key: string, value: number) => (results.get(v.name)![key] = value);

  for (const v of variants) {
    const t = await throughput(v);
    record(v, 'reads_per_s', t.reads);
    record(v, 'writes_per_s', t.writes);
  }
  for (const v of variants) record(v, 'restore_ms', await restore(v));
  for (const v of variants) {
    const k = await killRounds(v);
    record(v, 'acknowledged', k.acknowledged);
    record(v, 'lost', k.lost);
  }
  if (INSTANCES > 0) {
    const source = await startService({ data: ':memory:', seed: 'demo', speed: 'instant', port: 0, token: TOKEN });
    try {
      addInstances(source, INSTANCES);
      for (const v of variants) record(v, `import_${INSTANCES}_s`, await importSeconds(v, source.baseUrl));
    } finally {
      await source.close();
    }
  }

  const [a, b] = variants.map((v) => results.get(v.name)!);
  console.log(`Node.js ${process.version}; ${ROUNDS} kill -9 rounds; ratio = better-sqlite3 / node:sqlite`);
  console.log('| measure | node:sqlite | better-sqlite3 13 | ratio |');
  console.log('|---|---|---|---|');
  for (const key of Object.keys(a!)) {
    const ratio = a![key] ? (b![key]! / a![key]!).toFixed(2) : '-';
    const digits = /_(s|MB)$/.test(key) ? 1 : 0;
    console.log(`| ${key} | ${a![key]!.toFixed(digits)} | ${b![key]!.toFixed(digits)} | ${ratio} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
