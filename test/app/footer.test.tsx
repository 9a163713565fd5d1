import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footerParts, groupText } from '../../src/app/Footer.js';
import type { KeyLine } from '../../src/app/active-keys.js';
import type { CommandId } from '../../src/app/keymap.js';
import { KEYMAP } from '../../src/app/keymap.js';
import { displayKey } from '../../src/app/keys.js';
import type { RunningService } from '../../src/server/service.js';
import { jumpTo, renderApp, wait } from '../helpers/ink.js';
import { call, startTestService } from '../helpers/service.js';

const line = (id: CommandId, mark?: string): KeyLine => ({ id, keys: KEYMAP[id].keys, label: KEYMAP[id].label, help: KEYMAP[id].help, quiet: false, mark });
const LIST: KeyLine[] = [
  line('open'),
  line('create', 'needs vms:read_write'),
  line('edit', 'read-only grant'),
  line('delete', 'read-only grant'),
  line('actions'),
  line('detail'),
  line('json'),
  line('filter'),
  line('sortBy'),
  line('refresh'),
  line('help'),
  line('back'),
  line('command'),
  line('quit'),
];
const text = (p: ReturnType<typeof footerParts>) => [...p.keys.map((l) => `${displayKey(l.keys[0]!)} ${l.label}`), ...p.marked.map(groupText)].join('  ');

describe('the footer', () => {
  it('gathers the keys the token cannot use under their reason, after the keys that act', () => {
    const wide = footerParts(LIST, 200);
    expect(wide.marked.map(groupText)).toEqual(['c: needs vms:read_write', 'e ^D: read-only grant']);
    expect(wide.keys.map((l) => l.id)).toEqual(['help', 'open', 'actions', 'detail', 'json', 'filter', 'sortBy', 'refresh', 'back', 'command', 'quit']);
  });

  it('keeps help, the way back and on, and why keys are dimmed, at 80 columns; the rest as room allows', () => {
    const narrow = footerParts(LIST, 80);
    expect(text(narrow).length).toBeLessThanOrEqual(80);
    expect(narrow.keys.map((l) => l.id)).toEqual(expect.arrayContaining(['help', 'back', 'open', 'actions', 'filter']));
    expect(narrow.marked.map(groupText)).toContain('c: needs vms:read_write');
    // Nothing too narrow to say why: a group that does not fit is left out whole, never cut.
    for (const w of [20, 30, 40, 60]) expect(text(footerParts(LIST, w)).length).toBeLessThanOrEqual(w);
  });
});

describe('the footer of a list the token may only read', () => {
  let svc: RunningService;
  let token: string;
  beforeAll(async () => {
    svc = await startTestService({ seed: 'demo' });
    token = (await call(svc, 'POST', '/profile/tokens', { body: { label: 'look', scopes: 'account:read_only vms:read_only' } })).body.token;
  });
  afterAll(() => svc.close());

  it.each([80, 120])('at %i columns says why c, e and ^D are dimmed', async (cols) => {
    const r = renderApp({ svc, token, rows: 24, cols });
    try {
      await wait(r, 'Load balancers');
      await jumpTo(r, 'instances', /\d+ items/);
      const frame = await wait(r, /c e \^D: needs vms:read_write$/m);
      const footer = frame.split('\n').find((l) => l.includes('needs vms:read_write'))!;
      expect(footer).toMatch(/^\? help {2}Enter open {2}a actions {2}.*\/ filter .*Esc back/);
      expect(footer.length).toBeLessThanOrEqual(cols);
    } finally {
      r.unmount();
    }
  });
});
