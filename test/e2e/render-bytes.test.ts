import { describe, expect, it } from 'vitest';
import { KEYS, type PtyApp } from '../helpers/pty.js';
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

async function instances(cols: number, rows: number) {
  const app = built.start(undefined, { cols, rows });
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
