/**
 * Bytes on the wire: what the built app writes to its terminal at 120×40 on
 * the instances list, per key and per idle minute, on the embedded demo and
 * against a stub API holding 10,000 instances. What a user over SSH pays for.
 * Each key is pressed alone and counted until the app has been quiet for
 * QUIET_MS; the figure is the median over the presses. The idle minute is
 * measured over IDLE_SECONDS with --refresh at its minimum (2 s: the list is
 * refetched every 2 s, the live poller runs as always) and scaled to 60 s.
 * The same run measures a build with `--full-redraw` (Ink's default: the
 * whole frame at every change), builds taking turns REPS times.
 * A scroll through a long list (stub APIs of SCROLL_LISTS instances, 60 and
 * 200): Down from the first row to the last, each press counted, the
 * scrolled steps (the list moved under its column titles) apart; against a
 * build with `--no-shifts` too (the changed lines drawn again, not scrolled in
 * the terminal: the writer as it was before it learnt shifts).
 * Aims: ≤ 300 bytes per cursor move, ≤ 10 KB per idle minute when nothing on screen changed;
 * over a scroll, ≤ 400 bytes per scrolled step and ≤ 300 per key on average.
 * Run: npx tsx bench/tui-bytes.ts   (builds its own bundles)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS, spawnApp, type PtyApp } from '../test/helpers/pty.js';
import { buildVariant, removeBuild } from './lib/builds.js';
import { startStubApi } from './lib/stub-api.js';

const REPS = Number(process.env.REPS ?? 2);
const PRESSES = Number(process.env.PRESSES ?? 12);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 20);
const QUIET_MS = 250;
const PG_DOWNS = Math.max(3, Math.ceil(PRESSES / 3));
const SCROLL_LISTS = (process.env.SCROLL_LISTS ?? '60,200').split(',').map(Number);
// The list's first row on screen, under the header, the breadcrumbs, the count and the column titles.
const FIRST_LIST_ROW = 4;

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytesSince = (app: PtyApp, from: number) => Buffer.byteLength(app.output().slice(from));

/** Waits until the app has written nothing for QUIET_MS (or wrote nothing at all within a second). */
async function quiet(app: PtyApp) {
  let last = app.output().length;
  let still = 0;
  const start = Date.now();
  for (;;) {
    await sleep(10);
    const now = app.output().length;
    if (now !== last) {
      last = now;
      still = 0;
    } else if ((still += 10) >= QUIET_MS && (Date.now() - start > 1000 || now !== 0)) return;
  }
}

/** Bytes the app writes for one press of `key`. */
async function costOf(app: PtyApp, key: string) {
  await quiet(app);
  const from = app.output().length;
  app.press(key);
  await quiet(app);
  return bytesSince(app, from);
}

/** An instances list to open. */
interface List {
  label: string;
  args: string[];
  env: Record<string, string>;
  /** The list line that says every instance is loaded. */
  loaded: RegExp;
}

interface Dataset extends List {
  /** Keystrokes typed into the `/` filter, one at a time. */
  filter: string;
}

const KINDS = ['Down', 'PgDn', '/ filter keystroke'] as const;
type Kind = (typeof KINDS)[number];

async function openList(entry: string, d: List, refresh: number) {
  const app = spawnApp([...d.args, '--refresh', String(refresh)], { entry, cols: 120, rows: 40, env: d.env });
  await app.waitForScreen('? help', 60_000);
  app.press(':vm');
  await app.waitForScreen(/^:vm/m);
  app.press(KEYS.enter);
  await app.waitForScreen(d.loaded, 120_000);
  await quiet(app);
  return app;
}

async function close(app: PtyApp) {
  app.press('q');
  await Promise.race([app.exited, sleep(3000)]);
  app.kill();
}

async function keys(entry: string, d: Dataset): Promise<Record<Kind, number[]>> {
  const app = await openList(entry, d, 3600);
  const out: Record<Kind, number[]> = { Down: [], PgDn: [], '/ filter keystroke': [] };
  for (let i = 0; i < PRESSES; i++) out.Down.push(await costOf(app, KEYS.down));
  // Each PgDn from the top: on a list shorter than a page, a second one would move nothing.
  for (let i = 0; i < PG_DOWNS; i++) {
    app.press('g');
    out.PgDn.push(await costOf(app, KEYS.pageDown));
  }
  app.press('g');
  app.press('/');
  await quiet(app);
  for (const ch of d.filter) out['/ filter keystroke'].push(await costOf(app, ch));
  await close(app);
  return out;
}

/** Bytes of each Down from the top of the list to its end, the scrolled steps apart. */
async function scrollThrough(entry: string, d: List, rows: number) {
  const app = await openList(entry, d, 3600);
  const firstRow = async () => (await app.screen()).split('\n')[FIRST_LIST_ROW];
  const out = { key: [] as number[], scrolled: [] as number[] };
  for (let i = 1; i < rows; i++) {
    const before = await firstRow();
    const bytes = await costOf(app, KEYS.down);
    out.key.push(bytes);
    if ((await firstRow()) !== before) out.scrolled.push(bytes);
  }
  await close(app);
  return out;
}

async function idleMinute(entry: string, d: Dataset) {
  const app = await openList(entry, d, 2);
  await sleep(3000);
  const from = app.output().length;
  await sleep(IDLE_SECONDS * 1000);
  const bytes = (bytesSince(app, from) * 60) / IDLE_SECONDS;
  await close(app);
  return bytes;
}

const home = mkdtempSync(join(tmpdir(), 'vmtui-bench-bytes-'));
const stub = await startStubApi(10_000);
const datasets: Dataset[] = [
  {
    label: 'embedded demo',
    args: [],
    env: { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') },
    loaded: /\d+ items?(?! ·)/,
    filter: 'web',
  },
  {
    label: '10,000 instances',
    args: ['--api-url', stub.baseUrl, '--token', 'bench-token'],
    env: { XDG_CACHE_HOME: join(home, 'cache') },
    loaded: /10000 items(?! ·)/,
    filter: 'web-0001',
  },
];
const scrollStubs = await Promise.all(SCROLL_LISTS.map((n) => startStubApi(n)));
const scrollLists: List[] = SCROLL_LISTS.map((n, i) => ({
  label: `${n} instances`,
  args: ['--api-url', scrollStubs[i]!.baseUrl, '--token', 'bench-token'],
  env: { XDG_CACHE_HOME: join(home, 'cache') },
  loaded: new RegExp(`${n} items(?! ·)`),
}));
const variants = [
  { label: 'incremental', entry: buildVariant() },
  { label: 'full', entry: buildVariant(['--full-redraw']) },
];
// Measured on the scroll alone: the other figures do not move with shifts.
const noShifts = { label: 'no shifts', entry: buildVariant(['--no-shifts']) };
const scrollVariants = [...variants, noShifts];
const scrolls = new Map<string, { key: number[]; scrolled: number[] }>();
const scrollAt = (variant: string, d: List) => {
  const key = `${variant} ${d.label}`;
  if (!scrolls.has(key)) scrolls.set(key, { key: [], scrolled: [] });
  return scrolls.get(key)!;
};
type Samples = Record<Kind | 'idle minute', number[]>;
const samples = new Map<string, Samples>();
const at = (variant: string, d: Dataset) => {
  const key = `${variant} ${d.label}`;
  if (!samples.has(key)) samples.set(key, { Down: [], PgDn: [], '/ filter keystroke': [], 'idle minute': [] });
  return samples.get(key)!;
};
try {
  // The embedded demo's first run seeds its data file: not measured.
  await close(await openList(variants[0]!.entry, datasets[0]!, 3600));
  for (let rep = 0; rep < REPS; rep++) {
    // The builds take turns, so that each sees the machine as it is at the time.
    for (const v of rep % 2 ? [...variants].reverse() : variants) {
      for (const d of datasets) {
        const s = at(v.label, d);
        const k = await keys(v.entry, d);
        for (const kind of KINDS) s[kind].push(...k[kind]);
        s['idle minute'].push(await idleMinute(v.entry, d));
      }
    }
    for (const v of rep % 2 ? [...scrollVariants].reverse() : scrollVariants) {
      for (const [i, d] of scrollLists.entries()) {
        const s = scrollAt(v.label, d);
        const k = await scrollThrough(v.entry, d, SCROLL_LISTS[i]!);
        s.key.push(...k.key);
        s.scrolled.push(...k.scrolled);
      }
    }
  }
} finally {
  await stub.close();
  await Promise.all(scrollStubs.map((s) => s.close()));
  for (const v of scrollVariants) removeBuild(v.entry);
  rmSync(home, { recursive: true, force: true });
}

console.log(`bytes written at 120×40 on the instances list, median (${PRESSES} Down, ${PG_DOWNS} PgDn per run, ${REPS} runs per build);`);
console.log(`idle minute: ${IDLE_SECONDS} s with --refresh 2 (the minimum) scaled ×${(60 / IDLE_SECONDS).toFixed(1)}, median of ${REPS}; full = Ink redrawing the whole frame (--full-redraw)`);
for (const d of datasets) {
  console.log(`${d.label}:`);
  for (const kind of [...KINDS, 'idle minute'] as const) {
    const inc = median(at('incremental', d)[kind]);
    const full = median(at('full', d)[kind]);
    const aim = kind === 'Down' ? '   (aim ≤ 300)' : kind === 'idle minute' ? '   (aim ≤ 10,240)' : '';
    console.log(`  ${kind.padEnd(20)} ${Math.round(inc).toString().padStart(8)} B   full ${Math.round(full).toString().padStart(8)} B   ratio ${full > 0 ? (inc / full).toFixed(2) : '—'}${aim}`);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
console.log(`\na scroll through a list, Down from its first row to its last at 120×40, bytes (${REPS} runs per build);`);
console.log('no shifts = the writer drawing the moved lines again (--no-shifts), full = --full-redraw');
for (const d of scrollLists) {
  console.log(`${d.label}:`);
  const figures = [
    { label: 'scrolled step, median', of: (x: { key: number[]; scrolled: number[] }) => median(x.scrolled), aim: '   (aim ≤ 400)' },
    { label: 'per key, mean', of: (x: { key: number[]; scrolled: number[] }) => mean(x.key), aim: '   (aim ≤ 300)' },
    { label: 'per key, median', of: (x: { key: number[]; scrolled: number[] }) => median(x.key), aim: '' },
  ];
  for (const f of figures) {
    const [inc, lines, full] = ['incremental', 'no shifts', 'full'].map((v) => f.of(scrollAt(v, d)));
    console.log(
      `  ${f.label.padEnd(22)} ${Math.round(inc!).toString().padStart(6)} B   no shifts ${Math.round(lines!).toString().padStart(6)} B   ratio ${ratio(inc!, lines!)}   full ${Math.round(full!).toString().padStart(6)} B   ratio ${ratio(inc!, full!)}${f.aim}`,
    );
  }
  console.log(`  (${scrollAt('incremental', d).scrolled.length / REPS} of ${SCROLL_LISTS[scrollLists.indexOf(d)]! - 1} presses scrolled the list, per run)`);
}
