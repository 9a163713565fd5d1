import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { displayKey, keyEvents } from '../../src/app/keys.js';
import { candidates, complete } from '../../src/app/completion.js';

const plain = { ctrl: false, meta: false, shift: false, return: false, escape: false, tab: false } as Key;

describe('keys', () => {
  it('splits a run of characters into keypresses, so fast typing and pastes lose nothing', () => {
    expect(keyEvents('jj', plain).map((e) => e.name)).toEqual(['j', 'j']);
    expect(keyEvents('eu-\r', plain)).toEqual([
      { name: 'e', text: 'e' },
      { name: 'u', text: 'u' },
      { name: '-', text: '-' },
      { name: 'return', text: '' },
    ]);
    expect(keyEvents('a b\x7f\t\x04', plain).map((e) => e.name)).toEqual(['a', 'space', 'b', 'backspace', 'tab', 'ctrl+d']);
  });

  it('names Alt and a digit (ESC 1 from the terminal) alt+1, shown Alt-1: the tab keys', () => {
    expect(keyEvents('1', { ...plain, meta: true }).map((e) => e.name)).toEqual(['alt+1']);
    expect(displayKey('alt+1')).toBe('Alt-1');
  });

  it('keeps a single key as Ink parsed it', () => {
    expect(keyEvents('\r', { ...plain, return: true })).toEqual([{ name: 'return', text: '' }]);
    expect(keyEvents('d', { ...plain, ctrl: true })).toEqual([{ name: 'ctrl+d', text: '' }]);
    expect(keyEvents('S', { ...plain, shift: true })).toEqual([{ name: 'S', text: 'S' }]);
  });

  it('writes keys for people', () => {
    expect(['return', 'escape', 'ctrl+d', 'pagedown', 'j', 'ctrl+space', 'ctrl+\\'].map(displayKey)).toEqual(['Enter', 'Esc', '^D', 'PgDn', 'j', '^Space', '^\\']);
  });

  it('names Ctrl-Space (NUL, which Ink reads as ctrl+`) and Ctrl-\\ (FS), alone or in a run', () => {
    expect(keyEvents('`', { ...plain, ctrl: true })).toEqual([{ name: 'ctrl+space', text: '' }]);
    expect(keyEvents('\x1c', plain)).toEqual([{ name: 'ctrl+\\', text: '' }]);
    expect(keyEvents('j\x00k\x1c', plain).map((e) => e.name)).toEqual(['j', 'ctrl+space', 'k', 'ctrl+\\']);
    // A backtick typed is still a backtick.
    expect(keyEvents('`', plain)).toEqual([{ name: '`', text: '`' }]);
  });
});

describe('completion', () => {
  const names = ['instances', 'images', 'ips', 'vm', 'img'];

  it('lists prefix matches first, then names containing the text', () => {
    expect(candidates(names, 'i')).toEqual(['instances', 'images', 'ips', 'img']);
    expect(candidates(names, 'm')).toEqual(['images', 'vm', 'img']);
  });

  it('completes a single candidate, extends to the common prefix, then cycles', () => {
    expect(complete(names, { text: 'ins', base: null, cycle: -1 })).toEqual({ text: 'instances', base: null, cycle: -1 });
    let state = complete(names, { text: 'im', base: null, cycle: -1 });
    expect(state).toEqual({ text: 'images', base: 'im', cycle: 0 });
    state = complete(names, state);
    expect(state.text).toBe('img');
    state = complete(names, state);
    expect(state.text).toBe('images');
  });
});
