import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { startTestService } from '../helpers/service.js';
import { DOWN, ENTER, ESC, TAB, UP, jumpTo, renderApp, sendInputAndWait, waitForContent } from '../helpers/ink.js';
import { coreScreens, testScreens } from './fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('the frame', () => {
  it('fits 80×24 in at most 23 lines: header, breadcrumbs, view, footer, message line', async () => {
    const r = renderApp({ screens: coreScreens, svc, rows: 24, cols: 80 });
    const frame = await waitForContent(r.lastFrame, (f) => /Regions\s+7/.test(f) && f.includes('demo-owner'));
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // Fresh data: no age in the header.
    expect(lines[0]).toMatch(/^vmtui {2}demo-owner {2}http:\/\/127\.0\.0\.1:\d+\/v4$/);
    expect(lines[1]).toBe('home');
    expect(lines[lines.length - 2]).toMatch(/^\? help {2}Enter open/);
  });

  it('a long message is read whole at 80 columns, and the frame still fits', async () => {
    const r = renderApp({ screens: coreScreens, svc, rows: 24, cols: 80 });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    const long = 'Restore backup 12 to web-1 failed: Not permitted: the disks of web-1 would be overwritten; restore with overwrite true or free the space first, then try again';
    r.ctx.session.getState().notify(long, 'error');
    const frame = await waitForContent(r.lastFrame, 'try again');
    expect(frame.split('\n').length).toBeLessThanOrEqual(23);
    expect(frame.split('\n').slice(-3).join(' ')).toContain(long.slice(-60));
    expect(frame.replace(/\n/g, ' ')).toContain('restore with overwrite true or free');
  });

  it('re-lays out when the terminal is resized', async () => {
    const r = renderApp({ screens: coreScreens, svc, rows: 24, cols: 100 });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    r.ctx.ui.getState().resize(12, 60);
    const frame = await waitForContent(r.lastFrame, (f) => f.split('\n').length <= 11);
    expect(frame.split('\n').every((l) => l.length <= 60)).toBe(true);
    expect(frame).toContain('Regions');
  });

  it('shows the profile name, read-only badge and problem count in the header', async () => {
    const r = renderApp({ screens: coreScreens, svc, session: { profileName: 'prod', readOnly: true } });
    r.ctx.session.setState({ problemCount: 2 });
    await waitForContent(r.lastFrame, /profile prod {2}\[READ-ONLY\] {2}⚠ 2 problem services/);
  });

  it('keeps every part of the header as the terminal narrows: short badges first, then the endpoint cut', async () => {
    const r = renderApp({ screens: coreScreens, svc, rows: 24, cols: 120, session: { readOnly: true } });
    r.ctx.session.setState({ problemCount: 12 });
    const header = async (cols: number, ready: RegExp) => {
      r.ctx.ui.getState().resize(24, cols);
      const line = (await waitForContent(r.lastFrame, (f) => ready.test(f.split('\n')[0]!))).split('\n')[0]!;
      expect(line.length).toBeLessThanOrEqual(cols);
      return line;
    };
    // Data twelve minutes old, as when refreshes fail.
    await waitForContent(r.lastFrame, /demo-owner[^]*Regions\s+7[^]*Types\s+9/);
    r.ctx.session.setState({ lastRefresh: Date.now() - 12 * 60_000 });
    expect(await header(120, /demo-owner.*updated/)).toMatch(/^vmtui {2}demo-owner {2}http:\/\/127\.0\.0\.1:\d+\/v4 {2}\[READ-ONLY\] {2}⚠ 12 problem services \(! triage\) {2}updated 12m ago$/);
    expect(await header(80, /↻/)).toMatch(/^vmtui {2}demo-owner {2}127\.0\.0\.1:[\d/v]+…? {2}\[READ-ONLY\] {2}⚠ 12 problem \(!\) {2}↻ 12m ago$/);
    expect(await header(60, /^vmtui {2}demo-owner {2}\[/)).toMatch(/^vmtui {2}demo-owner {2}\[READ-ONLY\] {2}⚠ 12 problem \(!\) {2}↻ 12m ago$/);
  });

  it('shows the user lookup failing without breaking', async () => {
    const r = renderApp({ screens: coreScreens, svc, token: 'not-a-valid-token-000' });
    await waitForContent(r.lastFrame, /vmtui {2}\? \(The token was rejected/);
  });
});

describe('keys everywhere', () => {
  it('q quits; Ctrl-C quits even while typing', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, 'Regions');
    r.stdin.write('q');
    expect(r.quits()).toBe(1);
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:/m);
    r.stdin.write('q');
    await waitForContent(r.lastFrame, /^:q/m);
    expect(r.quits()).toBe(1);
    r.stdin.write('\x03');
    expect(r.quits()).toBe(2);
  });

  it(': completes with Tab, shows candidates, and jumps by name or alias', async () => {
    const r = renderApp({ svc, screens: testScreens });
    await waitForContent(r.lastFrame, 'Regions');
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:/m);
    await sendInputAndWait(r.stdin, 't', r.lastFrame, /^types {2}tags {2}tokens {2}type {2}tag/m);
    await sendInputAndWait(r.stdin, 'o', r.lastFrame, /^:to$/m);
    await sendInputAndWait(r.stdin, TAB, r.lastFrame, /^:tokens$/m);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /^home › tokens$/m);
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:$/m);
    r.stdin.write('dc');
    await waitForContent(r.lastFrame, /^:dc$/m);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /^home › tokens › regions$/m);
  });

  it('Esc after a : jump returns to the view the jump was made from, as it was; the breadcrumbs show the way', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    await jumpTo(r, 'dc', (f) => /^home › regions$/m.test(f) && /^› us-east/m.test(f));
    await sendInputAndWait(r.stdin, DOWN, r.lastFrame, /^› us-central/m);
    await jumpTo(r, 'types', /^home › regions › types$/m);
    // Back where the jump was made, on the same row: the next key acts on that list.
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, (f) => /^home › regions$/m.test(f) && /^› us-central/m.test(f));
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /^home$/m);
  });

  it(': with words after the name opens the list filtered by them; a view without a list says so', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:$/m);
    r.stdin.write('dc eu-');
    // The candidates follow the name only.
    await waitForContent(r.lastFrame, (f) => /^:dc eu-$/m.test(f) && /^dc\b/m.test(f));
    // Tab would complete the name; with a filter after it, the line stays as typed.
    await sendInputAndWait(r.stdin, TAB, r.lastFrame, /^:dc eu-$/m);
    const frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => /^home › regions$/m.test(f) && f.includes('2 of 7'));
    expect(frame).toMatch(/^\/eu- /m);
    expect(frame).not.toContain('us-east');

    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:$/m);
    r.stdin.write('home x');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Home has no list to filter; opened without "x"');
  });

  it('↑ and ↓ in the command line step through the commands that jumped', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    await jumpTo(r, 'dc eu-', /^home › regions$/m);
    await jumpTo(r, 'home', /^home$/m);
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:$/m);
    await sendInputAndWait(r.stdin, UP, r.lastFrame, /^:home$/m);
    await sendInputAndWait(r.stdin, UP, r.lastFrame, /^:dc eu-$/m);
    // Past the oldest it stays there; forward past the newest is an empty line.
    await sendInputAndWait(r.stdin, UP, r.lastFrame, /^:dc eu-$/m);
    await sendInputAndWait(r.stdin, DOWN, r.lastFrame, /^:home$/m);
    await sendInputAndWait(r.stdin, DOWN, r.lastFrame, /^:$/m);
    await sendInputAndWait(r.stdin, UP, r.lastFrame, /^:home$/m);
    await sendInputAndWait(r.stdin, UP, r.lastFrame, /^:dc eu-$/m);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => /^home › regions$/m.test(f) && f.includes('2 of 7'));
  });

  it('keys that arrive together are each handled by the view the previous one opened', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    r.stdin.write(':dc\r/eu-\r');
    await waitForContent(r.lastFrame, (f) => /^home › regions$/m.test(f) && /^\/eu-/m.test(f) && f.includes('2 of 7'));
  });

  it('Tab cycles through several candidates after their common prefix', async () => {
    const r = renderApp({ svc, screens: testScreens });
    await waitForContent(r.lastFrame, 'Regions');
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:/m);
    r.stdin.write('ty');
    await waitForContent(r.lastFrame, /^:ty$/m);
    await sendInputAndWait(r.stdin, TAB, r.lastFrame, /^:type$/m);
    await sendInputAndWait(r.stdin, TAB, r.lastFrame, /^:types$/m);
    await sendInputAndWait(r.stdin, TAB, r.lastFrame, /^:type$/m);
  });

  it('an unknown name says so; Esc closes the command line', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, 'Regions');
    r.stdin.write(':');
    await waitForContent(r.lastFrame, /^:/m);
    await sendInputAndWait(r.stdin, 'zzz', r.lastFrame, 'no matching area');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => r.ctx.session.getState().message?.text === 'No area "zzz"; Tab completes the names' && f.includes(':zzz'));
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'No area "zzz"');
  });

  it('? lists every key of the current view from the keymap; Esc closes it', async () => {
    // Tall enough for the whole help of a list: it scrolls on a smaller terminal.
    const r = renderApp({ screens: coreScreens, svc, rows: 32 });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    await jumpTo(r, 'regions', 'us-east');
    const help = await sendInputAndWait(r.stdin, '?', r.lastFrame, 'Regions\n');
    expect(help).toMatch(/^↑ k +Move up$/m);
    expect(help).toMatch(/^Enter +Open the selected item/m);
    expect(help).toMatch(/^\/ +Filter the list/m);
    // The sort letters come from the columns: C chooses the columns, so Country gets O and Capabilities A.
    expect(help).toMatch(/^⇧A-Z +Sort by a column/m);
    expect(help).toMatch(/^ {2}O +Sort by Country \(C is columns\)$/m);
    expect(help).toMatch(/^ {2}A +Sort by Capabilities \(C is columns\)$/m);
    const end = await sendInputAndWait(r.stdin, 'G', r.lastFrame, 'Everywhere');
    expect(end).toMatch(/^Y +Copy: ID, label/m);
    expect(end).toMatch(/^q \^C +Quit/m);
    // Regions cannot be created or deleted: no such keys offered.
    expect(help + end).not.toContain('Create a new item');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /^› us-east/m);
  });

  it('Esc goes back one level and does nothing at home', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, /Regions\s+7/);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /^home › regions$/m);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /^home$/m);
    r.stdin.write(ESC);
    await waitForContent(r.lastFrame, /^home$/m);
    expect(r.quits()).toBe(0);
  });
});
