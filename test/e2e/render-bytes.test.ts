import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { KEYS, type PtyApp } from '../helpers/pty.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';
import { tmuxApp, tmuxMissing, type TmuxApp } from '../helpers/tmux.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the app has written nothing for 300 ms. */
async function quiet(app: PtyApp) {
  let last = -1;
  while (app.output().length !== last) {
    last = app.output().length;
    await sleep(300);
  }
}

async function instances(cols: number, rows: number, args?: string[]) {
  const app = built.start(args, { cols, rows });
  await app.waitForScreen('? help');
  app.press(':vm');
  await app.waitForScreen(/^:vm/m);
  app.press(KEYS.enter);
  await app.waitForScreen(/^\d+ items$/m);
  await quiet(app);
  return app;
}

/** Waits until the screen passes `test`; the error shows the last screen. */
async function until(app: PtyApp, test: (screen: string) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = await app.screen();
    if (test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`Timed out; the screen was:\n${screen}`);
    await sleep(20);
  }
}

/** The row the selection marker is on. */
const selected = (screen: string) => screen.split('\n').findIndex((l) => l.startsWith('›'));

/** A key as the pty sends it and as tmux names it. */
interface Key {
  pty: string;
  tmux: string;
}
const key = (pty: string, tmux = pty): Key => ({ pty, tmux });
const K = {
  j: key('j'),
  k: key('k'),
  down: key(KEYS.down, 'Down'),
  up: key(KEYS.up, 'Up'),
  pageDown: key(KEYS.pageDown, 'NPage'),
  pageUp: key('\x1b[5~', 'PPage'),
  top: key('g'),
  bottom: key('G'),
  filter: key('/'),
  enter: key(KEYS.enter, 'Enter'),
  esc: key(KEYS.esc, 'Escape'),
};
const times = (n: number, k: Key) => Array<Key>(n).fill(k);
const text = (s: string) => [...s].map((c) => key(c));

/**
 * Scrolls every way a list scrolls: a row at a time down and up past the
 * window's edges, pages, the ends, a filter typed (the list shortened under
 * the window) and kept, then cleared.
 */
const SCROLLS: Key[] = [
  ...times(40, K.j),
  ...times(6, K.down),
  ...times(38, K.k),
  ...times(5, K.up),
  K.pageDown,
  K.pageDown,
  ...times(3, K.j),
  K.pageUp,
  ...times(2, K.k),
  K.bottom,
  ...times(4, K.k),
  K.top,
  ...times(36, K.j),
  K.filter,
  ...text('scroll-1'),
  K.enter,
  ...times(5, K.j),
  K.k,
  K.filter,
  K.esc,
  ...times(20, K.j),
  ...times(20, K.k),
];
// After any history at the screen's size, these leave the same view: the window scrolled down past its end, then up.
const SETTLE: Key[] = [K.top, ...times(45, K.j), ...times(39, K.k)];

/** A terminal the app runs in, for the same keys and checks in xterm.js (a pty) and in tmux. */
interface Term {
  press(k: Key): void;
  resize(cols: number, rows: number): void;
  screen(): Promise<string>;
  pid: number;
}

const inPty = (app: PtyApp): Term => ({ press: (k) => app.press(k.pty), resize: (c, r) => app.resize(c, r), screen: () => app.screen(), pid: app.pid });
const inTmux = (app: TmuxApp): Term => ({ press: (k) => app.press([k.tmux]), resize: (c, r) => app.resize(c, r), screen: async () => app.screen(), pid: app.pid });

const MOVES = new Set([K.j, K.k, K.down, K.up]);

/** Presses the keys one after another: moves a few milliseconds apart (some land within one frame, as when a key is held), other keys as typed. */
async function typeKeys(terms: Term[], keys: Key[]) {
  for (const [i, k] of keys.entries()) {
    for (const t of terms) t.press(k);
    await sleep(!MOVES.has(k) ? 120 : i % 4 === 3 ? 60 : 8);
  }
}

/** Waits until the screen has not changed for 400 ms. */
async function still(t: Term) {
  let last = await t.screen();
  for (let same = 0; same < 400; same += 50) {
    await sleep(50);
    const now = await t.screen();
    if (now !== last) {
      last = now;
      same = -50;
    }
  }
  return last;
}

/** What `t` shows once it has drawn its frame whole again (a SIGWINCH at the same size: the screen writer redraws from nothing). */
async function drawnWhole(t: Term) {
  await still(t);
  process.kill(t.pid, 'SIGWINCH');
  await sleep(200);
  return still(t);
}

/**
 * Runs the same scrolls in `app` and in `fresh`, both on the instances list at 120×40; `app` is resized
 * between them and scrolled more. After each part, `app`'s screen, drawn line by line and scroll by
 * scroll, must be what `fresh` shows drawn whole.
 */
async function scrollsMatch(app: Term, fresh: Term) {
  await typeKeys([app, fresh], SCROLLS);
  expect(await still(app)).toBe(await drawnWhole(fresh));
  app.resize(100, 30);
  await sleep(150);
  await typeKeys([app], [...times(25, K.j), K.pageDown, ...times(10, K.k), K.bottom, ...times(30, K.k)]);
  app.resize(120, 40);
  await sleep(150);
  await typeKeys([app, fresh], SETTLE);
  const shown = await still(app);
  expect(shown).toMatch(/^› /m);
  expect(shown).toBe(await drawnWhole(fresh));
}

describe('what the app sends to its terminal', () => {
  it('a cursor move at 120×40 costs the two lines that changed, well under 400 bytes', async () => {
    const app = await instances(120, 40);
    const costs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const from = app.output().length;
      const row = selected(await app.screen());
      app.press(KEYS.down);
      await until(app, (s) => selected(s) === row + 1);
      await quiet(app);
      costs.push(Buffer.byteLength(app.output().slice(from)));
    }
    costs.sort((a, b) => a - b);
    // The median: a write of the live poller's may land beside one press.
    expect(costs[2]).toBeLessThanOrEqual(400);
    app.press('q');
    expect(await app.exited).toBe(0);
  }, 60_000);

  it('after resizes, the help overlay and scrolling, the screen is what a fresh app draws for the same view', async () => {
    const app = await instances(100, 30);
    for (let i = 0; i < 3; i++) app.press(KEYS.down);
    await until(app, (s) => selected(s) === 7);
    app.resize(120, 40);
    await app.waitForScreen(/^\? help/m);
    app.press('?');
    await app.waitForScreen(/^Everywhere$/m);
    app.press(KEYS.esc);
    await until(app, (s) => !/^Everywhere$/m.test(s) && selected(s) > 0);
    app.press(KEYS.pageDown);
    app.resize(80, 24);
    await until(app, (s) => s.split('\n').length === 24 && /^\? help/m.test(s));
    app.press(KEYS.down);
    // At once: the app may read the size only after it is back to 120×40, and hear of no resize.
    app.resize(120, 40);
    await until(app, (s) => s.split('\n').length === 40 && /^\? help/m.test(s));
    app.press('g');
    app.press(KEYS.down);
    app.press(KEYS.down);
    await until(app, (s) => selected(s) === 6);
    await quiet(app);

    const fresh = await instances(120, 40);
    fresh.press(KEYS.down);
    fresh.press(KEYS.down);
    await until(fresh, (s) => selected(s) === 6);
    await quiet(fresh);
    expect(await app.screen()).toBe(await fresh.screen());
    for (const a of [app, fresh]) {
      a.press('q');
      expect(await a.exited).toBe(0);
    }
  }, 90_000);

  it('gives the terminal back as it found it, autowrap included, on q and on a signal', async () => {
    for (const end of [(a: PtyApp) => a.press('q'), (a: PtyApp) => a.kill()]) {
      const app = await instances(100, 30);
      end(app);
      await app.exited;
      await sleep(50);
      const out = app.output();
      expect(out.lastIndexOf('\x1b[?7h')).toBeGreaterThan(out.lastIndexOf('\x1b[?7l'));
      expect(out.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(out.lastIndexOf('\x1b[?1049h'));
      expect(app.alternateScreen()).toBe(false);
    }
  }, 60_000);
});

describe('a list longer than the screen, scrolled', () => {
  // A service of their own: the demo's instances and these, more than 120×40 shows.
  const ADDED = 60;
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ seed: 'demo' });
    for (let i = 0; i < ADDED; i++) {
      const res = await call(svc, 'POST', '/vm/instances', { body: { label: `scroll-${String(i).padStart(2, '0')}`, region: 'us-east', type: 'g6-nanode-1' } });
      expect(res.status).toBe(200);
    }
  }, 60_000);
  afterAll(() => svc?.close());
  const long = () => ['--api-url', svc.baseUrl, '--token', OWNER_TOKEN];

  it('a scroll through a long list at 120×40: each scrolled step well under 400 bytes, under 300 a key on average', async () => {
    const app = await instances(120, 40, long());
    const list = (s: string) => s.split('\n').slice(4, 38).join('\n');
    const costs: number[] = [];
    const scrolled: number[] = [];
    for (let i = 0; i < 60; i++) {
      const before = await app.screen();
      const from = app.output().length;
      app.press(KEYS.down);
      await until(app, (s) => s !== before);
      await quiet(app);
      const bytes = Buffer.byteLength(app.output().slice(from));
      costs.push(bytes);
      // A scrolled step: the row under the column titles is another instance now.
      if (list(await app.screen()).split('\n')[0] !== list(before).split('\n')[0]) scrolled.push(bytes);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(scrolled.length).toBeGreaterThanOrEqual(20);
    expect(median(scrolled)).toBeLessThanOrEqual(400);
    expect(median(costs)).toBeLessThanOrEqual(300);
    expect(costs.reduce((a, b) => a + b, 0) / costs.length).toBeLessThanOrEqual(300);
    app.press('q');
    expect(await app.exited).toBe(0);
  }, 90_000);

  it('after scrolls down and up (j/k, arrows, pages, g/G, a filter) and resizes, xterm.js shows what a fresh app draws whole', async () => {
    const [app, fresh] = await Promise.all([instances(120, 40, long()), instances(120, 40, long())]);
    await scrollsMatch(inPty(app), inPty(fresh));
    for (const a of [app, fresh]) {
      a.press('q');
      expect(await a.exited).toBe(0);
    }
  }, 120_000);

  it.skipIf(tmuxMissing)(`so does tmux, which keeps a screen of its own${tmuxMissing ? ` (skipped: ${tmuxMissing})` : ''}`, async () => {
    const open = async () => {
      const app = tmuxApp(built.entry, long(), { cols: 120, rows: 40 });
      const t = inTmux(app);
      const seen = async (re: RegExp) => {
        const deadline = Date.now() + 30_000;
        while (!re.test(await t.screen())) {
          if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(re)}; the pane was:\n${await t.screen()}`);
          await sleep(50);
        }
      };
      await seen(/\? help/);
      app.press([':vm'], true);
      await seen(/^:vm/m);
      app.press(['Enter']);
      await seen(/^\d+ items$/m);
      await still(t);
      return { app, t };
    };
    const [a, b] = await Promise.all([open(), open()]);
    try {
      await scrollsMatch(a.t, b.t);
    } finally {
      a.app.kill();
      b.app.kill();
    }
  }, 120_000);
});
