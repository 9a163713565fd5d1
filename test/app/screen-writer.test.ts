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
