import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opensHomeAndQuits } from '../helpers/pty.js';
import { spawnServe } from '../helpers/serve-process.js';
import { buildApp } from './build.js';

/**
 * Starts and stops of the built app, many in a row, on the Node.js running
 * the suite (.ci/run runs this file on Node 22 and 26 as well): better-sqlite3
 * 12 aborted about one start in two on Node 24.21, in its statements'
 * teardown, whichever command it served. Each start does real work (writes,
 * reads, the UI's first screen with data), so a teardown has something to free.
 */
const SERVE_STARTS = 20;
const TUI_STARTS = 10;

let entry = '';
const work = mkdtempSync(join(tmpdir(), 'vmtui-starts-'));
beforeAll(() => {
  entry = buildApp();
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** No abort, no assertion, no signal: what a crash in a native teardown leaves. */
const CRASH = /Assertion failed|Aborted|core dumped|Segmentation fault|FATAL ERROR/;

describe(`on Node.js ${process.version}`, () => {
  it(`serve starts, answers reads and writes, and stops cleanly ${SERVE_STARTS} times in a row`, async () => {
    const data = join(work, 'serve.db');
    for (let i = 0; i < SERVE_STARTS; i++) {
      const svc = await spawnServe(process.execPath, [entry, 'serve', '--data', data, '--seed', 'empty', '--port', '0']).catch((err: Error) => {
        throw new Error(`start ${i + 1}: ${err.message}`);
      });
      const { child, ready, exited } = svc;
      const auth = { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' };
      const made = await fetch(`${ready.base_url}/managed/contacts`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `start ${i}`, email: `s${i}@example.com` }) });
      expect(made.status, `start ${i + 1}`).toBe(200);
      const list = (await (await fetch(`${ready.base_url}/managed/contacts?page_size=100`, { headers: auth })).json()) as { results: number };
      expect(list.results, `start ${i + 1}`).toBe(i + 1);
      child.kill('SIGTERM');
      const end = await exited;
      expect({ start: i + 1, ...end, crash: CRASH.exec(svc.stderr())?.[0] }).toEqual({ start: i + 1, code: 0, signal: null, crash: undefined });
    }
  }, 180_000);

  it(`the terminal UI opens the embedded demo with its data and quits cleanly ${TUI_STARTS} times in a row`, async () => {
    const home = join(work, 'home');
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
    for (let i = 0; i < TUI_STARTS; i++) {
      const { code, output } = await opensHomeAndQuits([], { entry, env }, async (ui) => {
        // The abort came about a second in, once the first statements were collected.
        await new Promise((r) => setTimeout(r, 1200));
        ui.press(':vm\r');
        await ui.waitForScreen(/web-1/, 10_000);
      });
      expect({ start: i + 1, code, crash: CRASH.exec(output)?.[0] }).toEqual({ start: i + 1, code: 0, crash: undefined });
    }
  }, 240_000);
});
