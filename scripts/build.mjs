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

/** Replaces `from` with `to` in a dependency's source, or warns (and leaves it be) when the dependency changed. */
function patch(source, name, replacements) {
  let out = source;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) {
      console.warn(`${name}: the dependency changed; left unpatched`);
      return undefined;
    }
    out = out.replace(from, to);
  }
  return { contents: out, loader: 'js' };
}

// Ink draws each frame from scratch: a cell object for every blank, each line
// tokenized into styled characters, then every line turned back into a string.
// Moving the selection changes two lines of forty, so: the styled characters
// are cached across frames (bounded), blanks share one cell, and a line whose
// cells are the very same objects as in the last frame reuses its string.
const inkFrameCache = {
  name: 'ink-frame-cache',
  setup(b) {
    b.onLoad({ filter: /[/\\]ink[/\\]build[/\\]output\.js$/ }, async (args) =>
      patch(await readFile(args.path, 'utf8'), 'ink-frame-cache', [
        ['caches = new OutputCaches();', 'caches = framesCache();'],
        [
          'export default class Output {',
          `let sharedCaches;
function framesCache() {
    if (!sharedCaches || sharedCaches.styledChars.size + sharedCaches.widths.size > 50000) sharedCaches = new OutputCaches();
    return sharedCaches;
}
const BLANK = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
let lastLines = [];
function lineString(y, cells) {
    const last = lastLines[y];
    if (last && last.cells.length === cells.length && last.cells.every((c, i) => c === cells[i])) return last.text;
    const text = styledCharsToString(cells).trimEnd();
    lastLines[y] = { cells, text };
    return text;
}
export default class Output {`,
        ],
        [
          `row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
          'row.push(BLANK);',
        ],
        [
          `            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })`,
          `            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return lineString(y, lineWithoutEmptyItems);
        })`,
        ],
        ['        const generatedOutput = output\n            .map(line => {', '        const generatedOutput = output\n            .map((line, y) => {'],
      ]),
    );
  },
};

// Turning a line of styled characters into a string diffs the styles of each
// pair of neighbours; most neighbours have the same styles (or none), which
// needs no diff at all.
const sameStylesFastPath = {
  name: 'ansi-same-styles',
  setup(b) {
    b.onLoad({ filter: /[/\\]@alcalzone[/\\]ansi-tokenize[/\\]build[/\\]styledChars\.js$/ }, async (args) =>
      patch(await readFile(args.path, 'utf8'), 'ansi-same-styles', [
        [
          `        else {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }`,
          `        else if (!sameStyles(chars[i - 1].styles, char.styles)) {
            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
        }`,
        ],
        [
          `        if (i === chars.length - 1) {`,
          `        if (i === chars.length - 1 && char.styles.length > 0) {`,
        ],
        [
          'export function styledCharsToString(chars) {',
          `function sameStyles(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) if (a[k].code !== b[k].code || a[k].endCode !== b[k].endCode) return false;
    return true;
}
export function styledCharsToString(chars) {`,
        ],
      ]),
    );
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
  plugins: [noInkDevtools, inkFrameCache, sameStylesFastPath],
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
