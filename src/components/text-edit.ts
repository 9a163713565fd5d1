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
