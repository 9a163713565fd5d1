import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { DOWN, ENTER, ESC, jumpTo, press, renderApp, wait } from '../../helpers/ink.js';

const SPACE = ' ';
const CTRL_SPACE = '\x00';
const CTRL_BACKSLASH = '\x1c';
const LABELS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

let svc: RunningService;
const ids: Record<string, number> = {};

beforeAll(async () => {
  svc = await startTestService();
  for (const label of LABELS) {
    const res = await call(svc, 'POST', '/vm/instances', { body: { label, region: 'us-east', type: 'g6-nanode-1' } });
    expect(res.status).toBe(200);
    ids[label] = res.body.id;
  }
});
afterAll(() => svc.close());

/** The table line of a row: its gutter (cursor, mark) and cells. */
const line = (frame: string, label: string) => frame.split('\n').find((l) => new RegExp(`^.{2,3} ${label}\\b`).test(l)) ?? '';

describe('marks in a list', { timeout: 60_000 }, () => {
  it('Space marks and moves on; the mark shows without color, the header counts; Space again unmarks', async () => {
    const r = renderApp({ svc, rows: 24, cols: 100 });
    await jumpTo(r, 'instances', /^› alpha/m);
    let frame = await press(r, SPACE, /1 marked/);
    expect(line(frame, 'alpha')).toMatch(/^ ● alpha/);
    // With marks the gutter has a column for them.
    expect(line(frame, 'bravo')).toMatch(/^› {2}bravo/);
    frame = await press(r, SPACE, /2 marked/);
    // The cursor's row marked shows both: cursor then mark.
    await press(r, 'k', /^›● bravo/m);
    frame = await press(r, SPACE, /1 marked/);
    expect(line(frame, 'bravo')).toMatch(/^ {3}bravo/);
    expect(line(frame, 'alpha')).toMatch(/^ ● alpha/);
  });

  it('under NO_COLOR the mark is an asterisk', async () => {
    const r = renderApp({ svc, rows: 24, cols: 100 });
    await jumpTo(r, 'instances', /^› alpha/m);
    const before = process.env.NO_COLOR;
    // Read as each frame draws (the command line's cursor would differ before).
    process.env.NO_COLOR = '1';
    try {
      const frame = await press(r, SPACE, /1 marked/);
      expect(line(frame, 'alpha')).toMatch(/^ \* alpha/);
    } finally {
      if (before === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = before;
    }
  });

  it('marks survive sorting, filtering and refresh; the filter says how many it hides', async () => {
    const r = renderApp({ svc, rows: 24, cols: 100 });
    await jumpTo(r, 'instances', /^› alpha/m);
    await press(r, SPACE, /1 marked/);
    await press(r, 'j', /^› {2}charlie/m);
    await press(r, SPACE, /2 marked/);
    // Reversed by label: echo first, the marks on their rows.
    let frame = await press(r, 'L', /Label ▲/).then(() => press(r, 'L', /Label ▼/));
    expect(frame.indexOf('echo')).toBeLessThan(frame.indexOf('alpha'));
    expect(line(frame, 'alpha')).toMatch(/^.● alpha/);
    expect(line(frame, 'charlie')).toMatch(/^.● charlie/);
    expect(line(frame, 'bravo')).not.toMatch(/●/);
    await press(r, '/', /Enter keep/);
    frame = await press(r, 'char', /1 of 5 · 2 marked \(1 hidden by the filter\)/);
    expect(line(frame, 'charlie')).toMatch(/^.● charlie/);
    await press(r, ENTER, /Enter open/);
    await press(r, ESC, /5 items · 2 marked/);
    await press(r, 'r', /5 items · 2 marked/);
    frame = await wait(r, (f) => !f.includes('refreshing'));
    expect(line(frame, 'alpha')).toMatch(/^.● alpha/);
  });

  it('a row that leaves the list loses its mark', async () => {
    const victim = await call(svc, 'POST', '/vm/instances', { body: { label: 'foxtrot', region: 'us-east', type: 'g6-nanode-1' } });
    const r = renderApp({ svc, rows: 24, cols: 100 });
    await jumpTo(r, 'instances', /^› alpha/m);
    await press(r, 'G', /^› foxtrot/m);
    await press(r, SPACE, /1 marked/);
    await press(r, 'g', /^› {2}alpha/m);
    await press(r, SPACE, /2 marked/);
    expect((await call(svc, 'DELETE', `/vm/instances/${victim.body.id}`)).status).toBe(200);
    const frame = await press(r, 'r', /5 items · 1 marked/);
    expect(frame).not.toContain('foxtrot');
  });

  it('Ctrl-Space marks from the last mark to the cursor, either way; Ctrl-\\ clears every mark', async () => {
    const r = renderApp({ svc, rows: 40, cols: 100 });
    await jumpTo(r, 'instances', /^› alpha/m);
    await press(r, 'j', /^› bravo/m);
    // Space moved the cursor on to charlie.
    await press(r, SPACE, /1 marked/);
    await press(r, DOWN, /^› {2}delta/m);
    let frame = await press(r, CTRL_SPACE, /3 marked/);
    for (const l of ['bravo', 'charlie', 'delta']) expect(line(frame, l)).toMatch(/^.●/);
    for (const l of ['alpha', 'echo']) expect(line(frame, l)).not.toMatch(/●/);
    // From delta (the range's end) back up to alpha.
    await press(r, 'g', /^› {2}alpha/m);
    frame = await press(r, CTRL_SPACE, /4 marked/);
    expect(line(frame, 'alpha')).toMatch(/^›●/);
    // The help lists the keys that act now.
    const help = await press(r, '?', 'Everywhere');
    expect(help).toMatch(/^Space\s+Mark or unmark/m);
    expect(help).toMatch(/^\^Space\s+Mark every item from the last one marked/m);
    expect(help).toMatch(/^\^\\\s+Clear every mark/m);
    await press(r, ESC, '4 marked');
    frame = await press(r, CTRL_BACKSLASH, (f) => !f.includes('marked'));
    expect(frame).not.toMatch(/●/);
    // The gutter is as narrow as before any mark.
    expect(frame).toMatch(/^› alpha/m);
  });
});
