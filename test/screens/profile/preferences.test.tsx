import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { BACKSPACE, CTRL_S, DOWN, ENTER, ESC, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_E, LOAD_MS, RIGHT, jump, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const prefs = async () => (await call(svc, 'GET', '/profile/preferences')).body;

describe(':preferences', () => {
  it('shows the object pretty; the JSON editor rejects bad JSON and non-objects as you type and will not save them', async () => {
    const before = await prefs();
    const r = renderOn(svc, { rows: 30 });
    const frame = await jump(r, 'prefs', '"theme": "dark"');
    expect(frame).toContain('4 keys');
    expect(frame).toMatch(/^ {4}"instances": "label",$/m);

    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit preferences (JSON object)');
    await sendInputAndWait(r.stdin, '[', r.lastFrame, /✗ Not valid JSON: /);
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /✗ Not valid JSON: /);
    // To the end of the last line: the text becomes valid JSON, but an array.
    for (let i = 0; i < 12; i++) r.stdin.write(DOWN);
    await sendInputAndWait(r.stdin, ']', r.lastFrame, '✗ Preferences must be a JSON object');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, '✗ Preferences must be a JSON object');
    expect(await prefs()).toEqual(before);

    await sendInputAndWait(r.stdin, BACKSPACE, r.lastFrame, /✗ Not valid JSON/);
    r.stdin.write('\x1b[5~');
    r.stdin.write('\x01');
    await sendInputAndWait(r.stdin, RIGHT, r.lastFrame, /line 1, column 2/);
    await sendInputAndWait(r.stdin, BACKSPACE, r.lastFrame, /of 9 lines · valid$/m);
    r.stdin.write(CTRL_E);
    r.stdin.write(ENTER);
    await sendInputAndWait(r.stdin, '  "editor": "vim",', r.lastFrame, /of 10 lines · valid$/m);
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Saved preferences', LOAD_MS);
    await waitForContent(r.lastFrame, /^ {2}"editor": "vim",$/m);
    expect(await prefs()).toEqual({ editor: 'vim', ...before });
    r.unmount();
  });

  it('Esc with edits asks before discarding them', async () => {
    const r = renderOn(svc, { rows: 30 });
    await jump(r, 'preferences', '"theme": "dark"');
    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit preferences (JSON object)');
    await sendInputAndWait(r.stdin, 'x', r.lastFrame, /✗ Not valid JSON/);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'Discard changes?');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /✗ Not valid JSON/);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'Discard changes?');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('"theme": "dark"') && !f.includes('Edit preferences'));
    r.unmount();
  });
});
