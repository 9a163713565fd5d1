/**
 * Views over a slow link, in round trips. The built app in a pseudo-terminal
 * (the same bundle a user runs, Ink drawing) against the local service (demo
 * account) behind a proxy on this machine that holds each request DELAYS ms
 * before passing it on: one round trip of a far API per request. The proxy
 * listens on this machine's network address, not a loopback one, so the app
 * treats it as remote (16 connections: src/api/http.ts maxConnections).
 *
 * Each view is timed from the key that opens it to the frame that shows it
 * (the time the pty's write arrived), and divided by the delay: round trips.
 * The overview is timed twice: its own parts, then complete (every relation
 * drawn); the proxy's log gives the rounds of requests it sent (a request
 * starting a delay or more after the Enter belongs to a later round).
 *
 * Before and after in the same run: BEFORE (a git revision, default the
 * merge base with main) is built from `git archive` beside this tree's build.
 * Run: npx tsx bench/tui-latency.ts   (DELAYS=50,150,300 RUNS=1 BEFORE=rev|none)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { buildVariant, removeBuild } from './lib/builds.js';
import { KEYS, spawnApp, type PtyApp } from '../test/helpers/pty.js';
import { OWNER_TOKEN, startTestService } from '../test/helpers/service.js';

const DELAYS = (process.env.DELAYS ?? '50,150,300').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 1);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** An address of this machine that is not loopback: the app counts it remote. */
function remoteHost(): string {
  for (const addrs of Object.values(networkInterfaces())) for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('No network address other than loopback: the app would treat the proxy as local (6 connections)');
}

interface Logged {
  start: number;
  /** When the answer was passed back whole. */
  end?: number;
  method: string;
  path: string;
}

/**
 * The rounds of requests a view waited for, from the proxy's log: a request
 * started after another's answer was back may have waited for it, so it is
 * a round later; the view's rounds are the longest such chain among the
 * requests answered before it was drawn. Unlike times, it does not depend on
 * how busy the machine is.
 */
function roundsOf(log: Logged[], from: number, drawn: number): Logged[][] {
  const sent = log.filter((r) => r.start >= from && r.end !== undefined && r.end <= drawn);
  const round = new Map<Logged, number>();
  for (const r of sent) round.set(r, 1 + Math.max(0, ...sent.filter((q) => q.end! <= r.start).map((q) => round.get(q) ?? 0)));
  const out: Logged[][] = [];
  for (const [r, k] of round) (out[k - 1] ??= []).push(r);
  return out;
}

/** A loopback HTTP proxy holding each request `delay` ms before passing it to `target`. */
function startProxy(target: URL, host: string, delay: number): Promise<{ origin: string; log: Logged[]; close: () => void }> {
  const log: Logged[] = [];
  const server = http.createServer((req, res) => {
    const entry: Logged = { start: performance.now(), method: req.method ?? 'GET', path: (req.url ?? '').replace(/\?.*/, '') };
    log.push(entry);
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => (entry.end = performance.now()));
        });
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(body));
      }, delay),
    );
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      resolve({ origin: `http://${host}:${port}`, log, close: () => server.close() });
    }),
  );
}

/** The bundle of a git revision, built from its files beside this tree's node_modules. */
function buildRevision(rev: string): { entry: string; remove: () => void } {
  const root = join(process.cwd(), 'node_modules', '.cache');
  mkdirSync(root, { recursive: true });
  const src = mkdtempSync(join(root, 'vmtui-before-'));
  execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C ${src}`]);
  symlinkSync(join(process.cwd(), 'node_modules'), join(src, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', join(src, 'out')], { cwd: src, stdio: 'inherit' });
  return { entry: join(src, 'out', 'vmtui.js'), remove: () => rmSync(src, { recursive: true, force: true }) };
}

/** Every count of the home view in (a count still on its way is a lone `…` in its column). */
const HOME_DONE = /^(?![\s\S]* … )(?=[\s\S]*Instances {2,}\d+)(?=[\s\S]*Load balancers {2,}\d+)/;
/** An overview with every relation drawn: none still reading, its last section (the managed services) there. */
const overviewDone = (label: string) => new RegExp(`^(?![\\s\\S]*reading…)(?=[\\s\\S]*Instance\\s+running\\s+${label} )(?=[\\s\\S]*^ {2}(Firewall|Firewalls) )(?=[\\s\\S]*^ {2}(LB node|LB nodes) )(?=[\\s\\S]*^ {2}Address )(?=[\\s\\S]*^ {2}(Service|Services) )`, 'm');

/** A view's time in ms, and the rounds of requests it waited for. */
type Timing = Record<string, { ms: number; rounds: number }>;

async function typed(app: PtyApp, text: string) {
  app.press(':');
  await app.waitForScreen(/^: ?$/m);
  app.press(text);
  await app.waitForScreen(new RegExp(`^:${text} ?$`, 'm'));
}

/** From a key (or the app's first frame) to the frame that matches. */
async function timed(app: PtyApp, log: Logged[], key: string | undefined, match: RegExp, from = performance.now()) {
  if (key) app.press(key);
  const { at } = await app.shown(match, 60_000);
  return { ms: at - from, rounds: roundsOf(log, from, at).length };
}

/** One walk through the views: each one's time and rounds, and the overview's requests round by round. */
/** Where an overview's time goes, in ms from the Enter: its first request sent, and each drawing after the last answer it waited for. */
interface Gaps {
  sent: number;
  ownDrawn: number;
  completeDrawn: number;
}

/** Of the requests sent from `from` and answered by `drawn`: when the first was sent and the last answered (ms from `from`). */
function span(log: Logged[], from: number, drawn: number) {
  const sent = log.filter((r) => r.start >= from && r.end !== undefined && r.end <= drawn);
  return { first: Math.min(...sent.map((r) => r.start)) - from, last: Math.max(...sent.map((r) => r.end!)) - from };
}

async function walk(entry: string, api: string, log: Logged[]): Promise<{ views: Timing; overview: Logged[][]; search: Logged[][]; gaps: Gaps }> {
  const app = spawnApp(['--api-url', api, '--token', OWNER_TOKEN, '--refresh', '60'], { entry, cols: 140, rows: 50 });
  const jump = async (text: string, shown: RegExp) => {
    await typed(app, text);
    app.press(KEYS.enter);
    await app.waitForScreen(shown, 60_000);
  };
  try {
    const views: Timing = {};
    views.home = await timed(app, log, undefined, HOME_DONE, await app.firstWriteAt);
    await typed(app, 'vm web-1');
    views.instances = await timed(app, log, KEYS.enter, /^› web-1\s/m);
    const enter = performance.now();
    views.ownParts = await timed(app, log, KEYS.enter, /Instance\s+running\s+web-1 /, enter);
    views.overview = await timed(app, log, undefined, overviewDone('web-1'), enter);
    const overview = roundsOf(log, enter, enter + views.overview.ms);
    const own = span(log, enter, enter + views.ownParts.ms);
    const gaps = { sent: own.first, ownDrawn: views.ownParts.ms - own.last, completeDrawn: views.overview.ms - span(log, enter, enter + views.overview.ms).last };
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › instances$/m);
    await jump('vm web-2', /^› web-2\s/m);
    views.secondOverview = await timed(app, log, KEYS.enter, overviewDone('web-2'));
    await jump('lb', /^› web-lb\s/m);
    views.ports = await timed(app, log, KEYS.enter, /80 http\s+roundrobin\s+table\s+http\s+\d+ up/);
    views.nodes = await timed(app, log, KEYS.enter, /web-3\s+192\.168\.128\.4:80\s+UP/);
    // A balancer nothing has read below yet: its ports are drawn before their nodes arrive.
    await jump('lb api-lb', /^› api-lb\s/m);
    views.coldPorts = await timed(app, log, KEYS.enter, /8443 \w+\s+\w+\s+\S+\s+\S+\s+\d+ up/);
    await jump('buckets', /^home › buckets\n[^\n]*\d+ items?/m);
    views.folder = await timed(app, log, KEYS.enter, /^home › buckets › [^\n]+\n[^\n]*\d+ (item|entr)/m);
    await typed(app, 'search web');
    const asked = performance.now();
    views.searchHits = await timed(app, log, KEYS.enter, /[1-9]\d* hits? · /, asked);
    views.search = await timed(app, log, undefined, /\d+ hits? · in \d+ lists/, asked);
    return { views, overview, search: roundsOf(log, asked, asked + views.search.ms), gaps };
  } finally {
    app.kill();
  }
}

const VIEWS: [string, string][] = [
  ['home', 'home view, all counts (from its first frame)'],
  ['instances', ':vm after home (a cached list)'],
  ['ownParts', 'overview: its own parts'],
  ['overview', 'overview: complete, first time'],
  ['secondOverview', 'overview of a second instance'],
  ['ports', "a balancer's ports"],
  ['nodes', "a port's nodes"],
  ['coldPorts', "a balancer's ports, nothing read below it"],
  ['folder', "a bucket's folder"],
  ['searchHits', ':search web, first hits (cached lists)'],
  ['search', ':search web, all lists'],
];

async function main() {
  const host = remoteHost();
  const svc = await startTestService({ seed: 'demo' });
  const target = new URL(svc.baseUrl);
  const beforeRev = process.env.BEFORE ?? execFileSync('git', ['merge-base', 'HEAD', 'main']).toString().trim();
  const builds: { name: string; entry: string; remove: () => void }[] = [];
  if (beforeRev !== 'none') builds.push({ name: `before (${beforeRev.slice(0, 7)})`, ...buildRevision(beforeRev) });
  const after = buildVariant();
  builds.push({ name: 'after (this tree)', entry: after, remove: () => removeBuild(after) });
  try {
    console.log(`proxy on ${host} (remote to the app), delays ${DELAYS.join(', ')} ms, ${RUNS} run(s), median`);
    for (const delay of DELAYS) {
      const proxy = await startProxy(target, host, delay);
      const results = new Map<string, { views: Timing; overview: Logged[][]; search: Logged[][]; gaps: Gaps }>();
      for (const b of builds) {
        const runs: { views: Timing; overview: Logged[][]; search: Logged[][]; gaps: Gaps }[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await walk(b.entry, `${proxy.origin}/v4`, proxy.log));
        const views = Object.fromEntries(VIEWS.map(([k]) => [k, { ms: median(runs.map((r) => r.views[k]!.ms)), rounds: median(runs.map((r) => r.views[k]!.rounds)) }]));
        const { overview, search } = runs[Math.floor(runs.length / 2)]!;
        const gaps = { sent: median(runs.map((r) => r.gaps.sent)), ownDrawn: median(runs.map((r) => r.gaps.ownDrawn)), completeDrawn: median(runs.map((r) => r.gaps.completeDrawn)) };
        results.set(b.name, { views, overview, search, gaps });
      }
      proxy.close();
      console.log(`\n${delay} ms per request`);
      console.log(`${'view'.padEnd(44)}${builds.map((b) => b.name.padStart(34)).join('')}`);
      for (const [k, title] of VIEWS) {
        const cells = builds.map((b) => {
          const v = results.get(b.name)!.views[k]!;
          return `${v.rounds} rounds ${(v.ms / delay).toFixed(2)} RT ${Math.round(v.ms)} ms`.padStart(34);
        });
        console.log(`${title.padEnd(44)}${cells.join('')}`);
      }
      for (const b of builds) {
        // The app's own part of a view's time: nothing in it waits on a timer.
        const g = results.get(b.name)!.gaps;
        console.log(`overview, ${b.name}: first request sent ${Math.round(g.sent)} ms after the Enter; own parts drawn ${Math.round(g.ownDrawn)} ms, the whole ${Math.round(g.completeDrawn)} ms after the last answer each waited for`);
        for (const view of ['overview', 'search'] as const) {
          console.log(`${view}'s rounds of requests, ${b.name}:`);
          results.get(b.name)![view].forEach((round, i) => console.log(`  ${i + 1}: ${round.length} × ${[...new Set(round.map((r) => r.path.replace(/\/\d+/g, '/N')))].join(', ')}`));
        }
      }
    }
  } finally {
    for (const b of builds) b.remove();
    await svc.close();
  }
}

await main();
