/**
 * The one gate between text the app did not write itself (a server's answer,
 * a plugin's output, an error's message) and the terminal. A terminal obeys
 * control characters wherever they come from: a StackScript description
 * holding `ESC ] 52 ; c ; …` would write the operator's clipboard, and bidi
 * overrides make a line read otherwise than its bytes. Every such character is
 * made visible instead, as `less` and GitHub's bidi warning do: C0 controls
 * and DEL as their Unicode Control Pictures (`␛`, `␇`, `␡`), C1 controls,
 * bidi and invisible format characters and lone surrogates as `<U+202E>`.
 *
 * Every visible form is printable and narrow: one column per character, so a
 * width measured after the gate is the width the terminal draws. The gate is
 * idempotent (its output holds nothing it would change), so text passed
 * through it twice, once to be measured and once by <Text>, reads the same.
 */

// C0 but the line feed, DEL, C1; Arabic letter mark; zero-width and directional marks (U+200B–U+200F);
// line and paragraph separators and bidi embeddings/overrides (U+2028–U+202E); word joiner and invisible
// operators (U+2060–U+2064); bidi isolates (U+2066–U+2069); the byte order mark; a surrogate not in a pair.
const UNSAFE_CLASS =
  '[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSAFE = new RegExp(UNSAFE_CLASS);
const UNSAFE_ALL = new RegExp(UNSAFE_CLASS, 'g');
const UNSAFE_OR_NEWLINE = new RegExp(`${UNSAFE_CLASS}|\\n`);
const UNSAFE_OR_NEWLINE_ALL = new RegExp(`${UNSAFE_CLASS}|\\n`, 'g');

const PICTURE_BASE = 0x2400;
const DEL_PICTURE = '\u2421';

const form = (c: string): string => {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(PICTURE_BASE + code);
  if (code === 0x7f) return DEL_PICTURE;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
};

/**
 * `text` with every character that could drive the terminal, or hide what a
 * line says, in a visible form. A line feed is kept when `lines` is set (Ink
 * breaks the text there itself: it never reaches the terminal as a byte), and
 * shown as `␊` otherwise, for text that must stay on one line (a cell).
 */
export function visible(text: string, lines = false): string {
  // The common case, text with nothing to change, costs one scan and no copy.
  if (lines) return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, form) : text;
  return UNSAFE_OR_NEWLINE.test(text) ? text.replace(UNSAFE_OR_NEWLINE_ALL, form) : text;
}
