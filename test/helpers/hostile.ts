import fc from 'fast-check';

/**
 * What a stranger may write into a label, a description or a note to drive
 * the operator's terminal (issue 29): every C0 and C1 control and DEL, whole
 * OSC, CSI and DCS sequences in their 7-bit and 8-bit forms, bidi overrides
 * and isolates, zero-width and invisible format characters, lone surrogates;
 * between them wide characters and combining marks, which are text but not one column each.
 */
export const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)),
  '\x7f',
  ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(0x80 + c)),
];
export const SEQUENCES = [
  '\x1b]0;PWNED-TITLE\x07',
  '\x1b]52;c;ZWNobyBwd25lZA==\x07',
  '\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\',
  '\x1b[2J',
  '\x1b[31mRED',
  '\x1b[6n',
  '\x1bP1$r0m\x1b\\',
  '\x9b2J',
  '\x9d0;C1-TITLE\x9c',
  '\x90qDCS\x9c',
];
export const FORMATS = [
  ...Array.from({ length: 5 }, (_, i) => String.fromCharCode(0x202a + i)),
  ...Array.from({ length: 4 }, (_, i) => String.fromCharCode(0x2066 + i)),
  ...Array.from({ length: 5 }, (_, i) => String.fromCharCode(0x200b + i)),
  '\ufeff',
];
export const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d'];

/** The payload of the report after wide characters and a combining mark (text, but not one column each), with an 8-bit CSI and a lone surrogate: appended by the hostile proxy. */
export const PAYLOAD = '漢字e\u0301\x1b]0;PWNED-TITLE\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J\x1b[31mRED\u202eevil\u200b\x9b2J\ud800';

/** A hostile string: pieces of all of the above between plain words, now and then a 10,000-character line. */
export const hostileText = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 9, arbitrary: fc.array(fc.oneof(fc.constantFrom(...CONTROLS, ...SEQUENCES, ...FORMATS, ...LONE_SURROGATES), fc.constantFrom('web', 'db-1', ' ', 'é', 'x', '漢字', 'e\u0301', '😀')), { maxLength: 12 }).map((p) => p.join('')) },
    { weight: 1, arbitrary: fc.constantFrom(...SEQUENCES, ...CONTROLS).map((s) => `long${s}`.repeat(Math.ceil(10_000 / (s.length + 4))).slice(0, 10_000)) },
  );

/** A character a terminal would obey or hide, or a surrogate not in a pair: none may reach it. */
export function unsafeIn(text: string): string | undefined {
  // Ink's own colors (SGR) are the app's; nothing else of a control kind may be there.
  const bare = text.replace(/\x1b\[[0-9;]*m/g, '');
  const m = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.exec(bare);
  if (m) return `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}`;
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(bare)) return 'a lone surrogate';
  return undefined;
}
