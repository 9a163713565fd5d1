import { describe, expect, it, vi } from 'vitest';
import { Menu } from '../../src/components/Menu.js';
import { ENTER, renderWithApp, sendInputAndWait, waitForContent } from '../helpers/ink.js';

const DOWN = '\x1b[B';

function menu(count: number) {
  const onSelect = vi.fn();
  const items = Array.from({ length: count }, (_, i) => ({ id: `plan-${i}`, label: i % 2 ? `g6-standard-${i}` : `g6-nanode-${i}` }));
  const r = renderWithApp(<Menu title="Type: choose" items={items} onSelect={onSelect} onClose={() => {}} width={50} height={12} />);
  return { ...r, onSelect };
}

describe('Menu', () => {
  it('a picker of 20 or more filters as the user types (j and k are letters there); the arrows still move; Enter picks', async () => {
    const m = menu(24);
    await waitForContent(m.lastFrame, 'type to filter:');
    expect(m.lastFrame()).toContain('24 of 24');
    await sendInputAndWait(m.stdin, 'standard-1', m.lastFrame, /standard-1\s+\d+ of 24/);
    const frame = m.lastFrame();
    expect(frame).toContain('g6-standard-11');
    expect(frame).not.toContain('g6-nanode-');
    await sendInputAndWait(m.stdin, DOWN, m.lastFrame, /› g6-standard-11/);
    m.stdin.write(ENTER);
    await vi.waitFor(() => expect(m.onSelect).toHaveBeenCalledWith(expect.objectContaining({ id: 'plan-11' })));
    await sendInputAndWait(m.stdin, 'jk', m.lastFrame, 'nothing matches "standard-1jk"');
  });

  it('a short menu has no filter line', async () => {
    const m = menu(5);
    await waitForContent(m.lastFrame, 'g6-nanode-4');
    expect(m.lastFrame()).not.toContain('type to filter');
  });
});
