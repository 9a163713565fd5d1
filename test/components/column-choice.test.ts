import { describe, expect, it } from 'vitest';
import type { Column } from '../../src/app/screen.js';
import { chosenColumns, offeredColumns } from '../../src/components/list/column-choice.js';
import { cellText } from '../../src/components/table-layout.js';

const own: Column<any>[] = [
  { key: 'label', title: 'Label', flex: 2 },
  { key: 'status', title: 'Status', width: 9 },
];

describe('columns of one’s choosing', () => {
  it('offers the list’s own columns, then every other field of the rows by path, a later server’s new ones too', () => {
    const rows = [{ id: 1, label: 'a', status: 'running', specs: { memory: 1024, disk: 2 }, tags: ['x'] }, { id: 2, label: 'b', status: 'offline', brand_new: true }];
    expect(offeredColumns(own, rows).map((c) => c.key)).toEqual(['label', 'status', 'brand_new', 'id', 'specs.disk', 'specs.memory', 'tags']);
  });

  it('shows the chosen fields in their order and widths; a field no row has yet is still a column, and __proto__ reads nothing', () => {
    const cols = chosenColumns(own, [{ key: 'specs.memory', width: 7 }, { key: 'label' }, { key: '__proto__' }, { key: 'later' }]);
    expect(cols.map((c) => [c.key, c.title, c.width])).toEqual([['specs.memory', 'specs.memory', 7], ['label', 'Label', undefined], ['__proto__', '__proto__', undefined], ['later', 'later', undefined]]);
    const row = { label: 'web', specs: { memory: 4096 } };
    expect(cols.map((c) => cellText(c, row))).toEqual(['4096', 'web', '', '']);
  });
});
