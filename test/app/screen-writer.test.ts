import { EventEmitter } from 'node:events';
import xterm from '@xterm/headless';
import fc from 'fast-check';
import { createElement as h, type ReactNode } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { compactLine, createScreenWriter } from '../../src/app/screen-writer.js';

type Ink = typeof import('ink');
let ink: Ink;

beforeAll(async () => {
  // Ink draws nothing when it believes it runs in CI, and decides so as it loads.
  process.env.CI = 'false';
  ink = await import('ink');
});

/** A terminal of `cols`×`rows` (xterm, headless) behind a stdout as Ink sees a TTY's, with the bytes written to it. */
function terminal(cols: number, rows: number) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, convertEol: true });
  let written = '';
  let pending = Promise.resolve();
  const stdout = Object.assign(new EventEmitter(), {
    columns: cols,
    rows,
    isTTY: true,
    write(data: string, callback?: () => void) {
      written += data;
      pending = pending.then(() => new Promise<void>((resolve) => term.write(data, resolve)));
      if (callback) void pending.then(callback);
      return true;
    },
  });
  // As src/app/terminal.ts leaves it: the alternate screen, autowrap off.
  stdout.write('\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?7l');
  const screen = async () => {
    await pending;
    const buf = term.buffer.active;
    return Array.from({ length: term.rows }, (_, y) => buf.getLine(y)?.translateToString(true).trimEnd() ?? '').join('\n');
  };
  const resize = (c: number, r: number) => {
    Object.assign(stdout, { columns: c, rows: r });
    term.resize(c, r);
    stdout.emit('resize');
  };
  return { term, stdout: stdout as unknown as NodeJS.WriteStream, screen, resize, bytes: () => Buffer.byteLength(written) };
}

const settle = () => new Promise((r) => setTimeout(r, 40));

/** The frame as the screen should show it: its lines, then blank rows to the bottom. */
const shown = (lines: string[], rows: number) => [...lines, ...Array<string>(rows - lines.length).fill('')].join('\n');

const Frame = ({ lines }: { lines: string[] }): ReactNode =>
  h(
    ink.Box,
    { flexDirection: 'column' },
    lines.map((line, i) => h(ink.Text, { key: i, inverse: line.startsWith('›') }, line)),
  );

describe('the screen writer behind Ink', () => {
  it('keeps the screen equal to the frame through moves, overlays, shorter and taller frames and resizes, sending only changed lines', async () => {
    const t = terminal(40, 12);
    const writer = createScreenWriter(t.stdout);
    t.stdout.on('resize', writer.invalidate);
    const list = (at: number) => Array.from({ length: 11 }, (_, i) => `${i === at ? '›' : ' '} row ${i}   status ${i % 3}`);
    const app = ink.render(h(Frame, { lines: list(0) }), { stdout: writer.stdout, patchConsole: false, exitOnCtrlC: false });
    await settle();
    expect(await t.screen()).toBe(shown(list(0), 12));

    for (const at of [1, 2, 3, 2]) {
      const before = t.bytes();
      app.rerender(h(Frame, { lines: list(at) }));
      await settle();
      expect(await t.screen()).toBe(shown(list(at), 12));
      // Two lines, not eleven: each well under the width.
      expect(t.bytes() - before).toBeLessThan(2 * 40 + 60);
    }

    // An overlay over the middle, then a shorter frame (its old rows are erased), then the list again.
    const overlay = list(2).map((line, i) => (i >= 3 && i <= 6 ? `│ help ${i}` : line));
    app.rerender(h(Frame, { lines: overlay }));
    await settle();
    expect(await t.screen()).toBe(shown(overlay, 12));
    app.rerender(h(Frame, { lines: ['loading…'] }));
    await settle();
    expect(await t.screen()).toBe(shown(['loading…'], 12));
    app.rerender(h(Frame, { lines: list(2) }));
    await settle();
    expect(await t.screen()).toBe(shown(list(2), 12));

    // Narrower and shorter, then wider: the frame is drawn whole after each, whatever the terminal did to what it showed.
    const small = list(4).slice(0, 7).map((l) => l.slice(0, 12));
    t.resize(20, 8);
    app.rerender(h(Frame, { lines: small }));
    await settle();
    expect(await t.screen()).toBe(shown(small, 8));
    t.resize(50, 14);
    app.rerender(h(Frame, { lines: list(5) }));
    await settle();
    expect(await t.screen()).toBe(shown(list(5), 14));
    app.unmount();
    writer.dispose();
  });

  it('passes writes of escape sequences alone through, with their callbacks', async () => {
    const t = terminal(20, 5);
    const writer = createScreenWriter(t.stdout);
    const done = new Promise<void>((resolve) => writer.stdout.write('\x1b]52;c;aGk=\x07', () => resolve()));
    await done;
    writer.stdout.write('\x1b[?25h');
    expect(await t.screen()).toBe(shown([], 5));
    writer.dispose();
  });
});

describe('a scrolled list, scrolled in the terminal', () => {
  const WIDTH = 72;
  const ROWS = 14;
  const item = (i: number, status = i % 3 ? 'running' : 'offline') => `  web-${String(i).padStart(4, '0')}        \x1b[32m${status}\x1b[39m        us-east        g6-standard-2`;
  const selectedItem = (i: number) => `\x1b[7m› web-${String(i).padStart(4, '0')}        running        us-east        g6-standard-2\x1b[27m`;
  /** A k9s-like frame: header and column titles, a band of `band` items from `first` with the selection at `at`, a footer. */
  const view = (first: number, at: number, band = 10, edit?: (i: number) => string | undefined) => [
    'vmtui  demo  http://127.0.0.1/v4',
    `instances  ${at + 1} of 200`,
    '  Label            Status         Region         Type',
    ...Array.from({ length: band }, (_, k) => (first + k === at ? selectedItem(at) : (edit?.(first + k) ?? item(first + k)))),
    '? help  / filter  : jump',
  ];
  const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');
  /** Writes each frame as Ink does (whole, after erasing the previous one) and returns the bytes sent for each. */
  const steps = async (t: ReturnType<typeof terminal>, writer: ReturnType<typeof createScreenWriter>, frames: string[][]) => {
    const sent: number[] = [];
    for (const frame of frames) {
      const before = t.bytes();
      writer.stdout.write(`\x1b[2K\x1b[1A\x1b[2K\x1b[G${frame.join('\n')}\n`);
      expect(await t.screen()).toBe(shown(frame.map(plain), t.term.rows));
      sent.push(t.bytes() - before);
    }
    return sent;
  };
  // Drawing a whole item line costs about 70 bytes: a scrolled step sends two of them (the new line, the selection's) and the scroll, not ten.
  const STEP = 3 * 70 + 30;

  it('sends the line that came into view and the selection’s when a list scrolls down or up by a row, and the screen is the frame', async () => {
    const t = terminal(WIDTH, ROWS);
    const writer = createScreenWriter(t.stdout);
    await steps(t, writer, [view(0, 9)]);
    // Down at the bottom row: the band moves up; then Up at the top row: it moves down.
    const down = await steps(t, writer, [view(1, 10), view(2, 11), view(3, 12)]);
    const up = await steps(t, writer, [view(3, 4), view(3, 3), view(2, 2), view(1, 1)]);
    for (const bytes of [...down, up[2]!, up[3]!]) expect(bytes).toBeLessThan(STEP);
    writer.dispose();
  });

  it('draws a changed line inside the scrolled band and a changed header, and scrolls by several rows', async () => {
    const t = terminal(WIDTH, ROWS);
    const writer = createScreenWriter(t.stdout);
    await steps(t, writer, [view(0, 9)]);
    // A row's status changed as the list scrolled: the band still scrolls, the changed row is drawn too.
    const [changed] = await steps(t, writer, [view(1, 10, 10, (i) => (i === 5 ? item(5, 'stopped') : undefined))]);
    expect(changed).toBeLessThan(STEP + 70);
    // Three rows at once (a half-page move), down then up.
    const [three, back] = await steps(t, writer, [view(4, 13), view(1, 1)]);
    expect(three).toBeLessThan(STEP + 3 * 70);
    expect(back).toBeLessThan(STEP + 3 * 70);
    // A page: nothing of the band stays, each line is drawn.
    await steps(t, writer, [view(11, 11), view(1, 1)]);
    writer.dispose();
  });

  it('draws the frame whole after a resize, then scrolls at the new size', async () => {
    const t = terminal(WIDTH, ROWS);
    const writer = createScreenWriter(t.stdout);
    t.stdout.on('resize', writer.invalidate);
    await steps(t, writer, [view(0, 9), view(1, 10)]);
    t.resize(WIDTH, 10);
    await steps(t, writer, [view(1, 6, 6)]);
    const [step] = await steps(t, writer, [view(2, 7, 6)]);
    expect(step).toBeLessThan(STEP);
    t.resize(WIDTH + 10, 18);
    await steps(t, writer, [view(2, 7, 14), view(3, 16, 14), view(4, 17, 14), view(3, 3, 14)]);
    writer.dispose();
  });

  it('keeps the screen equal to the frame through any moves, edits, overlays and shorter or taller frames', async () => {
    const t = terminal(WIDTH, ROWS);
    const writer = createScreenWriter(t.stdout);
    // Each frame's list moved a few rows from the last one's, as keys move it, or jumped (g, G, a filter).
    const frame = fc.record({
      move: fc.oneof(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -30, max: 30 })),
      at: fc.integer({ min: 0, max: 9 }),
      band: fc.integer({ min: 0, max: 10 }),
      edited: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
      overlay: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 12 }), async (frames) => {
        writer.invalidate();
        let first = 0;
        await steps(
          t,
          writer,
          frames.map(({ move, at, band, edited, overlay }) => {
            first = Math.max(0, first + move);
            const lines = view(first, first + at, band, (i) => (i === edited ? item(i, 'deleting') : undefined));
            return overlay ? lines.map((line, row) => (row >= 4 && row <= 6 ? `   │ confirm ${row} │` : line)) : lines;
          }),
        );
      }),
      { numRuns: 150 },
    );
    writer.dispose();
  });
});

describe('a changed line, blank runs stepped over', () => {
  const SGR = ['0', '1', '2', '22', '7', '27', '4', '24', '9', '29', '32', '39', '90', '44', '49', '101', '38;5;208', '48;5;17', '38;2;1;2;3', '48;2;9;9;9', ''];
  const part = fc.oneof(
    fc.constantFrom(...SGR).map((p) => `\x1b[${p}m`),
    fc.integer({ min: 1, max: 12 }).map((n) => ' '.repeat(n)),
    fc.constantFrom('web-01', 'running', '›', '─', 'x'),
  );

  /** Each cell of row 0 after writing `line` on it, as it looks: its character and attributes; a blank cell (not inverse) shows no foreground, bold or dim. */
  async function cells(line: string) {
    const term = new xterm.Terminal({ cols: 100, rows: 2, allowProposedApi: true });
    await new Promise<void>((r) => term.write(`\x1b[?7l\x1b[1H\x1b[K${line}\x1b[0m`, r));
    const row = term.buffer.active.getLine(0)!;
    return Array.from({ length: 100 }, (_, x) => {
      const c = row.getCell(x)!;
      const blank = c.getChars().trim() === '' && !c.isInverse();
      const background = [c.getBgColor(), c.getBgColorMode(), c.isInverse(), c.isUnderline(), c.isStrikethrough()];
      return (blank ? [' ', ...background] : [c.getChars(), c.getFgColor(), c.getFgColorMode(), c.isBold(), c.isDim(), ...background]).join(',');
    });
  }

  it('looks the same on screen as the line itself, cell by cell', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 30 }), async (parts) => {
        const line = parts.join('');
        expect(await cells(compactLine(line))).toEqual(await cells(line));
      }),
      { numRuns: 300 },
    );
  });

  it('steps over the runs between a table row’s columns, and draws those under inverse or a background', () => {
    expect(compactLine('  web-000000                \x1b[32mrunning           \x1b[39mus-east')).toBe('  web-000000\x1b[16C\x1b[32mrunning\x1b[11C\x1b[39mus-east');
    expect(compactLine('\x1b[7m› web-000001                offline\x1b[27m')).toBe('\x1b[7m› web-000001                offline\x1b[27m');
    expect(compactLine('\x1b[44mab      cd\x1b[49m      ef')).toBe('\x1b[44mab      cd\x1b[49m\x1b[6Cef');
    expect(compactLine('\x1b]8;;https://x\x07a      b\x1b]8;;\x07      c')).toBe('\x1b]8;;https://x\x07a      b\x1b]8;;\x07\x1b[6Cc');
  });
});
