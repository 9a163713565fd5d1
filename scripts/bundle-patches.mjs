// esbuild plugins that trim or speed up dependencies in the bundle; each
// patch checks that the code it replaces is still there.
//
// Each is kept for a gain bench/patch-gains.ts shows against the bundle
// without it (medians, runs taking turns; 2026-11-25, 5 runs each):
// - ink-frame-cache: CPU per key on 10,000 instances 5.2 ms with it, 10.1 without
//   (2026-11-28, lines of the last four screens kept, styles written per run, 3 runs each);
// - string-width-fast-path: CPU at the first frame 285 ms, 402 without;
// - the UI's start-up patches that save the same loads, left out together
//   (ink-one-frame-per-task+ansi-tokenize-fast-path+slice-ansi-lazy-segmenter
//   +terminal-size-lazy-child-process+shared-interop): CPU at the first frame
//   353 ms, 422 without (ratio 0.84); alone each is within noise;
// - the service's (fastify-lazy-semver+fastify-lazy-servers+fastify-unused-parts
//   +find-my-way-closures), together: CPU at listening 249 ms, 275 without (0.90).
// ansi-same-styles showed none once ink-frame-cache caches styled lines
// (9.3 ms per key with it, 9.2 without) and was removed. yoga-sync and
// ink-no-devtools are not speed-ups: the bundle cannot load without them.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
// grid, with Ink's own code (its styled characters kept one frame, as Ink
// does); blanks share one cell. Lines are kept as long as they are among the
// last four screens' worth drawn (a cache of every line ever drawn grows with
// the clock and ages on screen): a key often brings back a recent frame (the
// row the cursor leaves is drawn as it was before the cursor came, a sort
// turned back, a view closed, whose opening drew a frame or two of its own).
// A new line's string is written with a change of style where the style
// changes: Ink's styledCharsToString works one out between every two
// characters (three Sets and four arrays each), which was half of what a key
// allocated and, on a machine where touching fresh memory is slow, most of
// its time in the first presses after a long list loads.
// Measured (bench/patch-gains.ts, the bundle without it, runs taking turns):
// the app's CPU per key on 10,000 instances 5.2 ms with it, 10.1 without (0.51).
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
  [
    `import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';`,
    `import { ansiCodesToString, diffAnsiCodes, styledCharsFromTokens, tokenize, } from '@alcalzone/ansi-tokenize';`,
  ],
  [
    'export default class Output {',
    `const BLANK = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
// The lines of the last few screens, least recently drawn first.
const drawnLines = new Map();
const SCREENS_KEPT = 4;
const sameStyles = (a, b) => a === b || (a.length === b.length && a.every((code, i) => code.code === b[i].code && code.endCode === b[i].endCode));
function lineToString(chars) {
    let text = '';
    let styles = BLANK.styles;
    for (const char of chars) {
        if (char === undefined) continue;
        if (!sameStyles(styles, char.styles)) {
            text += ansiCodesToString(diffAnsiCodes(styles, char.styles));
            styles = char.styles;
        }
        text += char.value;
    }
    return text + ansiCodesToString(diffAnsiCodes(styles, []));
}
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
            const cached = drawnLines.get(key);
            if (cached !== undefined) {
                drawnLines.delete(key);
                drawnLines.set(key, (output[row] = cached));
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
            const text = lineToString(currentLine).trimEnd();
            drawnLines.set(key, text);
            output[row] = text;
        }
        for (const key of drawnLines.keys()) {
            if (drawnLines.size <= SCREENS_KEPT * this.height) break;
            drawnLines.delete(key);
        }
        const generatedOutput = output.join('\\n');`,
  ],
]);

// Fastify requires its schema compilers (Ajv, fast-json-stringify), its
// logger (pino) and inject (light-my-request) only when they are used, and
// the service uses none of them (src/server/app.ts): bundled, they are never
// run, yet they are a third of the service's bundle, read and decoded at
// every start. They are left out; one that is ever required says so.
const NEVER_RUN = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'pino', 'light-my-request'];
export const fastifyUnusedParts = {
  name: 'fastify-unused-parts',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${NEVER_RUN.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'never-run' }));
    b.onLoad({ filter: /.*/, namespace: 'never-run' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in vmtui's bundle: the service does not use it (scripts/bundle-patches.mjs)`)});`,
      loader: 'js',
    }));
  },
};

// Ink draws a frame at every commit of React's, the first one at once. A
// commit's layout effects often update state (each view binds its keys in
// one, and the footer lists them), and React commits again in the same task:
// the first frame, drawn without what those effects add, is drawn again
// right after, and layout, drawing and writing a whole screen twice holds
// the thread while the first data comes in. The commits of one task make
// one frame, drawn at its end. A frame still pending at unmount is drawn by
// Ink's own last render, as before.
export const inkOneFramePerTask = patching('ink-one-frame-per-task', /[/\\]ink[/\\]build[/\\]ink\.js$/, [
  [
    `            this.rootNode.onRender = () => {
                this.hasPendingThrottledRender = true;
                throttled();
            };`,
    `            let frameQueued = false;
            this.rootNode.onRender = () => {
                if (frameQueued) return;
                frameQueued = true;
                queueMicrotask(() => {
                    frameQueued = false;
                    this.hasPendingThrottledRender = true;
                    throttled();
                });
            };`,
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
// string-width (two copies) and slice-ansi each make one as they load, before
// the first frame, which needs none (see the fast paths): each is made on its
// first use instead.
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
// Measured (bench/patch-gains.ts): CPU at the first frame 285 ms with it, 402
// without; at the first frame with data 363 ms, 489 without.
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

export const sliceAnsiLazySegmenter = {
  name: 'slice-ansi-lazy-segmenter',
  setup(b) {
    b.onLoad({ filter: /[/\\]node_modules[/\\]slice-ansi[/\\]tokenize-ansi\.js$/ }, async (args) => ({
      contents: lazySegmenters(await readFile(args.path, 'utf8'), 'slice-ansi'),
      loader: 'js',
    }));
  },
};

// Fastify loads https, http2 (with TLS) and dns for servers this service
// never makes (HTTPS, HTTP/2, a host name to resolve): ~15 ms of its start.
// They load on first use instead.
export const fastifyLazyServers = patching('fastify-lazy-servers', /[/\\]fastify[/\\]lib[/\\]server\.js$/, [
  [
    "const https = require('node:https')\nconst http2 = require('node:http2')\nconst dns = require('node:dns')\n",
    `const https = { createServer: (...args) => require('node:https').createServer(...args) }
const http2 = {
  createServer: (...args) => require('node:http2').createServer(...args),
  createSecureServer: (...args) => require('node:http2').createSecureServer(...args)
}
const dns = { lookup: (...args) => require('node:dns').lookup(...args) }
`,
  ],
]);

// Fastify checks a plugin's required Fastify version with semver, which
// builds some forty regexes as it loads (~3 ms of the service's start); none
// of the service's plugins names a version: semver loads when one does.
export const fastifyLazySemver = patching('fastify-lazy-semver', /[/\\]fastify[/\\]lib[/\\]plugin-utils\.js$/, [
  [
    "const semver = require('semver')\n",
    `const semver = {
  gt: (...args) => require('semver').gt(...args),
  coerce: (...args) => require('semver').coerce(...args),
  satisfies: (...args) => require('semver').satisfies(...args)
}
`,
  ],
]);

// Ink asks terminal-size for the width of a stdout that has none, which
// imports child_process (with dgram and net's cluster code, ~2 ms of every
// start) for a fallback that runs tput: loaded when that fallback runs.
export const terminalSizeLazyChildProcess = patching('terminal-size-lazy-child-process', /[/\\]terminal-size[/\\]index\.js$/, [
  ["import {execFileSync} from 'node:child_process';", "const execFileSync = (...args) => process.getBuiltinModule('node:child_process').execFileSync(...args);"],
]);

// Ink cuts every new line of a frame into graphemes with Intl.Segmenter,
// whose first use loads ICU's break rules (~14 ms, before the first frame)
// and which costs an object per character. In a line made only of ASCII,
// escape codes and the one-column symbols the UI draws, every UTF-16 unit is
// a grapheme of its own: such lines are cut by index, the same segments.
export const tokenizeFastPath = patching('ansi-tokenize-fast-path', /[/\\]@alcalzone[/\\]ansi-tokenize[/\\]build[/\\]tokenize\.js$/, [
  [
    'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    `let segmenter;
const ONE_UNIT_GRAPHEMES = /^[\\u0007\\u001B\\u0020-\\u007E${narrowClass()}]*$/;
function segments(str) {
    if (!ONE_UNIT_GRAPHEMES.test(str))
        return (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(str);
    const units = [];
    for (let index = 0; index < str.length; index++)
        units.push({ segment: str[index], index });
    return units;
}`,
  ],
  ['for (const { segment, index } of segmenter.segment(str)) {', 'for (const { segment, index } of segments(str)) {'],
]);

// An ES module importing a CommonJS one gets a copy of its exports of its own
// (esbuild's __toESM defines a getter per export): React's fifty exports for
// each of sixty importers, and the hundreds of properties of the process
// object for each of a dozen (chalk, Ink and their helpers), all as the app
// loads. Each of these is wrapped once in an ES module the importers share
// (a build error names any import the wrapper lacks).
export const sharedInterop = {
  name: 'shared-interop',
  setup(b) {
    const require = createRequire(import.meta.url);
    b.onResolve({ filter: /^(react|react\/jsx-runtime|(node:)?process)$/ }, (args) =>
      args.kind === 'import-statement' && args.namespace === 'file' ? { path: args.path.replace(/^node:/, ''), namespace: 'shared-interop' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'shared-interop' }, (args) => {
      // The process's plain properties only: its streams are made when first read.
      if (args.path === 'process')
        return { contents: 'export default process;\nexport const { env, argv, platform, versions } = process;\nexport const cwd = () => process.cwd();\n', loader: 'js' };
      const names = Object.keys(require(args.path)).filter((n) => n !== 'default');
      return {
        contents: `import m from ${JSON.stringify(args.path)};\nexport default m;\nexport const { ${names.join(', ')} } = m;\n`,
        loader: 'js',
        resolveDir: process.cwd(),
      };
    });
  },
};

/** Replaces the text from `start` through `end` (both included), or warns (and leaves it be) when the dependency changed. */
function replaceSpan(source, name, start, end, replacement) {
  const from = source.indexOf(start);
  const to = from < 0 ? -1 : source.indexOf(end, from);
  if (to < 0) {
    console.warn(`${name}: the dependency changed; left unpatched`);
    return source;
  }
  return source.slice(0, from) + replacement + source.slice(to + end.length);
}

// find-my-way writes JavaScript for every route it adds (a prefix matcher per
// static node, a params builder and a handler matcher per handler) and
// compiles it with new Function: two thirds of adding the service's hundred
// routes, at every start, and code a V8 code cache cannot keep. Closures do
// the same matching.
export const findMyWayClosures = {
  name: 'find-my-way-closures',
  setup(b) {
    b.onLoad({ filter: /[/\\]find-my-way[/\\]lib[/\\]node\.js$/ }, async (args) => ({
      contents: replaceSpan(
        await readFile(args.path, 'utf8'),
        'find-my-way-closures (node)',
        '  const lines = []\n  for (let i = 1; i < prefix.length; i++) {',
        "return new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line",
        `  const rest = prefix.slice(1)
  return function matchPrefix (path, i) {
    return path.startsWith(rest, i + 1)
  }`,
      ),
      loader: 'js',
    }));
    b.onLoad({ filter: /[/\\]find-my-way[/\\]lib[/\\]handler-storage\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const params = replaceSpan(
        source,
        'find-my-way-closures (params)',
        `    const fnBody = ["'use strict'"]`,
        'return new Function(\'NullObject\', fnBody.join(\'\\n\'))(NullObject)  // eslint-disable-line',
        `    return function _createParamsObject (param0, param1, param2, param3, extraParams) {
      const result = new NullObject()
      for (let i = 0; i < params.length; i++) {
        result[params[i]] = i === 0 ? param0 : i === 1 ? param1 : i === 2 ? param2 : i === 3 ? param3 : extraParams[i - 4]
      }
      return result
    }`,
      );
      return {
        contents: replaceSpan(
          params,
          'find-my-way-closures (constraints)',
          `    const lines = ["'use strict'"]`,
          "this._getHandlerMatchingConstraints = new Function('derivedConstraints', lines.join('\\n')) // eslint-disable-line",
          `    const constraints = this.constraints
    const masks = constraints.map((constraint) => this._constrainedIndexBitmask(constraint))
    const mustMatch = constraints.map((constraint) => constrainer.strategies[constraint].mustMatchWhenDerived)
    const mustBeAbsent = Object.keys(constrainer.strategies).filter((constraint) => constrainer.strategies[constraint].mustMatchWhenDerived && !constraints.includes(constraint))
    const all = (1 << this.handlers.length) - 1
    this._getHandlerMatchingConstraints = function (derivedConstraints) {
      let candidates = all
      for (let k = 0; k < constraints.length; k++) {
        const value = derivedConstraints[constraints[k]]
        if (value === undefined) {
          candidates &= masks[k]
        } else {
          const matches = this.constrainedHandlerStores[constraints[k]].get(value) || 0
          candidates &= mustMatch[k] ? matches : (matches | masks[k])
        }
        if (candidates === 0) return null
      }
      for (const constraint of mustBeAbsent) {
        if (derivedConstraints[constraint] !== undefined) return null
      }
      return this.handlers[31 - Math.clz32(candidates)]
    }`,
        ),
        loader: 'js',
      };
    });
  },
};
