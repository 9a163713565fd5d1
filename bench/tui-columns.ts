/**
 * Columns of one's choosing at 100 and 10,000 instances, end to end: the
 * built app in a pseudo-terminal against the stub API. Two runs per size:
 * the list's own columns (baseline), and the columns of a config.json that
 * shows nested fields at chosen widths (label, status, specs.vcpus,
 * specs.memory); in the second, `j` in the list, `C` opening the chooser
 * (with Esc), `j` in the chooser, and `P` sorting by specs.vcpus (again
 * reverses) are timed key → frame.
 * Run: npm run build && npx tsx bench/tui-columns.ts
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOnStub } from './lib/instances-app.js';
import { keyFrameTimes, shown } from './lib/key-frame.js';
import { startStubApi } from './lib/stub-api.js';

const PRESSES = Number(process.env.PRESSES ?? 100);
const SIZES = (process.env.SIZES ?? '100,10000').split(',').map(Number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const home = mkdtempSync(join(tmpdir(), 'vmtui-bench-columns-'));
mkdirSync(join(home, 'vmtui'));
writeFileSync(join(home, 'vmtui', 'config.json'), JSON.stringify({ columns: { instances: [{ key: 'label' }, { key: 'status' }, { key: 'specs.vcpus', width: 6 }, { key: 'specs.memory', width: 8 }] } }));

for (const rows of SIZES) {
  const api = await startStubApi(rows);
  const own = await openOnStub(rows, { api, env: { XDG_CONFIG_HOME: join(home, 'none') } });
  const plain = await keyFrameTimes(own.proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  await own.close();

  const app = await openOnStub(rows, { api, env: { XDG_CONFIG_HOME: home } });
  const { proc } = app;
  const list = await keyFrameTimes(proc, (i) => (i % 50 === 49 ? 'g' : 'j'), PRESSES);
  const sort = await keyFrameTimes(proc, () => 'P', PRESSES);
  const open = await keyFrameTimes(proc, (i) => (i % 2 === 0 ? 'C' : '\x1b'), PRESSES * 2, { timed: (i) => i % 2 === 0 });
  proc.write('C');
  await sleep(300);
  const chooser = await keyFrameTimes(proc, (i) => (i % 20 < 10 ? 'j' : 'k'), PRESSES);
  proc.write('\x1b');
  await sleep(200);
  await app.close();
  await api.close();
  console.log(`${String(rows).padStart(6)} instances: j, the list's own columns ${shown(plain)}`);
  console.log(`${String(rows).padStart(6)} instances: j, chosen columns ${shown(list, plain)}; C ${shown(open, plain)}; j/k in the chooser ${shown(chooser, plain)}`);
  console.log(`${String(rows).padStart(6)} instances: P, sort by specs.vcpus ${shown(sort, plain)}   (aim: p95 under 10 ms)`);
}
rmSync(home, { recursive: true, force: true });
