import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { Column } from '../../src/app/screen.js';
import { visible } from '../../src/app/visible.js';
import { NARROW, columns, fit, wrapLine, wrapWords } from '../../src/components/cells.js';
import { DetailView } from '../../src/components/DetailView.js';
import { JsonView } from '../../src/components/JsonView.js';
import { Table } from '../../src/components/Table.js';
import { Text } from '../../src/components/Text.js';
import { MessageLine } from '../../src/app/MessageLine.js';
import { Header } from '../../src/app/Header.js';
import { CONTROLS, FORMATS, LONE_SURROGATES, SEQUENCES, hostileText, unsafeIn } from '../helpers/hostile.js';
import { renderWithApp } from '../helpers/ink.js';

const RUNS = { numRuns: 40 };

/** The characters of `line` from column `from` up to column `to`. */
function atColumns(line: string, from: number, to: number): string {
  let column = 0;
  let out = '';
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line)) {
    if (column >= from && column < to) out += segment;
    column += stringWidth(segment);
  }
  return out;
}
const noop = () => {};

describe('the gate (visible)', () => {
  it('shows ESC, BEL and DEL as control pictures, C1, bidi and invisible characters and lone surrogates as <U+…>', () => {
    expect(visible('x\x1b]0;T\x07y\x7f')).toBe('x␛]0;T␇y␡');
    expect(visible('a\u202eb\u200bc\ufeff')).toBe('a<U+202E>b<U+200B>c<U+FEFF>');
    expect(visible('\x9b2J')).toBe('<U+009B>2J');
    expect(visible('\ud800x\udc00')).toBe('<U+D800>x<U+DC00>');
    // Pairs, accents, combining marks and wide characters are text.
    expect(visible('😀 é e\u0301 漢')).toBe('😀 é e\u0301 漢');
    expect(visible('one\ntwo')).toBe('one␊two');
    expect(visible('one\ntwo\r', true)).toBe('one\ntwo␍');
  });

  it('leaves nothing a terminal obeys, is idempotent, and every form it makes is one column a character', () => {
    fc.assert(
      fc.property(hostileText(), (s) => {
        const shown = visible(s);
        expect(unsafeIn(shown)).toBeUndefined();
        expect(shown).not.toContain('\n');
        expect(visible(shown)).toBe(shown);
        expect(visible(s, true).split('\n').map((l) => visible(l)).join('\n')).toBe(visible(s, true));
      }),
      { numRuns: 300 },
    );
    for (const c of [...CONTROLS, ...FORMATS, ...LONE_SURROGATES]) expect(stringWidth(visible(c))).toBe(visible(c).length);
  });

  it('measures as string-width (and so Ink) does: every character counted narrow is one column, any text as wide as string-width says', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (NARROW.test(ch) && stringWidth(ch) !== 1) expect.fail(`U+${c.toString(16)} counted narrow, string-width says ${stringWidth(ch)}`);
    }
    fc.assert(
      fc.property(hostileText(), (s) => {
        const shown = visible(s);
        expect(columns(shown)).toBe(stringWidth(shown));
      }),
      { numRuns: 300 },
    );
  });

  it('fit, wrapLine and wrapWords cut text as it shows, by columns: exactly the width asked (wide characters and combining marks too), nothing raw', () => {
    fc.assert(
      fc.property(hostileText(), fc.integer({ min: 2, max: 60 }), (s, w) => {
        const cell = fit(s, w);
        expect(unsafeIn(cell)).toBeUndefined();
        expect(stringWidth(cell)).toBe(w);
        for (const line of [...wrapLine(s, w), ...wrapWords(s, w)]) {
          expect(unsafeIn(line)).toBeUndefined();
          expect(stringWidth(line)).toBeLessThanOrEqual(w);
        }
      }),
      RUNS,
    );
  });
});

describe('every string drawn passes the gate', () => {
  it('the app draws strings only with its own <Text>: no module but it takes Text (or Transform, Static) from Ink', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(e.name) && path !== join('src', 'components', 'Text.tsx')) {
          const source = readFileSync(path, 'utf8');
          for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'ink'/g)) if (/\b(Text|Transform|Static)\b/.test(m[1]!)) offenders.push(path);
          if (/from\s*'ink'/.test(source) && /\bink\.Text\b|import \* as/.test(source)) offenders.push(path);
        }
      }
    };
    walk('src');
    expect(offenders).toEqual([]);
  });

  it("the app's <Text> gates its strings, nested ones and lists of them too; a line feed still breaks the line", () => {
    const { lastFrame } = render(
      <Text>
        {'a\x1b]0;T\x07'}
        {['b\u202e', 'c']}
        <Text bold>{'d\x9b2J'}</Text>
        {'\nnext'}
      </Text>,
    );
    expect(lastFrame()).toBe('a␛]0;T␇b<U+202E>cd<U+009B>2J\nnext');
  });

  it('a table of hostile cells: nothing raw, and every cell where its header says (no column moves)', () => {
    interface Row {
      id: number;
      label: string;
      note: string;
    }
    const columns: Column<Row>[] = [
      { key: 'id', title: 'ID', width: 4, align: 'right' },
      { key: 'label', title: 'Label' },
      { key: 'note', title: 'Note' },
      { key: 'label', title: 'Tail', width: 6 },
    ];
    fc.assert(
      fc.property(fc.array(fc.record({ label: hostileText(), note: hostileText() }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 40, max: 100 }), (cells, width) => {
        const rows = cells.map((c, id) => ({ id, ...c }));
        const { lastFrame, unmount } = render(<Table columns={columns} rows={rows} selected={0} height={rows.length + 1} width={width} />);
        const [header, ...lines] = lastFrame()!.split('\n');
        unmount();
        expect(unsafeIn(lastFrame()!)).toBeUndefined();
        expect(lines).toHaveLength(rows.length);
        const [label, note, tail] = ['Label', 'Note', 'Tail'].map((t) => header!.indexOf(t));
        lines.forEach((line, i) => {
          // The titles are ASCII: their index is their column. A row is read by columns.
          const padded = line + ' '.repeat(width - stringWidth(line));
          expect(atColumns(padded, label!, note! - 1)).toBe(fit(rows[i]!.label, note! - 1 - label!));
          expect(atColumns(padded, note!, tail! - 1)).toBe(fit(rows[i]!.note, tail! - 1 - note!));
          expect(atColumns(padded, tail!, tail! + 6)).toBe(fit(rows[i]!.label, 6));
          expect(stringWidth(line)).toBeLessThanOrEqual(width);
        });
      }),
      RUNS,
    );
  });

  it('a detail, the JSON view, the message line and the header of hostile text: nothing raw, no line wider than the screen', async () => {
    const width = 80;
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), async (a, b) => {
        const record = { id: 1, label: a, description: b, [b]: a, tags: [a, b], nested: { [a]: b } };
        // The screen's box is as wide as the terminal: Ink cuts a line there, and nothing may need cutting before.
        const screen = (node: ReactNode) => <Box width={width}>{node}</Box>;
        const views = [
          renderWithApp(screen(<DetailView title={a} record={record} width={width} height={20} onClose={noop} />)),
          renderWithApp(screen(<JsonView title={b} value={record} width={width} height={20} onClose={noop} />)),
        ];
        const line = renderWithApp(screen(<MessageLine width={width} />));
        line.ctx.session.getState().notify(a, 'error');
        const header = renderWithApp(screen(<Header width={width} />), { session: { endpoint: `https://${a}/v4`, profileName: a } });
        header.ctx.session.setState({ user: b });
        await new Promise((r) => setTimeout(r, 0));
        for (const v of [...views, line, header]) {
          const frame = v.lastFrame();
          v.unmount();
          expect(unsafeIn(frame)).toBeUndefined();
          for (const l of frame.split('\n')) expect(stringWidth(l)).toBeLessThanOrEqual(width);
        }
      }),
      { numRuns: 15 },
    );
  });
});
