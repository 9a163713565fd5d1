// Bundles the app into a few CommonJS files in dist/: one file starts much
// faster than hundreds of modules, bundling React and Ink lets
// NODE_ENV=production be fixed at build time (React's production build handles
// a key about 1.5x faster), and only CommonJS can start from a V8 code cache
// on Node 20 (src/boot/code-cache.ts).
// dist/vmtui.js is the small entry (arguments, configuration); it runs dist/app.js (the terminal UI) or
// dist/service.js (`serve`, and `vmtui/service`, the library for test suites, typed by dist/service.d.ts), so --help does not load Ink and the UI against a
// remote API does not load the service. dist/embedded-worker.js is the
// embedded service's thread, which runs dist/service.js.
// Beside the bundles: THIRD-PARTY-LICENSES.txt, the licences of the packages they inline.
// Usage: node scripts/build.mjs [--outdir DIR] [--analyze] [--sourcemap] [--without PATCH,...] [--full-redraw] [--no-shifts] [--no-gate] [--sqlite-binding FILE]
//   default dist; --analyze prints what each bundle holds; --sourcemap writes source maps beside the bundles
//   (they hold the whole source, several MB: not for the package); for benchmarks, --without leaves out the named
//   patches of scripts/bundle-patches.mjs (by plugin name) and --full-redraw has Ink redraw the whole frame
//   at each change instead of the lines that changed, --no-shifts draws the lines of a scrolled list again
//   instead of scrolling them in the terminal, --no-gate passes server text to the terminal as it came (the
//   gate of src/app/visible.ts replaced by a pass-through: the baseline of bench/tui-gate.ts, never a build to run),
//   and --sqlite-binding builds the service on another SQLite binding with src/server/sqlite.ts's interface
//   (bench/sqlite-binding.ts compares them).
import { analyzeMetafile, build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  fastifyLazySemver,
  fastifyLazyServers,
  fastifyUnusedParts,
  findMyWayClosures,
  inkFrameCache,
  inkNoDevtools,
  inkOneFramePerTask,
  sharedInterop,
  sliceAnsiLazySegmenter,
  stringWidthFastPath,
  terminalSizeLazyChildProcess,
  tokenizeFastPath,
  yogaNoTopLevelAwait,
  yogaSync,
} from './bundle-patches.mjs';
import { thirdPartyLicenses } from './third-party-licenses.mjs';

const { values } = parseArgs({
  options: {
    outdir: { type: 'string', default: 'dist' },
    analyze: { type: 'boolean', default: false },
    sourcemap: { type: 'boolean', default: false },
    without: { type: 'string', default: '' },
    'full-redraw': { type: 'boolean', default: false },
    'no-shifts': { type: 'boolean', default: false },
    'sqlite-binding': { type: 'string' },
    'no-gate': { type: 'boolean', default: false },
  },
});
const outdir = values.outdir;
// The package is an ES module package; the bundles are CommonJS.
const PACKAGE = '{ "type": "commonjs" }\n';
const packageFile = join(outdir, 'package.json');
if (existsSync(packageFile) && readFileSync(packageFile, 'utf8') !== PACKAGE) {
  console.error(`build: ${outdir} holds a package.json of its own; give --outdir a folder for the bundles alone`);
  process.exit(2);
}
mkdirSync(outdir, { recursive: true });
// What an earlier build wrote there, and nothing else: its bundles, their maps and licence files, and the chunks of the older layout.
const BUILT = /^((vmtui|app|service|embedded-worker)\.js(\.map|\.LEGAL\.txt)?|service\.d\.ts|chunks|THIRD-PARTY-LICENSES\.txt)$/;
for (const name of readdirSync(outdir)) if (BUILT.test(name)) rmSync(join(outdir, name), { recursive: true, force: true });
writeFileSync(packageFile, PACKAGE);

// The bundles need the first three (CommonJS holds no top-level await); the others speed them up.
const REQUIRED = [inkNoDevtools, yogaSync, yogaNoTopLevelAwait];
const OPTIONAL = [inkOneFramePerTask, inkFrameCache, tokenizeFastPath, stringWidthFastPath, sliceAnsiLazySegmenter, fastifyLazySemver, fastifyLazyServers, fastifyUnusedParts, findMyWayClosures, terminalSizeLazyChildProcess, sharedInterop];
const without = new Set(values.without.split(',').filter(Boolean));
for (const name of without) {
  if (!OPTIONAL.some((p) => p.name === name)) {
    console.error(`build: --without ${name}: no such optional patch (${OPTIONAL.map((p) => p.name).join(', ')})`);
    process.exit(2);
  }
}
const noGate = {
  name: 'no-gate',
  setup(b) {
    b.onResolve({ filter: /(^|\/)visible\.js$/ }, (args) => (/[/\\]src[/\\]/.test(args.importer) ? { path: 'visible', namespace: 'no-gate' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'no-gate' }, () => ({ contents: 'export const visible = (text) => text;', loader: 'js' }));
  },
};
const plugins = [...REQUIRED, ...OPTIONAL.filter((p) => !without.has(p.name)), ...(values['no-gate'] ? [noGate] : [])];
const binding = values['sqlite-binding'];
if (binding) {
  // First: it must see the imports before any other plugin answers them.
  plugins.unshift({
    name: 'sqlite-binding',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/sqlite\.js$/ }, (args) => (args.importer.includes(join('src', 'server')) ? { path: resolve(binding) } : undefined));
      b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: 'better-sqlite3', external: true }));
    },
  });
}

const common = {
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  plugins,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"', VMTUI_BUNDLE: 'true', VMTUI_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version), VMTUI_FULL_REDRAW: String(values['full-redraw']), VMTUI_NO_SHIFTS: String(values['no-shifts']), 'import.meta.url': '__vmtuiUrl' },
  sourcemap: values.sourcemap ? 'linked' : false,
  // Licence texts go to a file of their own (one has the bundles' only non-ASCII letter, which would make V8 hold the whole source in two bytes per character).
  legalComments: 'linked',
  minify: true,
  logLevel: 'warning',
  metafile: true,
};
const importMetaUrl = 'var __vmtuiUrl = require("node:url").pathToFileURL(__filename).href;';

const results = await Promise.all([
  build({ ...common, entryPoints: { vmtui: 'src/cli.ts' }, banner: { js: `#!/usr/bin/env node\n${importMetaUrl}` } }),
  build({
    ...common,
    entryPoints: { app: 'src/app/start.tsx', service: 'src/server/index.ts', 'embedded-worker': 'src/server/embedded-worker.ts' },
    banner: { js: importMetaUrl },
  }),
]);
if (values.analyze) for (const result of results) console.log(await analyzeMetafile(result.metafile));
writeFileSync(join(outdir, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses(results.map((r) => r.metafile)));
chmodSync(join(outdir, 'vmtui.js'), 0o755);
// vmtui/service's types: kept by hand beside the library, which is typed by them (src/server/library.ts).
copyFileSync('src/server/library-api.d.ts', join(outdir, 'service.d.ts'));
