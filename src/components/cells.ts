/** Text helpers shared by the table, detail and JSON views. */

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

/** Pads or truncates (with …) to exactly `width` characters. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const clean = text.replace(/[\r\n\t]+/g, ' ');
  if (clean.length > width) return width === 1 ? '…' : `${clean.slice(0, width - 1)}…`;
  return align === 'right' ? clean.padStart(width) : clean.padEnd(width);
}

/** Hard-wraps one logical line into pieces of at most `width` characters. */
export function wrapLine(text: string, width: number): string[] {
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
    for (const word of para.split(/ +/)) {
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
