import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tokenize } from '@alcalzone/ansi-tokenize';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: build scripts, plain JavaScript without types
import { tokenizeFastPath } from '../../scripts/bundle-patches.mjs';
// @ts-expect-error: as above
import { narrowClass } from '../../scripts/narrow-text.mjs';

let dir: string;
let patched: typeof tokenize;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vmtui-patches-'));
  const entry = join(dir, 'entry.mjs');
  writeFileSync(entry, "export { tokenize } from '@alcalzone/ansi-tokenize';\n");
  const out = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', write: false, plugins: [tokenizeFastPath], nodePaths: [join(process.cwd(), 'node_modules')], logLevel: 'silent' });
  // The patch must have applied (it leaves a changed dependency as it is).
  expect(out.outputFiles[0]!.text).toContain('ONE_UNIT_GRAPHEMES');
  writeFileSync(join(dir, 'patched.mjs'), out.outputFiles[0]!.text);
  ({ tokenize: patched } = (await import(pathToFileURL(join(dir, 'patched.mjs')).href)) as { tokenize: typeof tokenize });
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
