import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../../src/components/ConfirmDialog.js';
import { Menu } from '../../src/components/Menu.js';
import type { RunningService } from '../../src/server/service.js';
import { CTRL_D, ENTER, ESC, TAB, jumpTo, press, renderApp, renderWithApp, select, wait, waitForContent } from '../helpers/ink.js';
import { call, startTestService } from '../helpers/service.js';

/** The terminal sizes every dialog must fit: the main view is the terminal less one line and the four of the frame. */
const SIZES = [
  { rows: 24, cols: 80 },
  { rows: 40, cols: 120 },
] as const;
const mainHeight = (rows: number) => rows - 1 - 4;

/** The dialog's box is whole: its top and bottom borders are on screen, nothing is wider than the terminal. */
function fits(frame: string, rows: number, cols: number) {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows - 1);
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(cols);
  expect(lines.filter((l) => l.includes('╭')).length).toBe(1);
  expect(lines.filter((l) => l.includes('╰')).length).toBe(1);
}

describe.each(SIZES)('dialogs at $cols×$rows', ({ rows, cols }) => {
  it('a long confirmation scrolls its text with a sign of more, its buttons and the typed label stay on screen', async () => {
    const message = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of what goes with it.`).join(' ');
    const d = renderWithApp(<ConfirmDialog title="Delete web-1" message={message} confirmLabel="Delete" destructive typeToConfirm="web-1" onConfirm={vi.fn()} onCancel={vi.fn()} width={Math.min(cols, 72)} height={mainHeight(rows)} />, { rows, cols });
    let frame = await waitForContent(d.lastFrame, /↑↓ 1-\d+ of \d+ lines/);
    fits(frame, mainHeight(rows) + 1, cols);
    expect(frame).toContain('[ Cancel ]');
    expect(frame).toContain('[ Delete ]');
    expect(frame).toContain('Type web-1 to confirm');
    for (let i = 0; i < 80; i++) d.stdin.write('\x1b[B');
    frame = await waitForContent(d.lastFrame, /Line 120 of what goes with it\./);
    expect(frame).toContain('[ Cancel ]');
  });

  it('a menu longer than its room scrolls under a line saying where it is, down to its last entry', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ id: `i${i}`, label: `entry ${i + 1}` }));
    const m = renderWithApp(<Menu title="Image: choose" items={items} onSelect={vi.fn()} onClose={vi.fn()} width={Math.min(cols, 70)} height={mainHeight(rows)} />, { rows, cols });
    let frame = await waitForContent(m.lastFrame, /↑↓ 1-\d+ of 60, more below/);
    fits(frame, mainHeight(rows) + 1, cols);
    // A long menu takes letters as its filter: the arrows move.
    for (let i = 0; i < 60; i++) m.stdin.write('\x1b[B');
    frame = await waitForContent(m.lastFrame, /› entry 60\b/);
    expect(frame).toMatch(/↑↓ \d+-60 of 60 *│/);
    fits(frame, mainHeight(rows) + 1, cols);
  });
});

describe.each(SIZES)('the app’s dialogs at $cols×$rows', ({ rows, cols }) => {
  let svc: RunningService;
  let label: string;
  beforeAll(async () => {
    svc = await startTestService({ seed: 'demo' });
    label = (await call(svc, 'GET', '/vm/instances')).body.data[0].label;
  });
  afterAll(() => svc.close());

  it('the actions menu, the typed delete, a picker and the discard question are whole on screen', { timeout: 60_000 }, async () => {
    const r = renderApp({ svc, rows, cols });
    await wait(r, 'Load balancers');
    await jumpTo(r, 'instances', /\d+ items/);
    await select(r, label);

    fits(await press(r, 'a', `Actions: ${label}`), rows, cols);
    await press(r, ESC, (f) => !f.includes(`Actions: ${label}`));

    const del = await press(r, CTRL_D, '[ Cancel ]');
    fits(del, rows, cols);
    expect(del).toContain(`Type ${label} to confirm`);
    await press(r, ESC, (f) => !f.includes('[ Cancel ]'));

    await press(r, 'c', /› Region \*\s+— choose \(Enter\) —/);
    fits(await press(r, ENTER, 'Region: choose'), rows, cols);
    await press(r, ENTER, (f) => !f.includes('Region: choose'));
    await press(r, TAB, /› Type \*/);
    fits(await press(r, ENTER, 'Type: choose'), rows, cols);
    await press(r, ESC, (f) => !f.includes('Type: choose'));
    const discard = await press(r, ESC, 'Discard changes?');
    fits(discard, rows, cols);
    expect(discard).toContain('[ Cancel ]');
    expect(discard).toContain('[ Discard ]');
  });
});
