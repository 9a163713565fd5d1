import type { Key } from 'ink';

/** One keypress as the router passes it around. */
export interface KeyEvent {
  /** Normalized name: see keymap.ts. */
  name: string;
  /** The printable character, '' for special keys. */
  text: string;
}

export function keyEvent(input: string, key: Key): KeyEvent {
  const name = keyName(input, key);
  // Special keys carry no text, whatever bytes Ink passes along (\r for return).
  return { name, text: name === input ? input : '' };
}

/**
 * Keys that arrived together. Ink hands over a run of plain characters as
 * one string: a paste, or keys typed faster than a frame renders ("jjj",
 * "eu-\r"). Each becomes its own keypress, so none is lost and Enter stays Enter.
 */
export function keyEvents(input: string, key: Key): KeyEvent[] {
  const chars = [...input];
  if (chars.length <= 1 || key.ctrl || key.meta || input.includes('\x1b')) return [keyEvent(input, key)];
  return chars.map(charEvent);
}

function charEvent(ch: string): KeyEvent {
  const code = ch.codePointAt(0)!;
  if (ch === '\r' || ch === '\n') return { name: 'return', text: '' };
  if (ch === '\t') return { name: 'tab', text: '' };
  if (code === 0x7f || code === 0x08) return { name: 'backspace', text: '' };
  const control = CONTROL_NAMES.get(ch);
  if (control) return { name: control, text: '' };
  if (code < 0x20) return { name: `ctrl+${String.fromCharCode(code + 96)}`, text: '' };
  if (ch === ' ') return { name: 'space', text: ' ' };
  return { name: ch, text: ch };
}

/**
 * Control bytes that are not Ctrl and a letter: terminals send NUL for
 * Ctrl-Space (Ink names it ctrl+`) and FS (0x1c) for Ctrl-\ (Ink passes the byte).
 */
const CONTROL_NAMES = new Map([
  ['\x00', 'ctrl+space'],
  ['\x1c', 'ctrl+\\'],
]);

export function keyName(input: string, key: Key): string {
  if (key.return) return 'return';
  if (key.escape) return 'escape';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  // Terminals send DEL (0x7f) for Backspace; Ink reports it as delete.
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input === '`') return 'ctrl+space';
  const control = CONTROL_NAMES.get(input);
  if (control) return control;
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
  // Alt (Meta) and a character: the terminal sends ESC before it.
  if (key.meta && input.length === 1 && input !== '\x1b') return `alt+${input}`;
  if (input === ' ') return 'space';
  return input;
}

const DISPLAY: Record<string, string> = {
  return: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  'shift+tab': 'S-Tab',
  space: 'Space',
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  backspace: 'Bksp',
  'ctrl+space': '^Space',
};

/** How a key name is written in the footer and help. */
export function displayKey(name: string): string {
  if (DISPLAY[name]) return DISPLAY[name];
  if (name.startsWith('ctrl+')) return `^${name.slice(5).toUpperCase()}`;
  if (name.startsWith('alt+')) return `Alt-${name.slice(4)}`;
  return name;
}
