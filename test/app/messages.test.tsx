import { describe, expect, it } from 'vitest';
import messages from '../../src/screens/messages/index.js';
import { createSessionStore, MESSAGE_HISTORY } from '../../src/store/session.js';
import { coreScreens } from './fixtures.js';
import { ESC, jumpTo, press, renderApp, wait } from '../helpers/ink.js';

const LONG = `Cannot restore backup 7 onto web-1: ${'the target disk is smaller than the backup, '.repeat(8)}restore with overwrite true or free space first (the end of the reason)`;

describe('messages', () => {
  it('a message too long for its lines says where to read it whole; M shows every message whole, newest first, with time and level', async () => {
    const r = renderApp({ screens: [...coreScreens, ...messages], rows: 24, cols: 80 });
    await wait(r, 'Regions');
    r.ctx.session.getState().notify('Saved web-1', 'success');
    r.ctx.session.getState().notify(LONG, 'error');
    let frame = await wait(r, /… M shows it whole$/m);
    expect(frame).not.toContain('(the end of the reason)');
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    frame = await press(r, 'M', /Messages, newest first/);
    expect(frame).toMatch(/^home › messages$/m);
    expect(frame).toMatch(/^\d\d:\d\d:\d\d error +Cannot restore backup 7/m);
    // Whole: every word of it, over as many lines as it takes.
    const shown = frame.split('\n').map((l) => l.slice(15).trim()).join(' ');
    expect(shown.replace(/\s+/g, ' ')).toContain('(the end of the reason)');
    expect(frame.indexOf('Cannot restore')).toBeLessThan(frame.indexOf('Saved web-1'));
    expect(frame).toMatch(/^\d\d:\d\d:\d\d done +Saved web-1$/m);

    // Esc goes back to where the message was seen.
    await press(r, ESC, (f) => /^home$/m.test(f));
  });

  it('`:messages` opens it too, and says so when there is nothing yet', async () => {
    const r = renderApp({ screens: [...coreScreens, ...messages], rows: 24, cols: 80 });
    await wait(r, 'Regions');
    await jumpTo(r, 'messages', /No message yet/);
  });

  it(`keeps the last ${MESSAGE_HISTORY}`, () => {
    const s = createSessionStore({ endpoint: 'x', embedded: false, readOnly: false, refreshSeconds: 5 });
    for (let i = 1; i <= MESSAGE_HISTORY + 7; i++) s.getState().notify(`m${i}`);
    const kept = s.getState().messages.map((m) => m.text);
    expect(kept).toHaveLength(MESSAGE_HISTORY);
    expect(kept[0]).toBe('m8');
    expect(kept.at(-1)).toBe(`m${MESSAGE_HISTORY + 7}`);
  });
});
