import { describe, expect, it, vi } from 'vitest';
import { summarize, utcTime } from '../../../src/components/braille-chart.js';
import { bitsPerSecond, compact, percent, perSecond } from '../../../src/screens/managed/units.js';
import { ENTER, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { control, crumbs, openArea, demoAccount, warmUp } from './harness.js';

// Outside tmux, whatever terminal runs the tests: the copy is the OSC 52 sequence itself.
vi.stubEnv('TMUX', '');

const svc = await demoAccount();

const SERIES = [
  { name: 'cpu', title: 'cpu (%)', format: percent },
  { name: 'disk', title: 'disk (blocks/s)', format: perSecond },
  { name: 'net_in', title: 'net_in (bits/s)', format: bitsPerSecond },
  { name: 'net_out', title: 'net_out (bits/s)', format: bitsPerSecond },
  { name: 'swap', title: 'swap (blocks/s)', format: compact },
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What each chart's title line must say, from the service's own numbers. */
async function expectedTitles() {
  const { data } = (await call(svc, 'GET', '/managed/stats')).body as { data: Record<string, { x: number; y: number }[]> };
  return SERIES.map(({ name, title, format }) => {
    const points = data[name]!.map((p) => ({ t: p.x, v: p.y }));
    const s = summarize(points)!;
    // Two spaces between the parts, or one where the column is too narrow for the values.
    const line = new RegExp(`${escape(title)} {1,2}current ${escape(format(s.current))} {1,2}min ${escape(format(s.min))} {1,2}max ${escape(format(s.max))}`);
    return { title, line, last: utcTime(points.at(-1)!.t), first: utcTime(points[0]!.t) };
  });
}

/** The dashboard: `:managed` opens it, open issues or not (triage is `:issues`, `!`, or Enter here). */
async function openDashboard(size: { rows: number; cols: number }) {
  const r = await openArea(svc, 'managed', /current .* max /, size);
  expect(crumbs(r.lastFrame())).toBe('home › managed');
  return r;
}

describe('the managed dashboard', () => {
  it('shows the status counts and five charts, each with current, min, max and a time axis', async () => {
    const r = await openDashboard({ rows: 50, cols: 120 });
    const titles = await expectedTitles();
    const frame = await waitForContent(r.lastFrame, (f) => titles.every((t) => t.line.test(f)));
    expect(crumbs(frame)).toBe('home › managed');
    expect(frame).toMatch(/^Services +● 5 ok +◌ 0 pending +✗ 2 problem +○ 1 disabled +\(8 in all; :services\)/m);
    expect(frame).toMatch(/^⚠ 2 open issues, newest 4m ago: Enter opens triage/m);
    const lines = frame.split('\n');
    for (const t of titles) {
      const at = lines.findIndex((l) => t.line.test(l));
      // Below the title: the plot (braille), the axis, then the times of the first and last points.
      const chart = lines.slice(at + 1, at + 16).join('\n');
      expect(chart).toMatch(/┤[\u2800-\u28ff]+/);
      expect(chart).toMatch(/└─+/);
      expect(chart).toMatch(new RegExp(`${t.first} .* ${t.last}`));
    }
    // Two charts side by side at this width.
    expect(lines.some((l) => titles[0]!.line.test(l) && l.includes(titles[1]!.title))).toBe(true);
  });

  it('fits 80×24 by scrolling between the charts, down to the managed SSH key, which Y copies', async () => {
    const r = await openDashboard({ rows: 24, cols: 80 });
    const titles = await expectedTitles();
    let frame = await waitForContent(r.lastFrame, titles[0]!.line);
    expect(frame.split('\n').every((l) => l.length <= 80)).toBe(true);
    expect(frame).toContain('j/k scroll');
    expect(frame).not.toContain(titles[4]!.title);
    const key = (await call(svc, 'GET', '/managed/credentials/sshkey')).body.ssh_key as string;
    for (let i = 0; i < 5; i++) r.stdin.write('j');
    frame = await waitForContent(r.lastFrame, (f) => f.includes('Managed SSH key') && titles[4]!.line.test(f));
    const keyLines = frame.split('\n');
    const from = keyLines.findIndex((l) => l.startsWith('ssh-rsa '));
    // The whole key, its lines nothing but the key: select and paste gives it back.
    expect(keyLines.slice(from).join('').slice(0, key.length)).toBe(key);

    r.stdin.write('Y');
    await waitForContent(r.lastFrame, 'Copied the managed SSH key (OSC 52)');
    expect(r.frames).toContain(`\x1b]52;c;${Buffer.from(key).toString('base64')}\x07`);
    r.stdin.write('g');
    await waitForContent(r.lastFrame, titles[0]!.line);
  });

  it('Enter opens triage; without open issues it says so', async () => {
    const r = await openDashboard({ rows: 30, cols: 100 });
    const frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => crumbs(f) === 'home › managed › triage');
    expect(frame).toContain('2 open issues · 2 problem services');

    const calm = await startTestService({ seed: 'demo' });
    try {
      await warmUp(calm);
      for (const id of [1, 2]) await control(calm, `/managed/issues/${id}/resolve`);
      const c = await openArea(calm, 'managed', '✓ no open issues');
      expect(crumbs(c.lastFrame())).toBe('home › managed');
      await waitForContent(c.lastFrame, /● 7 ok +◌ 0 pending +✗ 0 problem +○ 1 disabled/);
    } finally {
      await calm.close();
    }
  });
});
