import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYMAP, type CommandId } from '../../src/app/keymap.js';
import { displayKey } from '../../src/app/keys.js';
import type { LayerInfo } from '../../src/app/key-router.js';
import { activeKeys } from '../../src/app/active-keys.js';
import type { RunningService } from '../../src/server/service.js';
import { call, startTestService } from '../helpers/service.js';
import { ENTER, jumpTo, renderApp, sendInputAndWait, waitForContent } from '../helpers/ink.js';
import { coreScreens, testScreens } from './fixtures.js';

const KEY_NAME = /^(return|escape|tab|shift\+tab|space|up|down|left|right|pageup|pagedown|home|end|backspace|ctrl\+([a-z]|space|\\)|alt\+[1-9]|g[tT]|[\x21-\x7e])$/;

/** Two commands of one layer on the same key would make one of them unreachable. */
function clashes(layers: LayerInfo[]): string[] {
  return layers.flatMap((layer) => {
    const seen = new Map<string, CommandId>();
    return layer.commands.flatMap((id) =>
      KEYMAP[id].keys.flatMap((k) => {
        const other = seen.get(k);
        seen.set(k, id);
        return other ? [`${layer.title}: ${k} is both ${other} and ${id}`] : [];
      }),
    );
  });
}

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
  await call(svc, 'POST', '/tags', { body: { label: 'blue' } });
});
afterAll(() => svc.close());

describe('the keymap', () => {
  it('names keys the way the router produces them, and describes every command', () => {
    for (const [id, spec] of Object.entries(KEYMAP)) {
      for (const k of spec.keys) expect(k, id).toMatch(KEY_NAME);
      expect(spec.label, id).not.toBe('');
      expect(spec.help, id).not.toBe('');
    }
  });

  it('no layer binds one key twice, in any state of the list screen', async () => {
    const r = renderApp({ svc, screens: testScreens });
    const check = () => expect(clashes(r.ctx.ui.getState().layers)).toEqual([]);
    await waitForContent(r.lastFrame, 'Regions');
    check();
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:$/m);
    check();
    r.stdin.write('\x1b');
    await waitForContent(r.lastFrame, (f) => !/^:$/m.test(f));
    await jumpTo(r, 'tokens', /^› /m);
    for (const [key, shows] of [
      ['/', /^\//m],
      [ENTER, /^› /m],
      ['d', 'detail'],
      ['\x1b', /^home › tokens$/m],
      ['a', 'Actions:'],
      ['\x1b', /^home › tokens$/m],
      ['c', 'New: Tokens'],
    ] as const) {
      await sendInputAndWait(r.stdin, key, r.lastFrame, shows);
      check();
    }
  });

  it('the footer shows the commands the help lists that fit, help first', async () => {
    const r = renderApp({ svc, screens: testScreens, rows: 90 });
    const frame = await jumpTo(r, 'tags', (f) => /^home › tags$/m.test(f) && /^› /m.test(f));
    const footer = frame.split('\n').at(-2)!;
    const sections = activeKeys(r.ctx.ui.getState().layers, false);
    const expected = sections.flatMap((s) => s.lines.filter((l) => !l.quiet));
    const first = expected.find((l) => l.id === 'help')!;
    expect(footer.startsWith(`${displayKey(first.keys[0]!)} ${first.label}`)).toBe(true);
    // What fits, whole and in the table's order: a narrow footer leaves keys out rather than cutting one.
    // Keys too many to list (the sort letters) are written as the keymap says: ⇧A-Z.
    const texts = [first, ...expected.filter((l) => l.id !== 'help')].map((l) => `${l.keysText ?? displayKey(l.keys[0]!)} ${l.label}`);
    const parts = footer.split('  ');
    expect(parts).toEqual(texts.filter((t) => parts.includes(t)));
    expect(footer.length).toBeLessThanOrEqual(100);
    expect(footer).toMatch(/Enter open {2}c create {2}\^D delete {2}d detail/);
    const help = await sendInputAndWait(r.stdin, '?', r.lastFrame, 'Everywhere');
    for (const line of sections.flatMap((s) => s.lines)) expect(help).toContain(line.help);
  });
});
