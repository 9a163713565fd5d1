/**
 * Memory of the service under a stream of distinct X-Filter shapes: 5,000
 * list requests over real HTTP, each filter of a shape (fields, operators,
 * +and/+or, order) no other request used, so each has SQL of its own. RSS of
 * the service's process is read from /proc as the stream goes on; bounded
 * caches keep it flat. The service runs from the sources in its own process.
 * Run: npx tsx bench/service-filter-memory.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const TOKEN = 'bench-owner-token-0123456789abcdef';
const SHAPES = 5_000;
const CLIENTS = 8;
const FIELDS = ['id', 'group', 'image', 'region'];
const OPERATORS = ['=', '+neq', '+gt', '+contains'];

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Shape i: 1..100 terms, starting field, starting operator, +or or +and, ordered or not; no two alike. */
function filterOf(i: number): string {
  const terms = 1 + (i % 100);
  const field = Math.floor(i / 100) % 4;
  const op = Math.floor(i / 400) % 4;
  const combine = Math.floor(i / 1600) % 2 === 0 ? '+or' : '+and';
  const list = Array.from({ length: terms }, (_, j) => {
    const name = FIELDS[(field + j) % 4]!;
    const operator = OPERATORS[(op + j) % 4]!;
    const value = operator === '+gt' ? j : `v${j}`;
    return operator === '=' ? { [name]: value } : { [name]: { [operator]: value } };
  });
  const filter: Record<string, unknown> = { [combine]: list };
  if (Math.floor(i / 3200) % 2 === 1) filter['+order_by'] = 'region';
  return JSON.stringify(filter);
}

function startServe(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--data', ':memory:', '--seed', 'demo', '--speed', 'instant', '--token', TOKEN], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /base root:\s+(http:\/\/[^/\s]+)\/v4/.exec(out);
      if (m) resolve({ child, origin: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

const { child, origin } = await startServe();
const pool = new Pool(origin, { connections: CLIENTS });
const statuses = new Map<number, number>();
const send = async (i: number) => {
  const res = await pool.request({ method: 'GET', path: '/v4/vm/instances', headers: { authorization: `Bearer ${TOKEN}`, 'x-filter': filterOf(i) } });
  await res.body.dump();
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
};

// Warm up with one shape, repeated: the baseline is a service that has served filtered lists.
for (let i = 0; i < 200; i++) await send(0);
const base = rssMb(child.pid!);
const samples: number[] = [];
let next = 1;
for (let done = 0; done < SHAPES; done += 1_000) {
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next <= done + 1_000 && next <= SHAPES) await send(next++);
    }),
  );
  samples.push(rssMb(child.pid!));
}
await pool.close();
child.kill('SIGTERM');

console.log(`service RSS after warm-up: ${base.toFixed(0)} MB`);
console.log(`after distinct filter shapes: ${samples.map((mb, i) => `${(i + 1) * 1_000}: ${mb.toFixed(0)} MB`).join(', ')}`);
console.log(`answers: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
// The first thousand fill the caches; bounded, they hold still after that (unbounded, 5,000 shapes went 210 -> 420 MB).
console.log(`ratio 5,000 shapes / 1,000 shapes: ${(samples.at(-1)! / samples[0]!).toFixed(2)} (aim: ≤ 1.3)`);
