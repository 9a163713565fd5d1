import type { KeyEvent } from '../../app/keys.js';
import { editText } from '../../components/text-edit.js';

/**
 * A multi-line text being edited: one keypress at a time, like text-edit.ts
 * for a single line (whose editing keys it reuses within a line), plus Enter,
 * line joins, moving between lines and pastes that keep their line breaks.
 */
export interface AreaState {
  lines: string[];
  row: number;
  col: number;
}

export const areaState = (text: string): AreaState => {
  const lines = text.split('\n');
  return { lines, row: 0, col: 0 };
};

export const areaText = (s: AreaState) => s.lines.join('\n');

const INDENT = '  ';

function insert(s: AreaState, text: string): AreaState {
  const pieces = text.replace(/\r\n?/g, '\n').replace(/\t/g, INDENT).split('\n');
  const line = s.lines[s.row]!;
  const before = line.slice(0, s.col);
  const after = line.slice(s.col);
  const middle = pieces.map((p) => p.replace(/[\x00-\x1f\x7f]/g, ''));
  const last = middle.length - 1;
  const replaced = middle.map((p, i) => (i === 0 ? before : '') + p + (i === last ? after : ''));
  const lines = [...s.lines.slice(0, s.row), ...replaced, ...s.lines.slice(s.row + 1)];
  const row = s.row + last;
  const col = (last === 0 ? before.length : 0) + middle[last]!.length;
  return { lines, row, col };
}

const clampCol = (s: AreaState, row: number, col: number): AreaState => ({ ...s, row, col: Math.min(col, s.lines[row]!.length) });

/** One key applied; null when the key is not for the text (so commands such as Ctrl-S and Esc get it). */
export function editArea(s: AreaState, ev: KeyEvent, page = 10): AreaState | null {
  const line = s.lines[s.row]!;
  const last = s.lines.length - 1;
  switch (ev.name) {
    case 'return':
      return insert(s, '\n');
    case 'tab':
      return insert(s, INDENT);
    case 'up':
      return s.row === 0 ? { ...s, col: 0 } : clampCol(s, s.row - 1, s.col);
    case 'down':
      return s.row === last ? { ...s, col: line.length } : clampCol(s, s.row + 1, s.col);
    case 'pageup':
      return clampCol(s, Math.max(0, s.row - page), s.col);
    case 'pagedown':
      return clampCol(s, Math.min(last, s.row + page), s.col);
    case 'left':
      if (s.col === 0 && s.row > 0) return { ...s, row: s.row - 1, col: s.lines[s.row - 1]!.length };
      break;
    case 'right':
      if (s.col === line.length && s.row < last) return { ...s, row: s.row + 1, col: 0 };
      break;
    case 'backspace':
      if (s.col === 0 && s.row > 0) {
        const prev = s.lines[s.row - 1]!;
        const lines = [...s.lines.slice(0, s.row - 1), prev + line, ...s.lines.slice(s.row + 1)];
        return { lines, row: s.row - 1, col: prev.length };
      }
      break;
  }
  // A paste arrives whole: keep its line breaks rather than flattening them.
  if (/[\r\n\t]/.test(ev.text)) return insert(s, ev.text);
  const next = editText({ text: line, cursor: s.col }, ev);
  if (!next) return null;
  const lines = [...s.lines];
  lines[s.row] = next.text;
  return { lines, row: s.row, col: next.cursor };
}
