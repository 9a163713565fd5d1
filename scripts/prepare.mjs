// npm's `prepare`: builds dist/ on a source install. `npm ci --omit=dev` (a
// container's second stage, on a clone built once) runs it too, without
// esbuild: then the dist/ already there is what runs, and only a clone never
// built has nothing to run.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const hasEsbuild = (() => {
  try {
    createRequire(import.meta.url).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
})();

if (hasEsbuild) await import('./build.mjs');
else if (existsSync(new URL('../dist/vmtui.js', import.meta.url))) console.log('vmtui prepare: esbuild is not installed (dev dependencies omitted): keeping the dist/ already built.');
else {
  console.error('vmtui prepare: dist/ is not built and esbuild is not installed: run `npm install` with dev dependencies (or `npm ci`) to build it.');
  process.exit(1);
}
