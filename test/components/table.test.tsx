import { describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import { Table } from '../../src/components/Table.js';
import type { Column } from '../../src/app/screen.js';
import { layoutColumns } from '../../src/components/table-layout.js';
import { fit } from '../../src/components/cells.js';

interface Row {
  id: number;
  label: string;
}

describe('Table', () => {
  it('renders only the visible rows of 100,000, formatting only those', () => {
    let formatted = 0;
    const columns: Column<Row>[] = [
      { key: 'id', title: 'ID', width: 8, align: 'right' },
      {
        key: 'label',
        title: 'Label',
        format: (r) => {
          formatted++;
          return r.label;
        },
      },
    ];
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, label: `row-${i}` }));
    const { lastFrame, rerender } = render(<Table columns={columns} rows={rows} selected={0} height={10} width={60} />);
    let lines = lastFrame()!.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^\s+ID Label/);
    expect(lines[1]).toContain('row-0');
    expect(lines[9]).toContain('row-8');
    // The 9 rows in view, and the first 100 once, for the column widths.
    expect(formatted).toBe(9 + 100);

    // Moving past the bottom scrolls by one; the offset is kept from render to render.
    rerender(<Table columns={columns} rows={rows} selected={9} height={10} width={60} />);
    lines = lastFrame()!.split('\n');
    expect(lines[1]).toContain('row-1');
    expect(lines[9]).toMatch(/› +9 row-9/);
    rerender(<Table columns={columns} rows={rows} selected={99_999} height={10} width={60} />);
    lines = lastFrame()!.split('\n');
    expect(lines[9]).toContain('row-99999');
    rerender(<Table columns={columns} rows={rows} selected={99_995} height={10} width={60} />);
    expect(lastFrame()!.split('\n')[9]).toContain('row-99999');
    // The rows scrolled into view only, never the 100,000.
    expect(formatted).toBeLessThan(140);
  });


  it('draws again only the rows the cursor leaves and enters, and every row when the minute turns (cells that say an age)', () => {
    let formatted = 0;
    const columns: Column<Row>[] = [{ key: 'label', title: 'Label', format: (r) => (formatted++, r.label) }];
    const rows = Array.from({ length: 1_000 }, (_, i) => ({ id: i, label: `row-${i}` }));
    const { lastFrame, rerender } = render(<Table columns={columns} rows={rows} selected={0} height={10} width={40} />);
    formatted = 0;
    rerender(<Table columns={columns} rows={rows} selected={1} height={10} width={40} />);
    expect(lastFrame()!.split('\n')[2]).toMatch(/› row-1/);
    expect(formatted).toBe(2);
    // A new array of the same records (a refresh that changed nothing) draws no row again: the widths' sample only.
    formatted = 0;
    const again = [...rows];
    rerender(<Table columns={columns} rows={again} selected={1} height={10} width={40} />);
    expect(formatted).toBe(100);
    formatted = 0;
    const now = Date.now();
    vi.useFakeTimers({ now: now + 60_000, toFake: ['Date'] });
    try {
      rerender(<Table columns={columns} rows={again} selected={1} height={10} width={40} />);
      expect(formatted).toBe(9);
    } finally {
      vi.useRealTimers();
    }
  });
  it('fits columns to the width and truncates with …', () => {
    const columns: Column<Row>[] = [
      { key: 'id', title: 'ID', width: 4 },
      { key: 'label', title: 'Label', flex: 1 },
    ];
    const { lastFrame } = render(<Table columns={columns} rows={[{ id: 1, label: 'a-very-long-label-that-cannot-fit' }]} selected={0} height={3} width={20} sortCol={1} sortDesc />);
    const lines = lastFrame()!.split('\n');
    expect(lines[0]).toBe('  ID   Label ▼');
    expect(lines[1]).toBe('› 1    a-very-long-…');
    expect(lines.every((l) => l.length <= 20)).toBe(true);
  });
});

describe('table layout', () => {
  it('gives fixed columns their width and shares the rest by flex', () => {
    const w = layoutColumns(
      [
        { key: 'a', title: 'A', width: 10 },
        { key: 'b', title: 'B', flex: 1 },
        { key: 'c', title: 'C', flex: 2 },
      ],
      42,
    );
    expect(w).toEqual([10, 10, 20]);
  });

  it('fits columns to their widest cell where that is less than their share, so a wide column is not cut', () => {
    const columns: Column<unknown>[] = [
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'type', title: 'Type', flex: 1 },
      { key: 'tags', title: 'Tags', flex: 1 },
      { key: 'created', title: 'Created', width: 10 },
    ];
    const sample = [
      { label: 'web-1', type: 'g1-gpu-rtx6000-2', tags: 'web, production, eu' },
      { label: 'db-primary', type: 'g6-nanode-1', tags: '' },
    ];
    // Shared by flex alone (no sample): label 20, type 10, tags 10; the type and tags would be cut.
    expect(layoutColumns(columns, 53)).toEqual([20, 10, 10, 10]);
    // Label needs 10, type 16, tags 19: each gets that, and the room to spare is shared by flex.
    expect(layoutColumns(columns, 59, sample)).toEqual([10, 16, 20, 10]);
    expect(layoutColumns(columns, 79, sample)).toEqual([20, 21, 25, 10]);
    // Too little room for all: the modest label keeps its 10, the others share the rest by flex.
    expect(layoutColumns(columns, 53, sample)).toEqual([10, 15, 15, 10]);
  });

  it('shrinks everything when the terminal is too narrow', () => {
    const w = layoutColumns(
      [
        { key: 'a', title: 'A', width: 30 },
        { key: 'b', title: 'B', width: 30 },
      ],
      31,
    );
    expect(w.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(30);
  });

  it('fit pads, aligns and truncates', () => {
    expect(fit('abc', 5)).toBe('abc  ');
    expect(fit('abc', 5, 'right')).toBe('  abc');
    expect(fit('abcdef', 4)).toBe('abc…');
  });
});

describe('identifier columns on a narrow terminal', () => {
  const columns: Column<unknown>[] = [
    { key: 'label', title: 'Label', flex: 3, identifier: true },
    { key: 'status', title: 'Status', flex: 1 },
    { key: 'type', title: 'Type', flex: 1, identifier: true },
    { key: 'tags', title: 'Tags', flex: 1 },
    { key: 'created', title: 'Created', width: 10 },
  ];
  const sample = [{ label: 'web-1', status: 'running', type: 'g6-standard-2', tags: 'web, production', created: '2024-02-05' }];

  it('stay whole; the others shorten, then the rightmost goes', () => {
    const wide = layoutColumns(columns, 80, sample);
    expect(wide[2]).toBeGreaterThanOrEqual('g6-standard-2'.length);
    const narrow = layoutColumns(columns, 34, sample);
    expect(narrow[0]).toBeGreaterThanOrEqual('web-1'.length);
    expect(narrow[2]).toBe('g6-standard-2'.length);
    // Created and Tags are left out before the identifiers are cut.
    expect(narrow[4]).toBe(0);
    expect(narrow.reduce((a, b) => a + b, 0) + narrow.filter((w) => w > 0).length - 1).toBeLessThanOrEqual(34);
  });
});
