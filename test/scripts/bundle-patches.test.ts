import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tokenize } from '@alcalzone/ansi-tokenize';
import { build } from 'esbuild';
import FindMyWay from 'find-my-way';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import terminalSize from 'terminal-size';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas } from '../../src/server/areas/index.js';
// @ts-expect-error: build scripts, plain JavaScript without types
import { fastifyLazySemver, fastifyUnusedParts, findMyWayClosures, inkFrameCache, inkNoDevtools, inkOneFramePerTask, sliceAnsiLazySegmenter, stringWidthFastPath, terminalSizeLazyChildProcess, tokenizeFastPath } from '../../scripts/bundle-patches.mjs';
// @ts-expect-error: as above
import { narrowClass } from '../../scripts/narrow-text.mjs';

let dir: string;
let patched: typeof tokenize;
let patchedWidth: typeof stringWidth;
let patchedSlice: typeof sliceAnsi;
let PatchedFindMyWay: typeof FindMyWay;
let patchedFastify: typeof import('fastify').default;
let patchedTerminalSize: typeof terminalSize;

/** The module bundled with the build's patches; `applied` is text only a patched build holds (a patch leaves a changed dependency as it is). */
async function bundled<T>(name: string, source: string, applied: string[], extraPlugins: unknown[] = []): Promise<T> {
  const entry = join(dir, `${name}-entry.mjs`);
  writeFileSync(entry, source);
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    plugins: [tokenizeFastPath, stringWidthFastPath, sliceAnsiLazySegmenter, findMyWayClosures, fastifyLazySemver, terminalSizeLazyChildProcess, ...(extraPlugins as never[])],
    nodePaths: [join(process.cwd(), 'node_modules')],
    logLevel: 'silent',
  });
  const text = out.outputFiles[0]!.text;
  for (const a of applied) expect(text).toContain(a);
  writeFileSync(join(dir, `${name}.mjs`), text);
  return (await import(pathToFileURL(join(dir, `${name}.mjs`)).href)) as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vmtui-patches-'));
  ({ tokenize: patched } = await bundled<{ tokenize: typeof tokenize }>('tokenize', "export { tokenize } from '@alcalzone/ansi-tokenize';\n", ['ONE_UNIT_GRAPHEMES']));
  ({ default: patchedWidth } = await bundled<{ default: typeof stringWidth }>('width', "export { default } from 'string-width';\n", ['lazySegmenter(', 'rgiEmojiRegex ??=']));
  ({ default: patchedSlice } = await bundled<{ default: typeof sliceAnsi }>('slice', "export { default } from 'slice-ansi';\n", ['lazySegmenter(']));
  ({ default: patchedTerminalSize } = await bundled<{ default: typeof terminalSize }>('terminal-size', "export { default } from 'terminal-size';\n", ['getBuiltinModule("node:child_process")']));
  ({ default: patchedFastify } = await bundled<{ default: typeof patchedFastify }>('fastify', "export { default } from 'fastify';\n", ['satisfies: (...args) =>']));
  ({ default: PatchedFindMyWay } = await bundled<{ default: typeof FindMyWay }>('router', "export { default } from 'find-my-way';\n", ['function matchPrefix(path, i)', 'function _createParamsObject(param0', 'mustBeAbsent']));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the bundle's tokenizer fast path", () => {
  it('cuts any line of ASCII, escape codes and the UI symbols into the same tokens as the grapheme segmenter', () => {
    const narrow = new RegExp(`^[${narrowClass() as string}]$`);
    const symbols = Array.from({ length: 0x2900 - 0xa0 }, (_, i) => String.fromCodePoint(0xa0 + i)).filter((ch) => narrow.test(ch));
    const pieces = [...symbols, 'a', 'Z', ' ', '~', '\x1b[31m', '\x1b[39m', '\x1b[1m', '\x1b[22m', '\x1b[38;5;208m', '\x1b[7;4m', '\x1b[0m', '\x1b]8;;https://example.com\x07', '\x1b]8;;\x07'];
    let seed = 11;
    const random = () => ((seed = (seed * 48271) % 0x7fffffff) / 0x7fffffff);
    for (let i = 0; i < 5_000; i++) {
      const line = Array.from({ length: 1 + Math.floor(random() * 30) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      expect(patched(line), JSON.stringify(line)).toEqual(tokenize(line));
    }
  });

  it('leaves lines with anything else to the segmenter: emoji, combining marks, wide and astral characters', () => {
    for (const line of ['ok ✅ done', 'e\u0301t\u00e9', '한국어 text', '\x1b[32m👍🏽\x1b[39m', 'flag 🇫🇷 here', 'a\r\nb', '⌚\uFE0F']) expect(patched(line)).toEqual(tokenize(line));
  });

  it('keeps the width limit', () => {
    expect(patched('abcdef', 3)).toEqual(tokenize('abcdef', 3));
  });
});

describe('string-width and slice-ansi with their segmenters and emoji regex made on first use', () => {
  const samples = ['plain', '› ● ✗ ─│', 'ok ✅ done', '👍🏽 thumbs', '👩‍👩‍👧 family', 'flag 🇫🇷', 'e\u0301t\u00e9', '한국어 text', 'Ｗｉｄｅ', '\x1b[31mred\x1b[39m 🔥', 'keycap 1\u20E3', '⌚\uFE0F watch', 'zero\u200Bwidth', 'tab\there'];

  it('measures every sample as the unpatched string-width does', () => {
    for (const s of samples) expect(patchedWidth(s), JSON.stringify(s)).toBe(stringWidth(s));
  });

  it('slices every sample as the unpatched slice-ansi does', () => {
    for (const s of samples) for (const [from, to] of [[0, 3], [1, 6], [2, 40]] as const) expect(patchedSlice(s, from, to), JSON.stringify(s)).toBe(sliceAnsi(s, from, to));
  });
});

describe('terminal-size with child_process loaded on first use', () => {
  it('finds the size of a terminal-less stdout (by tput, here) as the original does', () => {
    const saved = { COLUMNS: process.env.COLUMNS, LINES: process.env.LINES };
    delete process.env.COLUMNS;
    delete process.env.LINES;
    try {
      expect(patchedTerminalSize()).toEqual(terminalSize());
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
  });
});

describe('Fastify with semver loaded on first use', () => {
  /** Whether a plugin that names the Fastify versions it needs is taken. */
  async function takes(versions: string): Promise<boolean> {
    const app = patchedFastify();
    const plugin = Object.assign(async () => {}, { [Symbol.for('plugin-meta')]: { name: 'needs', fastify: versions } });
    app.register(plugin);
    try {
      await app.ready();
      return true;
    } catch (err) {
      expect((err as { code?: string }).code).toBe('FST_ERR_PLUGIN_VERSION_MISMATCH');
      return false;
    } finally {
      await app.close();
    }
  }

  it("still checks a plugin's required Fastify version", async () => {
    expect(await takes('5.x')).toBe(true);
    expect(await takes('>=4')).toBe(true);
    expect(await takes('4.x')).toBe(false);
  });
});

describe('Fastify without the parts the service never runs (schema compilers, logger, inject)', () => {
  const noSchemas = () => {
    throw new Error('no schemas');
  };
  const serviceOptions = { logger: false, schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } } } as const;

  it('answers requests as the service builds it, holds no Ajv, fast-json-stringify or pino, and names a left-out part that is asked for', async () => {
    const { default: lean } = await bundled<{ default: typeof patchedFastify }>('fastify-lean', "export { default } from 'fastify';\n", ["is not in vmtui's bundle"], [fastifyUnusedParts]);
    const text = readFileSync(join(dir, 'fastify-lean.mjs'), 'utf8');
    for (const gone of ['ajv/dist/core', 'fast-json-stringify/index', 'sonic-boom', 'light-my-request/lib']) expect(text.includes(gone), gone).toBe(false);

    const app = lean(serviceOptions);
    app.get('/x', async () => ({ ok: true }));
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      expect(await (await fetch(`${address}/x`)).json()).toEqual({ ok: true });
      expect(() => app.inject({ url: '/x' })).toThrow("light-my-request is not in vmtui's bundle");
    } finally {
      await app.close();
    }
    expect(() => lean()).toThrow("@fastify/ajv-compiler is not in vmtui's bundle");
    expect(() => lean({ ...serviceOptions, logger: true })).toThrow("pino is not in vmtui's bundle");
  });
});

describe("find-my-way with closures in place of generated code", () => {
  /** The service's routes (and a few with constraints and many params) in a router; what each path finds. */
  function routes(Router: typeof FindMyWay) {
    const router = Router({ ignoreTrailingSlash: true, maxParamLength: 2048 });
    let n = 0;
    for (const area of areas) for (const r of area.routes) router.on(r.method, `/v4${r.path.replace(/\{(\w+)\}/g, ':$1')}`, () => n, { id: n++ });
    router.on('GET', '/deep/:a/:b/:c/:d/:e/:f', () => 'deep', { id: 'deep' });
    router.on('GET', '/versioned', { constraints: { version: '1.2.0' } }, () => 'v1', { id: 'v1' });
    router.on('GET', '/versioned', { constraints: { version: '2.0.0' } }, () => 'v2', { id: 'v2' });
    router.on('GET', '/hosted', { constraints: { host: 'a.example' } }, () => 'a', { id: 'a' });
    router.on('GET', '/hosted', () => 'any', { id: 'any' });
    return (method: string, path: string, constraints?: Record<string, string>) => {
      const found = router.find(method as 'GET', path, constraints);
      return found ? { id: (found.store as { id: unknown }).id, params: { ...found.params } } : null;
    };
  }

  it('finds the same route with the same params for every path of the service, and for near misses', () => {
    const original = routes(FindMyWay);
    const patched = routes(PatchedFindMyWay);
    const paths: [string, string][] = [];
    for (const area of areas) {
      for (const r of area.routes) {
        const filled = `/v4${r.path.replace(/\{(\w+)\}/g, (_, name: string) => (name.endsWith('id') || name === 'id' ? '42' : `x-${name}`))}`;
        paths.push([r.method, filled], [r.method, `${filled}/`], [r.method, filled.slice(0, -1)], [r.method, `${filled}x`], ['GET', filled.toUpperCase()], [r.method, `${filled}?page=2`]);
      }
    }
    paths.push(['GET', '/deep/1/2/3/4/5/6'], ['GET', '/deep/1/2/3/4/5'], ['GET', '/v4'], ['GET', '/'], ['GET', '/v4/vm/instances/%41']);
    for (const [method, path] of paths) expect(patched(method, path), `${method} ${path}`).toEqual(original(method, path));
  });

  it('matches constrained routes (version, host) as the original does', () => {
    const original = routes(FindMyWay);
    const patched = routes(PatchedFindMyWay);
    const cases: Record<string, string>[] = [{ version: '1.x' }, { version: '2.x' }, { version: '3.x' }, {}, { host: 'a.example' }, { host: 'b.example' }];
    for (const c of cases)
      for (const path of ['/versioned', '/hosted']) expect(patched('GET', path, c), `${path} ${JSON.stringify(c)}`).toEqual(original('GET', path, c));
  });
});

describe("Ink's output with lines cached for a frame and written a style run at a time", () => {
  type Output = new (o: { width: number; height: number }) => {
    write(x: number, y: number, text: string, o: { transformers: ((line: string, index: number) => string)[] }): void;
    clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
    unclip(): void;
    get(): { output: string; height: number };
  };
  const source = `export { default } from ${JSON.stringify(join(process.cwd(), 'node_modules/ink/build/output.js'))};\n`;
  type Op = { kind: 'write'; x: number; y: number; text: string; upper: boolean } | { kind: 'clip'; x1: number; x2: number; y1: number; y2: number } | { kind: 'unclip' };
  const SGR = ['\u001b[1m', '\u001b[22m', '\u001b[2m', '\u001b[7m', '\u001b[27m', '\u001b[31m', '\u001b[36m', '\u001b[39m', '\u001b[38;5;208m', '\u001b[48;2;10;20;30m', '\u001b[49m', '\u001b[4m', '\u001b[24m', '\u001b[0m'];
  const text = fc.array(fc.oneof(fc.constantFrom(...SGR), fc.constantFrom('a', 'b', ' ', '›', '●', '─', '界', 'é', '\n', 'web-1 ', 'running  ')), { maxLength: 30 }).map((parts) => parts.join(''));
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), x: fc.integer({ min: -3, max: 30 }), y: fc.integer({ min: -2, max: 8 }), text, upper: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('clip' as const), x1: fc.integer({ min: 0, max: 20 }), x2: fc.integer({ min: 0, max: 30 }), y1: fc.integer({ min: 0, max: 5 }), y2: fc.integer({ min: 0, max: 8 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'unclip' as const }) },
  );
  const draw = (Output: Output, ops: Op[], width: number) => {
    const out = new Output({ width, height: 6 });
    for (const o of ops) {
      if (o.kind === 'write') out.write(o.x, o.y, o.text, { transformers: o.upper ? [(line) => line.toUpperCase()] : [] });
      else if (o.kind === 'clip') out.clip(o);
      else out.unclip();
    }
    return out.get().output;
  };
  it('draws every frame as Ink does, frame after frame (lines cached from recent frames included)', async () => {
    const original = (await bundled<{ default: Output }>('ink-output-original', source, [])).default;
    const patchedOutput = (await bundled<{ default: Output }>('ink-output-cached', source, ['SCREENS_KEPT', 'function lineToString'], [inkFrameCache])).default;
    fc.assert(
      // A few frames drawn in some order, again and again: a line is cached from one of the two frames before.
      fc.property(fc.array(fc.array(op, { maxLength: 8 }), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 24 }), (pool, order, width) => {
        for (const ops of order.map((n) => pool[n % pool.length]!)) {
          const want = draw(original, ops, width);
          const got = draw(patchedOutput, ops, width);
          expect(got).toBe(want);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('Ink drawing the commits of one task as one frame', () => {
  // A view binds its keys in a layout effect, and the footer shows them: React commits twice in the task that mounts it.
  // Both builds carry the build's patch that leaves out React devtools (not installed).
  const source = `import React from 'react';
import { render, Text } from 'ink';
import { EventEmitter } from 'node:events';
let press;
function App() {
  const [bound, setBound] = React.useState(false);
  const [pressed, setPressed] = React.useState(0);
  press = () => setPressed((n) => n + 1);
  React.useLayoutEffect(() => setBound(true), []);
  return React.createElement(Text, null, (bound ? 'keys bound' : 'no keys yet') + ' pressed ' + pressed);
}
function start() {
  const writes = [];
  const stdout = Object.assign(new EventEmitter(), { columns: 40, rows: 10, write(s) { writes.push(s); return true; } });
  return { writes, app: render(React.createElement(App), { stdout, patchConsole: false, exitOnCtrlC: false, maxFps: 60 }) };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));
export async function frames() {
  const { writes, app } = start();
  await settle();
  const mounted = writes.join('');
  press();
  await settle();
  press();
  await settle();
  app.unmount();
  return { mounted, all: writes.join('') };
}
/** Unmounted in the task that mounted it: its frame is still to be drawn. */
export function quitAtOnce() {
  const { writes, app } = start();
  app.unmount();
  return writes.join('');
}
`;
  let inCi: string | undefined;
  beforeAll(() => {
    // Ink draws only the last frame when it thinks it runs in CI (it reads the variable as it loads).
    inCi = process.env.CI;
    process.env.CI = 'false';
  });
  afterAll(() => {
    if (inCi === undefined) delete process.env.CI;
    else process.env.CI = inCi;
  });

  type Frames = { frames(): Promise<{ mounted: string; all: string }>; quitAtOnce(): string };
  // Built once for both tests: a second import of the same file would only return the first module anyway.
  let patchedBuild: Promise<Frames> | undefined;
  const patchedInk = () => (patchedBuild ??= bundled<Frames>('ink-one-frame', source, ['queueMicrotask(() => {'], [inkNoDevtools, inkOneFramePerTask]));

  it("draws the first frame once, with what the first commit's layout effects added, where the original draws it twice", async () => {
    const original = await (await bundled<Frames>('ink-original', source, [], [inkNoDevtools])).frames();
    expect(original.mounted).toContain('no keys yet');
    expect(original.mounted).toContain('keys bound');
    const patched = await (await patchedInk()).frames();
    expect(patched.mounted).not.toContain('no keys yet');
    expect(patched.mounted.split('keys bound')).toHaveLength(2);
  });

  it('draws every later update, and the frame still to be drawn when it unmounts', async () => {
    const ink = await patchedInk();
    const { all } = await ink.frames();
    expect(all).toContain('keys bound pressed 1');
    expect(all).toContain('keys bound pressed 2');
    expect(ink.quitAtOnce()).toContain('keys bound pressed 0');
  });
});
