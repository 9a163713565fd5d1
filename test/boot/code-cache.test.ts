import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const run = promisify(execFile);
const CODE_CACHE = fileURLToPath(new URL('../../src/boot/code-cache.ts', import.meta.url));
let dir: string;
let savedCacheHome: string | undefined;
const cacheDir = () => join(dir, 'cache', 'vmtui', 'code');
const cacheFiles = () => {
  try {
    return readdirSync(cacheDir()).sort();
  } catch {
    return [];
  }
};

/** A fresh copy of the module, as a new process would have it (each bundle runs once per process). */
async function freshRunBundle() {
  vi.resetModules();
  return (await import('../../src/boot/code-cache.js')).runBundle;
}

/** Runs the bundle in a new Node process that stays past its start-up; its answer. */
async function runInProcess(file: string): Promise<number> {
  const code = `import { runBundle } from ${JSON.stringify(CODE_CACHE)}; console.log(runBundle(${JSON.stringify(file)}).answer); setTimeout(() => {}, 2300);`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') } });
  return Number(stdout);
}

function writeBundle(name: string) {
  const file = join(dir, `${name}.js`);
  writeFileSync(file, `exports.sum = (a, b) => a + b;\nexports.where = __dirname;\nexports.sep = require('node:path').sep;\nexports.answer = exports.sum(40, 2);\n`);
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vmtui-code-cache-'));
  savedCacheHome = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  if (savedCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedCacheHome;
  rmSync(dir, { recursive: true, force: true });
});

describe('runBundle', () => {
  it('runs a CommonJS bundle once per process, with its own require and __dirname', async () => {
    const runBundle = await freshRunBundle();
    const file = writeBundle('app');
    const exports = runBundle(file) as { answer: number; where: string; sep: string };
    expect(exports).toMatchObject({ answer: 42, where: dir, sep: '/' });
    expect(runBundle(file)).toBe(exports);
  });

  it('reads a bundle of ASCII, and one that is not, with the text it holds', async () => {
    const runBundle = await freshRunBundle();
    const ascii = join(dir, 'ascii.js');
    writeFileSync(ascii, 'exports.text = "\\u00e9 \\u2500";\n');
    const utf8 = join(dir, 'utf8.js');
    writeFileSync(utf8, 'exports.text = "\u00e9 \u2500";\n');
    expect((runBundle(ascii) as { text: string }).text).toBe('\u00e9 \u2500');
    expect((runBundle(utf8) as { text: string }).text).toBe('\u00e9 \u2500');
  });

  it('saves the code cache once the start-up is over, not before', async () => {
    const runBundle = await freshRunBundle();
    runBundle(writeBundle('app'));
    vi.advanceTimersByTime(1999);
    expect(cacheFiles()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(cacheFiles()).toEqual([expect.stringMatching(/^app-[0-9a-z]+\.v8$/)]);
  });

  // V8 keeps what an isolate compiled, so whether a cache is taken shows only in a new process.
  it('starts a new process from the saved cache without saving it again; a cache V8 rejects is replaced', async () => {
    vi.useRealTimers();
    const file = writeBundle('app');
    expect(await runInProcess(file)).toBe(42);
    const [name] = cacheFiles();
    const cached = join(cacheDir(), name!);
    utimesSync(cached, 1, 1);

    expect(await runInProcess(file)).toBe(42);
    expect(statSync(cached).mtimeMs).toBe(1000);

    writeFileSync(cached, 'not a code cache');
    expect(await runInProcess(file)).toBe(42);
    expect(readFileSync(cached, 'latin1')).not.toBe('not a code cache');
    utimesSync(cached, 1, 1);
    expect(await runInProcess(file)).toBe(42);
    expect(statSync(cached).mtimeMs).toBe(1000);
  }, 20_000);

  it("keeps the caches of a bundle's last three builds: older builds' and crashed saves go, other bundles' stay", async () => {
    const runBundle = await freshRunBundle();
    runBundle(writeBundle('service'));
    vi.advanceTimersByTime(2000);
    const service = cacheFiles();
    for (const [build, at] of [['oldest', 1000], ['older', 2000], ['old', 3000]] as const) {
      writeFileSync(join(cacheDir(), `app-${build}.v8`), `the ${build} build`);
      utimesSync(join(cacheDir(), `app-${build}.v8`), at, at);
    }
    writeFileSync(join(cacheDir(), 'app-old.v8.123.tmp'), 'a crashed save');
    runBundle(writeBundle('app'));
    vi.advanceTimersByTime(2000);
    const files = cacheFiles();
    expect(files).toHaveLength(4);
    expect(files).toContain(service[0]);
    expect(files).toEqual(expect.arrayContaining(['app-old.v8', 'app-older.v8']));
    expect(files.filter((f) => f.startsWith('app-') && !['app-old.v8', 'app-older.v8'].includes(f))[0]).toMatch(/^app-[0-9a-z]+\.v8$/);
  });

  it('runs without a cache where none can be written', async () => {
    writeFileSync(join(dir, 'cache'), 'a file where the cache folder would be');
    const runBundle = await freshRunBundle();
    const exports = runBundle(writeBundle('app')) as { answer: number };
    expect(() => vi.advanceTimersByTime(2000)).not.toThrow();
    expect(exports.answer).toBe(42);
  });
});
