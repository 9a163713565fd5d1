import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { BACKSPACE, CTRL_S, DOWN, ENTER, ESC, UP, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_A, CTRL_E, RIGHT, jump, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const prefs = async () => (await call(svc, 'GET', '/profile/preferences')).body;
const press = (r: { stdin: { write(s: string): void } }, key: string, times: number) => {
  for (let i = 0; i < times; i++) r.stdin.write(key);
};

describe(':preferences', () => {
  it('shows the object pretty; the JSON field rejects bad JSON and non-objects as you type and sends neither', async () => {
    const before = await prefs();
    const r = renderOn(svc, { rows: 30 });
    const frame = await jump(r, 'prefs', '"theme": "dark"');
    expect(frame).toContain('4 keys');
    expect(frame).toMatch(/^ {4}"instances": "label",$/m);

    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit preferences (a JSON object)');
    // The cursor starts after the closing brace.
    await sendInputAndWait(r.stdin, BACKSPACE, r.lastFrame, /^Preferences is not valid JSON$/m);
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /✗ is not vali/);
    expect(r.lastFrame()).toContain('Edit preferences');

    // Valid JSON again, then an array: the object rule.
    await sendInputAndWait(r.stdin, '}]', r.lastFrame, /^Preferences is not valid JSON$/m);
    press(r, UP, 8);
    r.stdin.write(CTRL_A);
    await sendInputAndWait(r.stdin, '[', r.lastFrame, /^Preferences must be an object$/m);
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /✗ must be an/);
    expect(await prefs()).toEqual(before);

    await sendInputAndWait(r.stdin, BACKSPACE, r.lastFrame, /^Preferences is not valid JSON$/m);
    press(r, DOWN, 8);
    r.stdin.write(CTRL_E);
    await sendInputAndWait(r.stdin, BACKSPACE, r.lastFrame, (f) => !f.includes('✗'));
    press(r, UP, 8);
    r.stdin.write(CTRL_E);
    r.stdin.write(ENTER);
    await sendInputAndWait(r.stdin, '  "editor": "vim",', r.lastFrame, /^ +"editor": "vim",$/m);
    expect(r.lastFrame()).not.toContain('✗');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Saved preferences');
    await waitForContent(r.lastFrame, /^ {2}"editor": "vim",$/m);
    expect(await prefs()).toEqual({ editor: 'vim', ...before });
    r.unmount();
  });

  it('Esc with edits asks before discarding them', async () => {
    const r = renderOn(svc, { rows: 30 });
    await jump(r, 'preferences', '"theme": "dark"');
    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit preferences (a JSON object)');
    await sendInputAndWait(r.stdin, 'x', r.lastFrame, /^Preferences is not valid JSON$/m);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'Discard changes?');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /^Preferences is not valid JSON$/m);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'Discard changes?');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('"theme": "dark"') && !f.includes('Edit preferences'));
    r.unmount();
  });
});
