// Bundles the CLI into one file: one file starts much faster than hundreds of
// modules, and bundling React and Ink lets NODE_ENV=production be fixed at build
// time (React's production build handles a key about 1.5x faster).
// The entry dist/vmtui.js loads chunks (dist/chunks/) on demand: --help does not
// load Ink, and the UI against a remote API does not load the service.
// Usage: node scripts/build.mjs [--outdir DIR] [--analyze]   (default dist; --analyze prints what each chunk holds)
import { analyzeMetafile, build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { narrowClass } from './narrow-text.mjs';

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

// Ink draws each frame from scratch: every write is cut into styled
// characters and placed in a grid of cells, then every line of the grid is
// turned back into a string. Moving the selection changes two lines of forty
// (scrolling shifts them by one), so the writes are gathered per line first
// and a line's string is cached by what was written on it (the same writes
// at the same columns make the same string); only new lines go through the
// grid, with Ink's own code. The styled characters are cached across frames
// too (bounded), and blanks share one cell.
const OUTPUT_GET_ORIGINAL = `                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    const currentLine = output[y + offsetY];
                    // Line can be missing if \`text\` is taller than height of pre-initialized \`this.output\`
                    if (!currentLine) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    const characters = this.caches.getStyledChars(line);`;
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
const lineCache = new Map();
export default class Output {`,
        ],
        // The grid starts as one row per line that got writes; the rest stay blank.
        [
          `        const output = [];
        for (let y = 0; y < this.height; y++) {
            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            output.push(row);
        }`,
          `        const output = [];
        const writes = [];
        for (let y = 0; y < this.height; y++) {
            output.push(undefined);
            writes.push(undefined);
        }`,
        ],
        // Writes are recorded per line (after clipping and transformers, as Ink does) instead of drawn at once.
        [
          OUTPUT_GET_ORIGINAL,
          `                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    if (!(y + offsetY in writes)) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    (writes[y + offsetY] ??= [this.width]).push(x, line);
                    offsetY++;
                }
            }
        }
        for (let row = 0; row < this.height; row++) {
            const lineWrites = writes[row];
            if (!lineWrites) {
                output[row] = '';
                continue;
            }
            const key = lineWrites.join('\\u0000');
            const cached = lineCache.get(key);
            if (cached !== undefined) {
                output[row] = cached;
                continue;
            }
            const currentLine = new Array(this.width).fill(BLANK);
            for (let w = 1; w < lineWrites.length; w += 2) {
                const x = lineWrites[w];
                const line = lineWrites[w + 1];
                {
                    const characters = this.caches.getStyledChars(line);`,
        ],
        [
          `                        offsetX += characterWidth;
                    }
                    offsetY++;
                }
            }
        }
        const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
          `                        offsetX += characterWidth;
                    }
                }
            }
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const text = styledCharsToString(currentLine.filter(item => item !== undefined)).trimEnd();
            if (lineCache.size >= 5000) lineCache.clear();
            lineCache.set(key, text);
            output[row] = text;
        }
        const generatedOutput = output.join('\\n');`,
        ],
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

// Yoga's loader fetches its own wasm from a data: URL when fetch exists, and
// the first fetch loads Node's built-in undici (~50 ms) before the first frame
// can be drawn; decoding the base64 directly gives the same bytes.
const yogaNoFetch = {
  name: 'yoga-no-fetch',
  setup(b) {
    b.onLoad({ filter: /[/\\]yoga-layout[/\\]dist[/\\]binaries[/\\]yoga-wasm-base64-esm\.js$/ }, async (args) =>
      patch(await readFile(args.path, 'utf8'), 'yoga-no-fetch', [['function ya(){return w||"function"!=typeof fetch?', 'function ya(){return true?']]),
    );
  },
};

// string-width measures printable ASCII by its length; anything else goes
// through grapheme segmentation and Unicode property regexes, whose first use
// compiles them (~40 ms, before the first frame: every frame has a › or a ─).
// The UI's symbols are all one column wide: measured by length as well.
const stringWidthFastPath = {
  name: 'string-width-fast-path',
  setup(b) {
    b.onLoad({ filter: /[/\\]node_modules[/\\]string-width[/\\]index\.js$/ }, async (args) =>
      // wrap-ansi's older copy is cheap already.
      args.path.includes('wrap-ansi')
        ? undefined
        : patch(await readFile(args.path, 'utf8'), 'string-width-fast-path', [['if (/^[\\u0020-\\u007E]*$/.test(string)) {', `if (/^[\\u0020-\\u007E${narrowClass()}]*$/.test(string)) {`]]),
    );
  },
};

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' }, analyze: { type: 'boolean', default: false } } });
rmSync(join(values.outdir, 'chunks'), { recursive: true, force: true });

const result = await build({
  // The embedded service's thread has its own entry; it shares chunks with the app.
  entryPoints: { vmtui: 'src/cli.ts', 'embedded-worker': 'src/server/embedded-worker.ts' },
  outdir: values.outdir,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Native code stays a package.
  external: ['better-sqlite3'],
  plugins: [noInkDevtools, inkFrameCache, sameStylesFastPath, yogaNoFetch, stringWidthFastPath],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS modules (React) still call require().
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __vmtuiRequire } from 'node:module';\nconst require = __vmtuiRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  minify: true,
  logLevel: 'warning',
  metafile: values.analyze,
});
if (values.analyze) console.log(await analyzeMetafile(result.metafile));
chmodSync(join(values.outdir, 'vmtui.js'), 0o755);
