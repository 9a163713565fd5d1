// Bundles the CLI into one file: one file starts much faster than hundreds of
// modules, and bundling React and Ink lets NODE_ENV=production be fixed at build
// time (React's production build handles a key about 1.5x faster).
// The entry dist/vmtui.js loads chunks (dist/chunks/) on demand: --help does not
// load Ink, and the UI against a remote API does not load the service.
// Usage: node scripts/build.mjs [--outdir DIR]   (default dist)
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

// Ink imports its React devtools bridge (and the optional react-devtools-core) only when DEV=true; bundled, that import would be eager.
const noInkDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) => (args.importer.includes('/ink/') ? { path: 'ink-devtools', namespace: 'empty' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '' }));
  },
};

// Ink tokenizes every line of every frame into styled characters, with a cache
// that lives for one frame; moving the selection changes two lines of forty.
// Sharing the cache across frames (bounded) halves the cost of a keypress.
const inkFrameCache = {
  name: 'ink-frame-cache',
  setup(b) {
    b.onLoad({ filter: /[/\\]ink[/\\]build[/\\]output\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const from = 'caches = new OutputCaches();';
      if (!source.includes(from)) {
        console.warn('ink-frame-cache: Ink changed; its output cache is left per frame');
        return undefined;
      }
      const shared = `let sharedCaches;
function framesCache() {
    if (!sharedCaches || sharedCaches.styledChars.size + sharedCaches.widths.size > 50000) sharedCaches = new OutputCaches();
    return sharedCaches;
}
export default class Output {`;
      return { contents: source.replace(from, 'caches = framesCache();').replace('export default class Output {', shared), loader: 'js' };
    });
  },
};

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
rmSync(join(values.outdir, 'chunks'), { recursive: true, force: true });

await build({
  entryPoints: { vmtui: 'src/cli.ts' },
  outdir: values.outdir,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Native code stays a package.
  external: ['better-sqlite3'],
  plugins: [noInkDevtools, inkFrameCache],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS modules (React) still call require().
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __vmtuiRequire } from 'node:module';\nconst require = __vmtuiRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  minify: true,
  logLevel: 'warning',
});
chmodSync(join(values.outdir, 'vmtui.js'), 0o755);
