// Before `npm start` and `npm run serve`: builds dist/ when it is missing or
// older than the sources, so a clone runs with `npm install && npm start`.
// It is not npm's `prepare`: the published package would then declare an
// install script it cannot run (it ships no scripts/), and npm asks every
// installer to allow it. Without esbuild (`npm ci --omit=dev`, a container's
// second stage) the dist/ already there is what runs.
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'dist', 'vmtui.js');

const hasEsbuild = (() => {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
})();

/** The newest change to what the build reads. */
function newestSource() {
  let newest = 0;
  const walk = (path) => {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s) return;
    if (s.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else newest = Math.max(newest, s.mtimeMs);
  };
  for (const part of ['src', 'scripts', 'package.json', 'package-lock.json']) walk(join(root, part));
  return newest;
}

const built = statSync(entry, { throwIfNoEntry: false })?.mtimeMs;
if (built !== undefined && (!hasEsbuild || built >= newestSource())) process.exit(0);
if (hasEsbuild) {
  process.chdir(root);
  await import('./build.mjs');
} else {
  console.error('vmtui: dist/ is not built and esbuild is not installed: run `npm install` with dev dependencies (or `npm ci`) to build it.');
  process.exit(1);
}
