import type { Key } from 'ink';

/** One keypress as the router passes it around. */
export interface KeyEvent {
  /** Normalized name: see keymap.ts. */
  name: string;
  /** Printable text (a pasted string arrives whole), '' for special keys. */
  text: string;
}

export function keyEvent(input: string, key: Key): KeyEvent {
  const name = keyName(input, key);
  // Special keys carry no text, whatever bytes Ink passes along (\r for return).
  return { name, text: name === input ? input : '' };
}

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
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
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
};

/** How a key name is written in the footer and help. */
export function displayKey(name: string): string {
  if (DISPLAY[name]) return DISPLAY[name];
  if (name.startsWith('ctrl+')) return `^${name.slice(5).toUpperCase()}`;
  return name;
}
