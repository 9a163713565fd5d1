import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without types
import { narrowClass } from '../../scripts/narrow-text.mjs';

const narrow = new RegExp(`^[\\u0020-\\u007E${narrowClass() as string}]*$`);
const members = Array.from({ length: 0x2900 }, (_, c) => String.fromCodePoint(c)).filter((ch) => narrow.test(ch));

describe('the characters the bundle measures by length', () => {
  it('holds every symbol the UI draws with', () => {
    expect(narrow.test('› · ● ◌ ✗ ○ ⚠ ─│┤└┐ ▲▼ ↑↓ … — ⣿⠀⡇ éü')).toBe(true);
  });

  it("holds the gate's forms of the C0 controls and DEL (src/app/visible.ts)", () => {
    expect(narrow.test('␀␇␊␛␟␡')).toBe(true);
  });

  it('excludes what is not one column wide: emoji, zero-width and combining characters, wide forms', () => {
    for (const ch of ['✅', '⌚', '\u00AD', '\u200B', '\u0301', '\u2060', '한', 'Ｗ', '\t', '\x1b']) expect(narrow.test(ch)).toBe(false);
  });

  it('gives, for any string of them, the width string-width measures', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 0x7fffffff) / 0x7fffffff);
    for (let i = 0; i < 20_000; i++) {
      const s = Array.from({ length: 1 + Math.floor(random() * 8) }, () => members[Math.floor(random() * members.length)]).join('');
      if (stringWidth(s) !== s.length) expect.fail(`${JSON.stringify(s)}: string-width says ${stringWidth(s)}`);
    }
  });
});
