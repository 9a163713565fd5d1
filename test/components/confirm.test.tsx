import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../../src/components/ConfirmDialog.js';
import { ENTER, ESC, renderWithApp, sendInputAndWait, waitForContent } from '../helpers/ink.js';

const RIGHT = '\x1b[C';
const LEFT = '\x1b[D';
const TAB = '\t';
const SHIFT_TAB = '\x1b[Z';

function dialog(typeToConfirm?: string) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  const r = renderWithApp(
    <ConfirmDialog title="Delete web-1" message='Delete "web-1"?' confirmLabel="Delete" destructive typeToConfirm={typeToConfirm} onConfirm={onConfirm} onCancel={onCancel} width={60} />,
  );
  return { ...r, onConfirm, onCancel };
}

describe('ConfirmDialog', () => {
  it('has Cancel as the default: Enter alone cancels', async () => {
    const d = dialog();
    await waitForContent(d.lastFrame, '[ Cancel ]');
    d.stdin.write(ENTER);
    await vi.waitFor(() => expect(d.onCancel).toHaveBeenCalledOnce());
    expect(d.onConfirm).not.toHaveBeenCalled();
  });

  it('confirms only after moving to the destructive button', async () => {
    const d = dialog();
    await waitForContent(d.lastFrame, '[ Delete ]');
    d.stdin.write(RIGHT);
    d.stdin.write(ENTER);
    await vi.waitFor(() => expect(d.onConfirm).toHaveBeenCalledOnce());
    expect(d.onCancel).not.toHaveBeenCalled();
  });

  it('Esc cancels, and other keys (q included) do nothing', async () => {
    const d = dialog();
    await waitForContent(d.lastFrame, 'Delete');
    d.stdin.write('q');
    d.stdin.write('y');
    d.stdin.write(ESC);
    await vi.waitFor(() => expect(d.onCancel).toHaveBeenCalledOnce());
    expect(d.quits()).toBe(0);
    expect(d.onConfirm).not.toHaveBeenCalled();
  });

  it('irreversible: the label must be typed exactly', async () => {
    const d = dialog('web-1');
    await waitForContent(d.lastFrame, 'Type web-1 to confirm');
    // The Delete button stays disabled until the text matches.
    d.stdin.write(RIGHT);
    await sendInputAndWait(d.stdin, ENTER, d.lastFrame, 'Type web-1 first');
    await sendInputAndWait(d.stdin, 'web-', d.lastFrame, 'web-');
    await sendInputAndWait(d.stdin, ENTER, d.lastFrame, 'Type web-1 exactly to confirm');
    expect(d.onConfirm).not.toHaveBeenCalled();
    d.stdin.write('1');
    await waitForContent(d.lastFrame, 'web-1');
    d.stdin.write(ENTER);
    await vi.waitFor(() => expect(d.onConfirm).toHaveBeenCalledOnce());
  });

  describe('Enter does what the focused button says (NO_COLOR shows the focus)', () => {
    const saved = process.env.NO_COLOR;
    beforeEach(() => void (process.env.NO_COLOR = '1'));
    afterEach(() => (saved === undefined ? delete process.env.NO_COLOR : (process.env.NO_COLOR = saved)));

    for (const [name, key] of [['Tab', TAB], ['←', LEFT], ['Shift-Tab', SHIFT_TAB]] as const) {
      it(`typing the label focuses Delete; ${name} back to Cancel, then Enter cancels`, async () => {
        const d = dialog('web-1');
        await waitForContent(d.lastFrame, '>[ Cancel ]<');
        const typed = await sendInputAndWait(d.stdin, 'web-1', d.lastFrame, '>[ Delete ]<');
        expect(typed).toContain('[ Cancel ]');
        expect(typed).not.toContain('>[ Cancel ]<');
        const back = await sendInputAndWait(d.stdin, key, d.lastFrame, '>[ Cancel ]<');
        expect(back).not.toContain('>[ Delete ]<');
        d.stdin.write(ENTER);
        await vi.waitFor(() => expect(d.onCancel).toHaveBeenCalledOnce());
        expect(d.onConfirm).not.toHaveBeenCalled();
      });
    }

    // Arrows are directions: pressed twice or held, ← stays on Cancel and → on Delete (it toggled once, and ← ← deleted).
    for (const [name, keys, button] of [
      ['← twice', [LEFT, LEFT], 'Cancel'],
      ['← three times', [LEFT, LEFT, LEFT], 'Cancel'],
      ['→ held, then ← twice', [RIGHT, RIGHT, RIGHT, RIGHT, LEFT, LEFT], 'Cancel'],
      ['← held, then → twice', [LEFT, LEFT, LEFT, RIGHT, RIGHT], 'Delete'],
    ] as const) {
      it(`typing the label, then ${name}: the focus ends on ${button}, and Enter presses it`, async () => {
        const d = dialog('web-1');
        await sendInputAndWait(d.stdin, 'web-1', d.lastFrame, '>[ Delete ]<');
        for (const key of keys) d.stdin.write(key);
        await waitForContent(d.lastFrame, `>[ ${button} ]<`);
        // Keys are read in order: Enter comes after every arrow.
        d.stdin.write(ENTER);
        const [pressed, other] = button === 'Cancel' ? [d.onCancel, d.onConfirm] : [d.onConfirm, d.onCancel];
        await vi.waitFor(() => expect(pressed).toHaveBeenCalledOnce());
        expect(other).not.toHaveBeenCalled();
      });
    }

    it('the arrows held in one burst of input (as a terminal repeats them) still end where they point', async () => {
      const d = dialog('web-1');
      await sendInputAndWait(d.stdin, 'web-1', d.lastFrame, '>[ Delete ]<');
      d.stdin.write(RIGHT.repeat(4) + LEFT.repeat(2));
      await waitForContent(d.lastFrame, '>[ Cancel ]<');
      d.stdin.write(ENTER);
      await vi.waitFor(() => expect(d.onCancel).toHaveBeenCalledOnce());
      expect(d.onConfirm).not.toHaveBeenCalled();
    });

    it('Tab and Shift-Tab cycle: twice is back where it started', async () => {
      const d = dialog();
      await waitForContent(d.lastFrame, '>[ Cancel ]<');
      await sendInputAndWait(d.stdin, TAB, d.lastFrame, '>[ Delete ]<');
      await sendInputAndWait(d.stdin, TAB, d.lastFrame, '>[ Cancel ]<');
      await sendInputAndWait(d.stdin, SHIFT_TAB, d.lastFrame, '>[ Delete ]<');
      await sendInputAndWait(d.stdin, SHIFT_TAB, d.lastFrame, '>[ Cancel ]<');
    });

    it('a wrong label with Delete focused says so and neither confirms nor cancels', async () => {
      const d = dialog('web-1');
      await sendInputAndWait(d.stdin, 'web-2', d.lastFrame, '>[ Delete ]<');
      await sendInputAndWait(d.stdin, ENTER, d.lastFrame, 'Type web-1 exactly to confirm');
      expect(d.onConfirm).not.toHaveBeenCalled();
      expect(d.onCancel).not.toHaveBeenCalled();
    });
  });
});
