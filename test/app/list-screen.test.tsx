import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { call, startTestService } from '../helpers/service.js';
import { CTRL_D, DOWN, ENTER, ESC, jumpTo, renderApp, sendInputAndWait, waitForContent } from '../helpers/ink.js';
import { testScreens } from './fixtures.js';

let svc: RunningService;

beforeAll(async () => {
  svc = await startTestService();
  for (const label of ['alpha', 'bravo', 'charlie']) await call(svc, 'POST', '/tags', { body: { label } });
});
afterAll(() => svc.close());

const RIGHT = '\x1b[C';

function app(opts: Parameters<typeof renderApp>[0] = {}) {
  const r = renderApp({ svc, screens: testScreens, ...opts });
  return r;
}

const open = jumpTo;

describe('generic list screen', () => {
  it('creates through the form, then shows the new row and a message', async () => {
    const r = app();
    await open(r, 'tags', '3 items');
    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'New: Tags');
    r.stdin.write('delta');
    await waitForContent(r.lastFrame, 'delta');
    r.stdin.write('\x13');
    await waitForContent(r.lastFrame, (f) => f.includes('4 items') && f.includes('Created'));
    expect(r.lastFrame()).toContain('delta');
    expect(r.lastFrame()).not.toContain('New: Tags');
  });

  it('deletes an irreversible item only after its label is typed', async () => {
    await call(svc, 'POST', '/tags', { body: { label: 'zulu' } });
    const r = app();
    await open(r, 'tags', 'zulu');
    await sendInputAndWait(r.stdin, 'G', r.lastFrame, /› zulu/);
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Type zulu to confirm');
    // Enter on the default button cancels.
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => !f.includes('to confirm'));
    expect((await call(svc, 'GET', '/tags')).body.data.map((t: { label: string }) => t.label)).toContain('zulu');
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Type zulu to confirm');
    r.stdin.write('zulu');
    await waitForContent(r.lastFrame, /\bzulu\b.*\n.*\[ Cancel \]/s);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Delete zulu: done');
    await waitForContent(r.lastFrame, (f) => !/^. zulu/m.test(f));
    expect((await call(svc, 'GET', '/tags')).body.data.map((t: { label: string }) => t.label)).not.toContain('zulu');
  });

  it('drills in with Enter (breadcrumbs follow) and Esc comes back to the same row', async () => {
    const r = app();
    await open(r, 'tags', 'charlie');
    r.stdin.write(DOWN);
    await waitForContent(r.lastFrame, /^› bravo/m);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'home › tags › bravo › tagged');
    await waitForContent(r.lastFrame, 'No tagged yet.');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /^› bravo/m);
    expect(r.lastFrame()).toMatch(/^home › tags$/m);
  });

  it('filters live across columns; Esc clears; q is typed while filtering', async () => {
    const r = app();
    await open(r, 'tags', 'charlie');
    await sendInputAndWait(r.stdin, '/', r.lastFrame, /^\//m);
    await sendInputAndWait(r.stdin, 'RAV', r.lastFrame, /1 of \d+/);
    expect(r.lastFrame()).toMatch(/› bravo/);
    expect(r.lastFrame()).not.toContain('charlie');
    await sendInputAndWait(r.stdin, 'q', r.lastFrame, 'Nothing matches "RAVq"');
    expect(r.quits()).toBe(0);
    await sendInputAndWait(r.stdin, '\x7f', r.lastFrame, /1 of \d+/);
    // Enter keeps the filter; Esc then clears it before going back.
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /^\/RAV/m);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'charlie');
    expect(r.lastFrame()).toMatch(/home › tags$/m);
    // The row the filter led to stays selected once the filter is cleared.
    expect(r.lastFrame()).toMatch(/^› bravo/m);
  });

  it("sorts by a column with Shift and its initial, again reverses, the cursor staying on its row", async () => {
    const r = app();
    await open(r, 'tags', 'charlie');
    const rowsOf = (f: string) => f.split('\n').filter((l) => /^[› ] [a-z-]+\s*$/.test(l)).map((l) => l.slice(2).trim());
    const chosen = r.lastFrame().match(/^› ([a-z-]+)/m)![1]!;
    let frame = await sendInputAndWait(r.stdin, 'L', r.lastFrame, 'sorted by Label ▲');
    expect(rowsOf(frame)).toEqual([...rowsOf(frame)].sort());
    expect(frame).toMatch(new RegExp(`^› ${chosen}\\s*$`, 'm'));
    expect(frame).toMatch(/^ {2}Label ▲/m);
    frame = await sendInputAndWait(r.stdin, 'L', r.lastFrame, 'sorted by Label ▼');
    expect(rowsOf(frame)).toEqual([...rowsOf(frame)].sort().reverse());
    // The first row is now the last, and the cursor went with it.
    expect(rowsOf(frame).at(-1)).toBe(chosen);
    expect(frame).toMatch(new RegExp(`^› ${chosen}\\s*$`, 'm'));
    // No column here starts with Q: the key says so instead of doing nothing.
    await sendInputAndWait(r.stdin, 'Q', r.lastFrame, 'Q sorts by no column here');
  });

  it('keeps the selection on the same item when a refresh moves it', async () => {
    const r = app();
    await open(r, 'tags', 'charlie');
    r.stdin.write('G');
    const before = (await waitForContent(r.lastFrame, /› \w+/)).match(/› (\w+)/)![1]!;
    await call(svc, 'POST', '/tags', { body: { label: 'aaa-first' } });
    await sendInputAndWait(r.stdin, 'r', r.lastFrame, 'aaa-first');
    expect(r.lastFrame()).toContain(`› ${before}`);
    await call(svc, 'DELETE', '/tags/aaa-first');
  });

  it('shows a secret once, in full, until acknowledged', async () => {
    const r = app();
    await open(r, 'tokens', 'Tokens');
    await waitForContent(r.lastFrame, 'item');
    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'Label');
    r.stdin.write('ci');
    await waitForContent(r.lastFrame, 'ci');
    const frame = await sendInputAndWait(r.stdin, '\x13', r.lastFrame, 'will not be shown again');
    const token = frame.match(/\b[0-9a-f]{64}\b/)?.[0];
    expect(token).toBeDefined();
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'will not be shown again');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => !f.includes('will not be shown again') && f.includes('Token created'));
    expect(r.lastFrame()).not.toContain(token!);
  });

  it('runs an action from the menu, asking first when it is destructive', async () => {
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'doomed' } });
    const r = app();
    await open(r, 'tokens', 'doomed');
    await sendInputAndWait(r.stdin, 'G', r.lastFrame, /› .*doomed/);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Actions: doomed');
    await sendInputAndWait(r.stdin, 'r', r.lastFrame, 'Clients using it stop working');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Revoked doomed');
    expect((await call(svc, 'GET', `/profile/tokens/${made.body.id}`)).status).toBe(404);
  });

  it('an action with a form sends its body', async () => {
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'old-name' } });
    const r = app();
    await open(r, 'tokens', 'old-name');
    await sendInputAndWait(r.stdin, 'G', r.lastFrame, /› .*old-name/);
    r.stdin.write('a');
    await waitForContent(r.lastFrame, 'Rename');
    r.stdin.write(DOWN);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Rename: old-name');
    r.stdin.write('\x15');
    await waitForContent(r.lastFrame, (f) => !/Label\s+old-name/.test(f));
    r.stdin.write('new-name');
    await waitForContent(r.lastFrame, 'new-name');
    await sendInputAndWait(r.stdin, '\x13', r.lastFrame, 'Saved old-name');
    expect((await call(svc, 'GET', `/profile/tokens/${made.body.id}`)).body.label).toBe('new-name');
  });

  it('shows the detail (d) and the raw JSON (y); Esc closes them first', async () => {
    const r = app();
    await open(r, 'regions', 'us-east');
    await sendInputAndWait(r.stdin, 'd', r.lastFrame, /Resolvers\n.*resolvers\.ipv4/);
    expect(r.lastFrame()).toContain('home › regions › detail');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /› us-east/);
    await sendInputAndWait(r.stdin, 'y', r.lastFrame, '"id": "us-east"');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /› us-east/);
    expect(r.lastFrame()).toMatch(/home › regions$/m);
  });

  it('an error state names the reason (403 names the missing scope)', async () => {
    const limited = await call(svc, 'POST', '/profile/tokens', { body: { label: 'acct', scopes: 'account:read_write' } });
    const r = app({ token: limited.body.token });
    await open(r, 'instances', 'missing scope vms:read_only');
    expect(r.lastFrame()).toContain('Could not load Instances: Not permitted');
    expect(r.lastFrame()).toContain('Press r to retry');
  });
});

describe('scopes and read-only', () => {
  it('marks what the token cannot do (help says why), and the key says it at once instead of opening a form or a question', async () => {
    const limited = await call(svc, 'POST', '/profile/tokens', { body: { label: 'ro', scopes: 'account:read_only' } });
    const r = app({ token: limited.body.token });
    await open(r, 'tags', 'charlie');
    await waitForContent(r.lastFrame, () => r.ctx.session.getState().scopes === 'account:read_only');
    await sendInputAndWait(r.stdin, '?', r.lastFrame, 'Create a new item  (needs account:read_write)');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /› alpha/);
    const refused = await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Cannot delete alpha: needs account:read_write');
    expect(refused).not.toContain('to confirm');
    const noForm = await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'Cannot create: needs account:read_write');
    expect(noForm).not.toContain('New: Tags');
    expect(noForm).toMatch(/^› alpha/m);
    expect((await call(svc, 'GET', '/tags')).body.data.map((t: { label: string }) => t.label)).toContain('alpha');
  });

  it('--read-only hides mutations from the footer and help, and refuses them', async () => {
    const r = app({ session: { readOnly: true } });
    await open(r, 'tags', 'charlie');
    expect(r.lastFrame()).toContain('[READ-ONLY]');
    expect(r.lastFrame()).not.toMatch(/\bc create\b/);
    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'Read-only mode: create is disabled');
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Read-only mode: delete is disabled');
    await sendInputAndWait(r.stdin, '?', r.lastFrame, 'Read-only mode');
    expect(r.lastFrame()).not.toContain('Create a new item');
  });
});
