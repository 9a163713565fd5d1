/**
 * A bulk delete of 100 instances: the built app in a pseudo-terminal marks
 * them all (Space on the first, G, Ctrl-Space), Ctrl-D, types 100, Enter;
 * timed from that Enter to the message "Delete: 100 of 100 succeeded". The
 * baseline sends the same 100 DELETEs one after another with the app's own
 * client, as a loop of single deletes would. Both against `vmtui serve` in a
 * process of its own, as it answers on loopback and with 20 ms added to each
 * DELETE (a network's round trip, as a remote API has). The account is restored from a
 * snapshot before each run. Median of 5 runs each.
 * Run: npm run build && npx tsx bench/tui-bulk.ts
 */
import { ApiClient } from '../src/api/client.js';
import { listInstances } from '../src/api/instances.js';
import { runBulk } from '../src/app/bulk.js';
import { spawnApp } from '../test/helpers/pty.js';
import type { ChildProcess } from 'node:child_process';
import type { RunningService } from '../src/server/service.js';
import { OWNER_TOKEN, call, spawnServe } from '../test/helpers/service.js';

const RUNS = Number(process.env.RUNS ?? 5);
const ITEMS = 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The service in a process of its own, as a remote API is: this one reads the terminal.
const children: ChildProcess[] = [];
const { base } = await spawnServe(':memory:', OWNER_TOKEN, children);
const svc = { baseUrl: base, betaUrl: `${base}beta`, origin: new URL(base).origin } as RunningService;
for (let i = 0; i < ITEMS; i++) {
  const res = await call(svc, 'POST', '/vm/instances', { body: { label: `bulk-${String(i).padStart(3, '0')}`, region: 'us-east', type: 'g6-nanode-1' } });
  if (res.status !== 200) throw new Error(`create: ${res.status}`);
}
await call(svc, 'POST', '/__control/snapshots', { body: { name: 'hundred' } });
const restore = () => call(svc, 'POST', '/__control/snapshots/hundred/restore');

async function inApp(): Promise<number> {
  await restore();
  const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN, '--refresh', '3600'], { cols: 120, rows: 40 });
  try {
    await app.waitForScreen('? help', 30_000);
    app.press(':vm');
    await app.waitForScreen(/^:vm ?$/m);
    app.press('\r');
    await app.waitForScreen(`${ITEMS} items`, 30_000);
    app.press(' ');
    await app.waitForScreen('1 marked');
    app.press('G');
    await app.waitForScreen(/^›\s+bulk-099/m);
    app.press('\x00');
    await app.waitForScreen(`${ITEMS} marked`);
    app.press('\x04');
    await app.waitForScreen(`Type ${ITEMS} to confirm`);
    app.press(String(ITEMS));
    await app.waitForScreen(/\[ Delete \]/);
    const t0 = performance.now();
    app.press('\r');
    const { at } = await app.shown(`Delete: ${ITEMS} of ${ITEMS} succeeded`, 60_000);
    return at - t0;
  } finally {
    app.kill();
  }
}

async function sequential(): Promise<number> {
  await restore();
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN });
  const all = await listInstances(client);
  const t0 = performance.now();
  for (const vm of all) await client.delete(`/vm/instances/${vm.id}`);
  return performance.now() - t0;
}

async function runner(): Promise<number> {
  await restore();
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN });
  const all = await listInstances(client);
  const t0 = performance.now();
  await runBulk(all, (vm) => client.delete(`/vm/instances/${vm.id}`)).done;
  return performance.now() - t0;
}

for (const latency of [0, 20]) {
  const rule = latency ? (await call(svc, 'POST', '/__control/faults', { body: { method: 'DELETE', path: '/v4/vm/instances/*', action: 'latency', latency_ms: latency } })).body.id : undefined;
  const bulk: number[] = [];
  const bare: number[] = [];
  const single: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bulk.push(await inApp());
    bare.push(await runner());
    single.push(await sequential());
  }
  if (rule) await call(svc, 'DELETE', `/__control/faults/${rule}`);
  const b = median(bulk);
  const s = median(single);
  console.log(`  the runner alone (no UI) median ${median(bare).toFixed(0)} ms`);
  console.log(
    `${ITEMS} deletes, ${latency ? `${latency} ms added to each` : 'loopback'}: bulk in the app median ${b.toFixed(0)} ms (min ${Math.min(...bulk).toFixed(0)}, max ${Math.max(...bulk).toFixed(0)}); ` +
      `${ITEMS} sequential single deletes median ${s.toFixed(0)} ms; ratio ${(b / s).toFixed(2)}`,
  );
}
for (const child of children) child.kill();
