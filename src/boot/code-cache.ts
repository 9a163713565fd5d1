import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import envPaths from 'env-paths';

/**
 * Runs one of the build's CommonJS bundles from a V8 code cache. Compiling
 * the UI's bundle, and then each function the first frame calls, costs more
 * than anything else in a start; V8 can keep that work in a
 * cache, but Node 20 offers it for scripts only, not for ES modules. The
 * cache holds what a run compiled in its first seconds (its start-up), saved
 * in the user's cache folder by the first run that lasts that long (again
 * when V8 rejects it: another Node, other flags, a new build). A run that
 * ends at once (--help) saves nothing: its cache would lack the start-up.
 */
export function runBundle(file: string): unknown {
  let exports = loaded.get(file);
  if (exports === undefined) loaded.set(file, (exports = load(file)));
  return exports;
}

/** Long enough for the first screen with data, and short enough that V8 has not yet dropped the start-up's compiled code. */
const START_UP_MS = 2000;

/**
 * Caches of a bundle kept, one per build, the newest: two installs used side
 * by side (a global one and npx, a build beside a release) would otherwise
 * throw each other's cache away at every start.
 */
const KEPT_BUILDS = 3;

/** Each bundle runs once: its classes (errors checked with instanceof) are the same for every caller. */
const loaded = new Map<string, unknown>();

function load(file: string): unknown {
  const bytes = readFileSync(file);
  // The bundles are ASCII (esbuild escapes the rest), which Latin-1 decodes as UTF-8 would, in a fraction of the time (1 MB: ~1 ms, not ~15).
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const cacheDir = join(envPaths('vmtui', { suffix: '' }).cache, 'code');
  const name = file.replace(/^.*[/\\]/, '').replace(/\.[cm]?js$/, '');
  const cacheFile = join(cacheDir, `${name}-${buildKey(file)}.v8`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  // The wrapper has a line of its own so the bundle's positions (and its source map) stay right.
  // The bundles hold no import(): a script started from a code cache cannot import (Node 20).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename: file, lineOffset: -1, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected) setTimeout(() => saveCache(script, cacheDir, name, cacheFile), START_UP_MS).unref();
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** One cache per build of a bundle and per Node: the key changes when either does. */
function buildKey(file: string): string {
  const { size, mtimeMs } = statSync(file);
  const key = `${file}\0${size}\0${mtimeMs}\0${process.version}\0${process.arch}`;
  // FNV-1a: loading node:crypto for this would cost more than the hash.
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/** Best effort: a cache that cannot be written only means the next start compiles again. */
function saveCache(script: Script, dir: string, name: string, cacheFile: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
    const others = readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && join(dir, f) !== cacheFile);
    const older = others
      .filter((f) => f.endsWith('.v8'))
      .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .slice(KEPT_BUILDS - 1);
    for (const f of [...others.filter((o) => o.endsWith('.tmp')), ...older.map((o) => o.f)]) rmSync(join(dir, f), { force: true });
  } catch {
    // Nothing to report: the cache is only ever a speed-up.
  }
}
