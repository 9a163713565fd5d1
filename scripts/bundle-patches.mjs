// esbuild plugins that trim or speed up dependencies in the bundle; each
// patch checks that the code it replaces is still there.
import { readFile } from 'node:fs/promises';
import { narrowClass } from './narrow-text.mjs';

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

/** A plugin that patches the files `filter` matches with `replacements` (see patch). */
const patching = (name, filter, replacements) => ({
  name,
  setup(b) {
    b.onLoad({ filter }, async (args) => patch(await readFile(args.path, 'utf8'), name, replacements));
  },
});

// With DEV=true Ink connects React devtools (and reads its own package.json)
// through top-level awaits, which a CommonJS bundle cannot hold; the bundle
// is a production build, where Ink does neither.
export const inkNoDevtools = patching('ink-no-devtools', /[/\\]ink[/\\]build[/\\]reconciler\.js$/, [
  ["if (isDev()) {\n    try {\n        await import('./devtools.js');\n    }", 'if (false) {\n    try {\n    }'],
  ['const packageJson = isDev()\n    ? await loadPackageJson()\n    : { name: undefined, version: undefined };', 'const packageJson = { name: undefined, version: undefined };'],
]);

// Ink draws each frame from scratch: every write is cut into styled
// characters and placed in a grid of cells, then every line of the grid is
// turned back into a string. Moving the selection changes two lines of forty
// (scrolling shifts them by one), so the writes are gathered per line first
// and a line's string is cached by what was written on it (the same writes
// at the same columns make the same string); only new lines go through the
// grid, with Ink's own code. The styled characters are cached across frames
// too (bounded), and blanks share one cell. Measured (bench/patch-gains.ts, 3
// runs each): the app's CPU per key on 10,000 instances 6.2 ms with it, 11.6
// without (ratio 0.53).
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
export const inkFrameCache = patching('ink-frame-cache', /[/\\]ink[/\\]build[/\\]output\.js$/, [
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
]);

// Yoga instantiates its wasm asynchronously, and its module waits for that
// with a top-level await, which a CommonJS bundle cannot hold (and only a
// CommonJS bundle can start from a V8 code cache on Node 20). Node compiles
// and instantiates wasm synchronously as well: the same bytes, ready at once.
// This also keeps the loader from fetching its data: URL, whose first fetch
// would load Node's built-in undici (~50 ms) before the first frame. Its
// base64 is decoded by Node (0.5 ms) instead of by atob and a loop (3 ms).
export const yogaSync = patching('yoga-sync', /[/\\]yoga-layout[/\\]dist[/\\]binaries[/\\]yoga-wasm-base64-esm\.js$/, [
  [
    '(function(){return w||"function"!=typeof WebAssembly.instantiateStreaming||ua(H)||"function"!=typeof fetch?c(b):fetch(H,{credentials:"same-origin"}).then(function(e){return WebAssembly.instantiateStreaming(e,d).then(b,function(f){v("wasm streaming compile failed: "+f);v("falling back to ArrayBuffer instantiation");return c(b)})})})().catch(ca);return{}',
    'a(new WebAssembly.Instance(new WebAssembly.Module(ua(H)?Buffer.from(H.slice(37),"base64"):wa()),d));return{}',
  ],
]);
export const yogaNoTopLevelAwait = patching('yoga-sync', /[/\\]yoga-layout[/\\]dist[/\\]src[/\\]index\.js$/, [
  ['const Yoga = wrapAssembly(await loadYoga());', 'const yogaModule = {};\nloadYoga(yogaModule);\nconst Yoga = wrapAssembly(yogaModule);'],
]);

// The first Intl.Segmenter made in a process loads ICU's break rules (~23 ms).
// string-width (two copies) makes one as it loads, before the first frame,
// which needs none (see its fast path): it is made on first use instead.
function lazySegmenters(source, name) {
  if (!source.includes('new Intl.Segmenter(')) {
    console.warn(`${name}: the dependency changed; left unpatched`);
    return source;
  }
  return `${source.replaceAll('new Intl.Segmenter(', 'lazySegmenter(')}
function lazySegmenter(...options) {
	let segmenter;
	return { segment: (text) => (segmenter ??= new Intl.Segmenter(...options)).segment(text) };
}
`;
}

// string-width measures printable ASCII by its length; anything else goes
// through grapheme segmentation and Unicode property regexes, whose first use
// compiles them (~40 ms, before the first frame: every frame has a › or a ─).
// The UI's symbols are all one column wide: measured by length as well. Its
// RGI emoji regex takes ~28 ms to create (at load): made on first use.
// Measured (bench/patch-gains.ts, 7 runs each, a loaded machine): CPU at the
// first frame 285 ms with it, 402 without (ratio 0.71); wall time to the first
// frame 812 ms, 1204 without (0.67).
export const stringWidthFastPath = {
  name: 'string-width-fast-path',
  setup(b) {
    b.onLoad({ filter: /[/\\]node_modules[/\\]string-width[/\\]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      // wrap-ansi's older copy measures fast already.
      if (args.path.includes('wrap-ansi')) return { contents: lazySegmenters(source, 'string-width (wrap-ansi)'), loader: 'js' };
      const patched = patch(source, 'string-width-fast-path', [
        ['if (/^[\\u0020-\\u007E]*$/.test(string)) {', `if (/^[\\u0020-\\u007E${narrowClass()}]*$/.test(string)) {`],
        ['const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', 'let rgiEmojiRegex;'],
        ['if (rgiEmojiRegex.test(segment)', 'if ((rgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(segment)'],
      ]);
      return patched && { ...patched, contents: lazySegmenters(patched.contents, 'string-width') };
    });
  },
};
