import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Column } from '../../src/app/screen.js';
import { csvCell, exportError, exportList, toCsv, toJson } from '../../src/app/export.js';
import { FLAW } from '../../src/model/response.js';

interface Row {
  id: number;
  label: string;
  size: number;
}
const columns: Column<Row>[] = [
  { key: 'label', title: 'Label' },
  { key: 'size', title: 'Size', format: (r) => `${r.size} MB` },
];
const folder = () => mkdtempSync(join(tmpdir(), 'vmtui-export-'));

describe('CSV cells', () => {
  it('quotes as RFC 4180 says: commas, quotes (doubled), line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('')).toBe('');
  });

  it('keeps a cell a spreadsheet would run as a formula as text', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes the titles, then each row as shown, with CRLF line ends', () => {
    expect(toCsv(columns, [{ id: 1, label: 'web, 1', size: 10 }])).toBe('Label,Size\r\n"web, 1",10 MB\r\n');
  });

  it('writes the records as the API sent them; an unreadable one as it came', () => {
    const flawed = { [FLAW]: { reason: 'bad', key: 'x', raw: { id: 'x', junk: true } } };
    expect(JSON.parse(toJson([{ id: 1, label: 'a', size: 1 }, flawed]))).toEqual([{ id: 1, label: 'a', size: 1 }, { id: 'x', junk: true }]);
  });
});

describe('export files', () => {
  const now = new Date(2026, 10, 25, 9, 5, 7);

  it('names them <area>-<yyyymmdd-hhmmss>, readable by the user only, and never writes over a file', async () => {
    const dir = folder();
    const rows = [{ id: 1, label: 'a', size: 1 }];
    const first = await exportList({ dir, area: 'instances', columns, rows, now });
    expect(first).toEqual({ csv: join(dir, 'instances-20261125-090507.csv'), json: join(dir, 'instances-20261125-090507.json') });
    expect(statSync(first.csv).mode & 0o777).toBe(0o600);
    const second = await exportList({ dir, area: 'instances', columns, rows, now });
    expect(second.csv).toBe(join(dir, 'instances-20261125-090507-2.csv'));
    // A JSON file alone in the way moves both on: the two files of an export share a name.
    writeFileSync(join(dir, 'instances-20261125-090507-3.json'), 'mine');
    const third = await exportList({ dir, area: 'instances', columns, rows, now });
    expect(third.csv).toBe(join(dir, 'instances-20261125-090507-4.csv'));
    expect(readFileSync(join(dir, 'instances-20261125-090507-3.json'), 'utf8')).toBe('mine');
    expect(readdirSync(dir)).not.toContain('instances-20261125-090507-3.csv');
    expect(readFileSync(first.csv, 'utf8')).toBe('Label,Size\r\na,1 MB\r\n');
  });

  it('says which folder and why when it cannot write', async () => {
    const missing = join(folder(), 'nope');
    const err = await exportList({ dir: missing, area: 'x', columns, rows: [], now }).catch((e: unknown) => e);
    expect(exportError(missing, err)).toBe(`Cannot export: the folder ${missing} does not exist`);
    const file = join(folder(), 'file');
    writeFileSync(file, '');
    const notDir = await exportList({ dir: file, area: 'x', columns, rows: [], now }).catch((e: unknown) => e);
    expect(exportError(file, notDir)).toBe(`Cannot export: ${file} is not a folder`);
  });
});
