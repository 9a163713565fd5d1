import type { KeyEvent } from '../app/keys.js';

export interface TextState {
  text: string;
  cursor: number;
}

export const textState = (text = ''): TextState => ({ text, cursor: text.length });

// Printable input only: control characters would corrupt the frame.
const printable = (s: string) => s.replace(/\r\n?|\n/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');

/** One keypress applied to a single-line text; null when the key is not an editing key. */
export function editText(s: TextState, ev: KeyEvent): TextState | null {
  const { text, cursor } = s;
  switch (ev.name) {
    case 'backspace':
      return cursor === 0 ? s : { text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1 };
    case 'left':
      return { text, cursor: Math.max(0, cursor - 1) };
    case 'right':
      return { text, cursor: Math.min(text.length, cursor + 1) };
    case 'home':
    case 'ctrl+a':
      return { text, cursor: 0 };
    case 'end':
    case 'ctrl+e':
      return { text, cursor: text.length };
    case 'ctrl+u':
      return { text: text.slice(cursor), cursor: 0 };
    case 'ctrl+k':
      return { text: text.slice(0, cursor), cursor };
    case 'ctrl+w': {
      const start = text.slice(0, cursor).replace(/\S+\s*$/, '').length;
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
  }
  const add = ev.name === 'space' ? ' ' : printable(ev.text);
  if (!add) return null;
  return { text: text.slice(0, cursor) + add + text.slice(cursor), cursor: cursor + add.length };
}

// Multi-line input keeps line breaks (as \n) and tabs; other control characters still go.
const printableLines = (s: string) => s.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');

/** Where the cursor is as line and column. */
export function cursorLine({ text, cursor }: TextState): { line: number; column: number } {
  const before = text.slice(0, cursor).split('\n');
  return { line: before.length - 1, column: before[before.length - 1]!.length };
}

/** The cursor one line up or down, in the same column where the line is long enough; null at the first or last line. */
export function moveLine(s: TextState, by: -1 | 1): TextState | null {
  const lines = s.text.split('\n');
  const { line, column } = cursorLine(s);
  const to = line + by;
  if (to < 0 || to >= lines.length) return null;
  const start = lines.slice(0, to).reduce((n, l) => n + l.length + 1, 0);
  return { text: s.text, cursor: start + Math.min(column, lines[to]!.length) };
}

/**
 * One keypress applied to a multi-line text (scripts, certificates): Enter
 * and pasted line breaks add lines, ↑ and ↓ move between them (null at the
 * edges, so the owner can move on), Home and End act on the current line.
 */
export function editTextArea(s: TextState, ev: KeyEvent): TextState | null {
  const { text, cursor } = s;
  const insert = (add: string) => ({ text: text.slice(0, cursor) + add + text.slice(cursor), cursor: cursor + add.length });
  switch (ev.name) {
    case 'return':
      return insert('\n');
    case 'up':
    case 'down':
      return moveLine(s, ev.name === 'up' ? -1 : 1);
    case 'home':
    case 'ctrl+a':
      return { text, cursor: text.lastIndexOf('\n', cursor - 1) + 1 };
    case 'end':
    case 'ctrl+e': {
      const end = text.indexOf('\n', cursor);
      return { text, cursor: end < 0 ? text.length : end };
    }
    case 'ctrl+u': {
      const start = text.lastIndexOf('\n', cursor - 1) + 1;
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
    case 'ctrl+k': {
      const end = text.indexOf('\n', cursor);
      return { text: text.slice(0, cursor) + (end < 0 ? '' : text.slice(end)), cursor };
    }
  }
  if (ev.text.length > 1 || ev.text.includes('\t')) {
    const add = printableLines(ev.text);
    return add ? insert(add) : null;
  }
  return editText(s, ev);
}
