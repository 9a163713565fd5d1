/** Text helpers shared by the table, detail and JSON views. What they measure is text as the gate (src/app/visible.ts) shows it. */
import { visible } from '../app/visible.js';

export function getPath(record: unknown, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
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

/**
 * Pads or truncates (with …) to exactly `width` characters, of `text` as it
 * shows on one line (a line feed as `␊`). Cut in the middle,
 * values that share a prefix keep what tells them apart: g6-standard-2 and
 * g6-standard-4 in 8 cells read "g6-s…d-2" and "g6-s…d-4", not "g6-stan…" twice.
 */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left', cut: 'end' | 'middle' = 'end'): string {
  if (width <= 0) return '';
  const clean = visible(text);
  if (clean.length > width && cut === 'middle' && width >= 5) {
    const tail = Math.floor((width - 1) / 2);
    return `${clean.slice(0, width - 1 - tail)}…${clean.slice(clean.length - tail)}`;
  }
  if (clean.length > width) return width === 1 ? '…' : `${clean.slice(0, width - 1)}…`;
  return align === 'right' ? clean.padStart(width) : clean.padEnd(width);
}

/** Hard-wraps one logical line, as it shows, into pieces of at most `width` characters. */
export function wrapLine(line: string, width: number): string[] {
  const text = visible(line);
  if (width <= 0 || text.length <= width) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width));
  return out;
}

/** Word-wraps text (its own line breaks kept) into lines of at most `width` characters; a word longer than a line is split. */
export function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of visible(para).split(/ +/)) {
      const pieces = wrapLine(word, Math.max(1, width));
      for (const piece of pieces) {
        if (line === '') line = piece;
        else if (line.length + 1 + piece.length <= width) line += ` ${piece}`;
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
