// Bundles the CLI into one file: one file starts much faster than hundreds of
// modules, and bundling React and Ink lets NODE_ENV=production be fixed at build
// time (React's production build handles a key about 1.5x faster).
// Usage: node scripts/build.mjs [--outfile FILE]   (default dist/vmtui.js)
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { parseArgs } from 'node:util';

// Ink imports its React devtools bridge (and the optional react-devtools-core) only when DEV=true; bundled, that import would be eager.
const noInkDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) => (args.importer.includes('/ink/') ? { path: 'ink-devtools', namespace: 'empty' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '' }));
  },
};

const { values } = parseArgs({ options: { outfile: { type: 'string', default: 'dist/vmtui.js' } } });

await build({
  entryPoints: ['src/cli.ts'],
  outfile: values.outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Native code stays a package.
  external: ['better-sqlite3'],
  plugins: [noInkDevtools],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS modules (React) still call require().
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __vmtuiRequire } from 'node:module';\nconst require = __vmtuiRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(values.outfile, 0o755);
