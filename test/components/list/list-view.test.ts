import { describe, expect, it } from 'vitest';
import type { Column } from '../../../src/app/screen.js';
import { createDeriver } from '../../../src/components/list/list-view.js';
import { ascendingOrder, compareCells, plainKey } from '../../../src/components/list/sort-order.js';

type Row = { id: number; label: string; size: number };

/** Columns that count how often each cell is worked out: a sort's cost is its cells. */
function counted() {
  const calls = { label: 0, size: 0 };
  const columns: Column<Row>[] = [
    { key: 'label', title: 'Label', format: (r) => (calls.label++, r.label) },
    { key: 'size', title: 'Size', format: (r) => (calls.size++, String(r.size)) },
  ];
  return { calls, columns };
}

const rows: Row[] = [
  { id: 1, label: 'web-10', size: 3 },
  { id: 2, label: 'Web-9', size: 1 },
  { id: 3, label: 'db-2', size: 3 },
  { id: 4, label: 'web-9', size: 2 },
  { id: 5, label: 'cache', size: 1 },
];
const labels = (rs: readonly Row[]) => rs.map((r) => r.label);
const ids = (rs: readonly Row[]) => rs.map((r) => r.id);

describe('a list sorted and filtered', () => {
  it('sorts text as read (digit runs by value, case aside, ties in list order), numbers by value; descending is ascending reversed', () => {
    const { columns } = counted();
    const derive = createDeriver(columns, (r) => String(r.id));
    expect(labels(derive(rows, 0, false, '').rows)).toEqual(['cache', 'db-2', 'Web-9', 'web-9', 'web-10']);
    expect(labels(derive(rows, 0, true, '').rows)).toEqual(['web-10', 'web-9', 'Web-9', 'db-2', 'cache']);
    expect(ids(derive(rows, 1, false, '').rows)).toEqual([2, 5, 4, 1, 3]);
    expect(ids(derive(rows, 1, true, '').rows)).toEqual([3, 1, 4, 5, 2]);
  });

  it('sorts a column once per list: the other direction, the sort key again and a filter over it work out no cell of that column again', () => {
    const { calls, columns } = counted();
    const derive = createDeriver(columns, (r) => String(r.id));
    derive(rows, 1, false, '');
    expect(calls.size).toBe(rows.length);
    derive(rows, 1, true, '');
    derive(rows, 1, false, '');
    expect(calls.size).toBe(rows.length);
    // The filter reads every column's text once (its haystack); the sort's keys are not made again.
    expect(labels(derive(rows, 1, true, 'web').rows)).toEqual(['web-10', 'web-9', 'Web-9']);
    expect(labels(derive(rows, 1, true, 'web-').rows)).toEqual(['web-10', 'web-9', 'Web-9']);
    expect(calls.size).toBe(rows.length * 2);
    // New rows (a refresh) are sorted afresh.
    derive([...rows], 1, false, '');
    expect(calls.size).toBe(rows.length * 3);
  });

  it('finds a row by key in each order from one index of the list\'s keys: a sort key pressed again keys no row', () => {
    const { columns } = counted();
    let keyed = 0;
    const derive = createDeriver(columns, (r) => (keyed++, String(r.id)));
    const asc = derive(rows, 0, false, '');
    expect(asc.indexOf('4')).toBe(3);
    expect(keyed).toBe(rows.length);
    const desc = derive(rows, 0, true, '');
    expect([desc.indexOf('4'), desc.indexOf('1'), desc.indexOf('99')]).toEqual([1, 0, -1]);
    expect(derive(rows, 0, false, '').indexOf('1')).toBe(4);
    expect(derive(rows, null, false, '').indexOf('3')).toBe(2);
    expect(keyed).toBe(rows.length);
    // A filter hides rows: the shown ones are indexed.
    expect(derive(rows, 0, true, 'web').indexOf('2')).toBe(2);
  });
});

describe('the sort order', () => {
  it('plain keys order printable ASCII text exactly as the collator does', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // Every printable character, digits twice as often (runs, leading zeros).
    const alphabet = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') + '0123456789000';
    const text = () => Array.from({ length: Math.floor(random() * 7) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const wrong: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      const [a, b] = [text(), text()];
      const [ka, kb] = [plainKey(a)!, plainKey(b)!];
      if (Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0) !== Math.sign(compareCells(a, b))) wrong.push(`${JSON.stringify(a)} ${JSON.stringify(b)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('leaves other text, and text beside numbers, to the collator', () => {
    expect(plainKey('café')).toBeUndefined();
    expect(plainKey('tab\there')).toBeUndefined();
    expect(plainKey('1'.repeat(41))).toBeUndefined();
    expect(ascendingOrder(['éclair', 'eclairs', 'Eclair'])).toEqual([0, 2, 1]);
    expect(ascendingOrder([10, 'x', 9, '1'])).toEqual([3, 2, 0, 1]);
    expect(ascendingOrder([2.5, -1, 2.25])).toEqual([1, 2, 0]);
  });
});
