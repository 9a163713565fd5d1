/** Text helpers shared by the table, detail and JSON views. What they measure is text as the gate (src/app/visible.ts) shows it, in terminal columns. */
import stringWidth from 'string-width';
import { visible } from '../app/visible.js';

/**
 * Characters string-width measures one column wide, each one code unit: printable ASCII, Latin,
 * punctuation, arrows and technical signs, the gate's Control Pictures, box drawing and shapes
 * (test/app/visible.test.tsx checks each against string-width). Text of them alone is as wide as it is long.
 */
const NARROW_CHAR = '\\x20-\\x7e\\u00a0-\\u00ac\\u00ae-\\u02ff\\u2010-\\u2027\\u202f-\\u205e\\u2190-\\u2319\\u2400-\\u2426\\u2460-\\u24ff\\u2500-\\u25fc';
export const NARROW = new RegExp(`^[${NARROW_CHAR}]*$`);

const NARROW_RUNS = new RegExp(`[${NARROW_CHAR}]+`, 'g');

/** A code point's columns: string-width only for what is not plainly narrow (a wide letter, an emoji, a combining mark). */
const pointWidth = (c: string) => (c.length === 1 && NARROW.test(c) ? 1 : stringWidth(c));

/**
 * Columns `text` takes in the terminal, as Ink measures it (string-width): a wide character two, a
 * combining mark none. Runs of narrow characters count by their length; string-width measures the rest.
 */
export function columns(text: string): number {
  if (NARROW.test(text)) return text.length;
  let n = text.length;
  for (const other of text.split(NARROW_RUNS)) if (other) n += stringWidth(other) - other.length;
  return n;
}

export function getPath(record: unknown, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split('.')) {
    // A path may come from the config file (a column chosen with C): only the record's own fields, never __proto__.
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** A value as one line of text. */
export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.map(scalarText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The longest start of `text` that fills at most `width` columns, cut only before a character that takes room: a combining mark stays with its letter. */
function take(text: string, width: number): string {
  if (NARROW.test(text)) return text.slice(0, width);
  let used = 0;
  let length = 0;
  for (const c of text) {
    const w = pointWidth(c);
    if (used + w > width) break;
    used += w;
    length += c.length;
  }
  return text.slice(0, length);
}


const pad = (text: string, width: number, align: 'left' | 'right') => {
  const room = ' '.repeat(Math.max(0, width - columns(text)));
  return align === 'right' ? room + text : text + room;
};

/** Pads or truncates (with …) to exactly `width` columns, of `text` as it shows on one line (a line feed as `␊`). */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  // A long value shows only its ends: they alone are made visible and measured, not a whole 10,000-character line.
  const span = 2 * width + 8;
  const long = text.length > 2 * span;
  const head = visible(long ? text.slice(0, span) : text);
  if (!long && columns(head) <= width) return pad(head, width, align);
  return width === 1 ? '…' : pad(`${take(head, width - 1)}…`, width, 'left');
}

/** Hard-wraps one logical line, as it shows, into pieces of at most `width` columns (a character wider than the line alone on one). */
export function wrapLine(line: string, width: number): string[] {
  const text = visible(line);
  if (width <= 0 || columns(text) <= width) return [text];
  const out: string[] = [];
  if (NARROW.test(text)) {
    for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width));
    return out;
  }
  let piece = '';
  let used = 0;
  for (const c of text) {
    const w = pointWidth(c);
    // A line breaks only before a character that takes room: a combining mark stays with its letter.
    if (w > 0 && used + w > width && piece !== '') {
      out.push(piece);
      piece = '';
      used = 0;
    }
    piece += c;
    used += w;
  }
  out.push(piece);
  return out;
}

/** Word-wraps text (its own line breaks kept) into lines of at most `width` columns; a word longer than a line is split. */
export function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of visible(para).split(/ +/)) {
      const pieces = wrapLine(word, Math.max(1, width));
      for (const piece of pieces) {
        if (line === '') line = piece;
        else if (columns(line) + 1 + columns(piece) <= width) line += ` ${piece}`;
        else {
          out.push(line);
          line = piece;
        }
      }
    }
    out.push(line);
  }
  return out;
}

/** Nested objects flattened to dotted keys; arrays of scalars joined, arrays of objects indexed. */
export function flatten(value: unknown, prefix = '', out: [string, string][] = []): [string, string][] {
  const at = (k: string | number) => (prefix ? `${prefix}.${k}` : String(k));
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) out.push([prefix, value.length ? value.map(scalarText).join(', ') : '[]']);
    else value.forEach((v, i) => flatten(v, at(i), out));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) out.push([prefix, '{}']);
    for (const [k, v] of entries) flatten(v, at(k), out);
  } else {
    out.push([prefix, value === null || value === undefined ? '—' : scalarText(value)]);
  }
  return out;
}
