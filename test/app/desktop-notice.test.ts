import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNALS, tellTerminal } from '../../src/app/desktop-notice.js';

const told = (text: string, signals = DEFAULT_SIGNALS, env: NodeJS.ProcessEnv = {}) => {
  let out = '';
  tellTerminal(text, signals, { write: (d: string) => (out += d) }, env);
  return out;
};

describe('telling the terminal of an alert', () => {
  it('rings the bell and sends OSC 9 by default; OSC 777 when switched on; nothing when all are off', () => {
    expect(told('web-1 went offline')).toBe('\x1b]9;web-1 went offline\x07\x07');
    expect(told('x', { bell: false, osc9: false, osc777: true })).toBe('\x1b]777;notify;vmtui;x\x07');
    expect(told('x', { bell: false, osc9: false, osc777: false })).toBe('');
  });

  it('inside tmux wraps each notification in the passthrough, its ESCs doubled; the bell goes as is', () => {
    expect(told('x', { bell: true, osc9: true, osc777: false }, { TMUX: '/tmp/tmux-1/default,1,0' })).toBe('\x1bPtmux;\x1b\x1b]9;x\x07\x1b\\\x07');
  });

  it('a label with control characters cannot end the sequence and write to the screen', () => {
    expect(told('evil\x07\x1b[2Jlabel\x9c', { bell: false, osc9: true, osc777: false })).toBe('\x1b]9;evil [2Jlabel \x07');
  });
});
