import { isAscii } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnApp, type PtyApp } from '../helpers/pty.js';
import { buildApp } from './build.js';

let entry: string;
let home: string;
const running: PtyApp[] = [];

beforeAll(() => {
  entry = buildApp();
  home = mkdtempSync(join(tmpdir(), 'vmtui-embedded-'));
}, 60_000);

afterAll(() => {
  for (const app of running) app.kill();
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The built app with no target: the embedded demo, its data in a data folder of this test's own. */
function start(args: string[] = []) {
  const app = spawnApp(args, { entry, env: { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') } });
  running.push(app);
  return app;
}
const dataFile = () => join(home, 'data', 'vmtui', 'service.sqlite');
const codeCaches = () => (existsSync(join(home, 'cache', 'vmtui', 'code')) ? readdirSync(join(home, 'cache', 'vmtui', 'code')).sort() : []);

describe('vmtui on the embedded demo account', () => {
  it('starts its service, shows the account, and quits cleanly; --fresh starts over', async () => {
    const app = start();
    await app.waitForScreen(/(embedded demo · http:\/\/|demo · )127\.0\.0\.1:\d+\/v4[^]*Instances\s+\d+[^]*Regions\s+\d+/);
    app.press('q');
    expect(await app.exited).toBe(0);
    expect(app.output()).toContain('\x1b[?1049l');
    expect(existsSync(dataFile())).toBe(true);

    const again = start(['--fresh']);
    await again.waitForScreen(/Instances\s+\d+/);
    again.press('q');
    expect(await again.exited).toBe(0);
  });

  it('keeps the compiled code of a start for the next one: the UI and its service thread each save a code cache, --help none', async () => {
    rmSync(join(home, 'cache'), { recursive: true, force: true });
    const help = start(['--help']);
    expect(await help.exited).toBe(0);
    expect(codeCaches()).toEqual([]);

    const app = start();
    await app.waitForScreen(/Regions\s+\d+/);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    app.press('q');
    expect(await app.exited).toBe(0);
    expect(codeCaches()).toEqual([expect.stringMatching(/^app-\w+\.v8$/), expect.stringMatching(/^service-\w+\.v8$/)]);

    const again = start();
    await again.waitForScreen(/Instances\s+\d+[^]*Regions\s+\d+/);
    again.press('q');
    expect(await again.exited).toBe(0);
  });

  it('is built of ASCII bundles, which load without UTF-8 decoding (src/boot/code-cache.ts)', () => {
    for (const name of ['vmtui', 'app', 'service', 'embedded-worker']) expect(isAscii(readFileSync(join(dirname(entry), `${name}.js`))), name).toBe(true);
  });

  it('leaves undici out of the UI bundle (read at every start), for object storage transfers to require from node_modules', () => {
    const app = join(dirname(entry), 'app.js');
    const source = readFileSync(app, 'latin1');
    expect(source.includes('llhttp'), 'undici bundled').toBe(false);
    expect(source.includes('("undici")'), 'undici required').toBe(true);
    expect(createRequire(app).resolve('undici')).toContain(join('node_modules', 'undici'));
  });

  it('starts its service on a data file made before without loading what only the first run needs (zlib, for the demo backups)', () => {
    const file = join(home, 'lazy.sqlite');
    const script = `require(${JSON.stringify(join(dirname(entry), 'service.js'))})
      .startRunningService({ data: ${JSON.stringify(file)}, seed: 'demo', port: 0 })
      .then((svc) => svc.close())
      .then(() => process.stdout.write(String(process.moduleLoadList.includes('NativeModule zlib'))));`;
    const zlibLoaded = () => execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(zlibLoaded(), 'seeding run').toBe('true');
    expect(zlibLoaded(), 'later run').toBe('false');
  });

  it('says why when its service cannot start, naming the data file and --fresh, with the terminal restored; --fresh keeps the file aside and starts over', async () => {
    mkdirSync(dirname(dataFile()), { recursive: true });
    for (const suffix of ['-wal', '-shm', '.key']) rmSync(dataFile() + suffix, { force: true });
    const list = 'this is not a database, it is a shopping list: eggs, milk, bread, and more words to fill a header page'.repeat(20);
    writeFileSync(dataFile(), list);
    const app = start();
    expect(await app.exited).toBe(1);
    expect(app.output()).toContain('\x1b[?1049l');
    expect(app.output()).toContain(
      `vmtui: the embedded service did not start: the data file ${dataFile()} is not an SQLite database. \`vmtui --fresh\` starts the demo account over; the old file is kept aside as ${dataFile()}.broken-<time>`,
    );
    expect(app.output()).not.toMatch(/\n\s+at /);

    const fresh = start(['--fresh']);
    await fresh.waitForScreen(/Instances\s+\d+/);
    fresh.press('q');
    expect(await fresh.exited).toBe(0);
    const aside = readdirSync(dirname(dataFile()))
      .filter((name) => /^service\.sqlite\.broken-\d{8}T\d{6}Z$/.test(name))
      .map((name) => join(dirname(dataFile()), name))
      .find((path) => readFileSync(path, 'utf8') === list);
    expect(aside).toBeDefined();
    expect(fresh.output()).toContain(`vmtui: --fresh started the demo account over; the previous data is kept as ${aside}`);
  });
});
