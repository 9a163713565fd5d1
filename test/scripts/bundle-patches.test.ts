import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: build scripts, plain JavaScript without types
import { stringWidthFastPath } from '../../scripts/bundle-patches.mjs';

let dir: string;
let patchedWidth: typeof stringWidth;

/** The module bundled with the build's patches; `applied` is text only a patched build holds (a patch leaves a changed dependency as it is). */
async function bundled<T>(name: string, source: string, applied: string[]): Promise<T> {
  const entry = join(dir, `${name}-entry.mjs`);
  writeFileSync(entry, source);
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    plugins: [stringWidthFastPath],
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
  ({ default: patchedWidth } = await bundled<{ default: typeof stringWidth }>('width', "export { default } from 'string-width';\n", ['lazySegmenter(', 'rgiEmojiRegex ??=']));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('string-width with its segmenter and emoji regex made on first use', () => {
  const samples = ['plain', '› ● ✗ ─│', 'ok ✅ done', '👍🏽 thumbs', '👩‍👩‍👧 family', 'flag 🇫🇷', 'e\u0301t\u00e9', '한국어 text', 'Ｗｉｄｅ', '\x1b[31mred\x1b[39m 🔥', 'keycap 1\u20E3', '⌚\uFE0F watch', 'zero\u200Bwidth', 'tab\there'];

  it('measures every sample as the unpatched string-width does', () => {
    for (const s of samples) expect(patchedWidth(s), JSON.stringify(s)).toBe(stringWidth(s));
  });
});
