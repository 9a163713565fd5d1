import { open, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Column } from './screen.js';
import { cellText } from '../components/table-layout.js';
import { flawOf } from '../model/response.js';

/**
 * A cell as RFC 4180 writes it. A cell a spreadsheet would take for a formula
 * (= + - @, or a tab or carriage return it trims first) gets a leading
 * apostrophe: an exported label such as `=HYPERLINK(…)` stays text.
 */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The rows as the list shows them: its column titles, then each row's cells as text; CRLF line ends, as RFC 4180 says. */
export function toCsv<R>(columns: readonly Column<R>[], rows: readonly R[]): string {
  const line = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;
  return line(columns.map((c) => c.title)) + rows.map((r) => line(columns.map((c) => cellText(c, r)))).join('');
}

const asSent = (row: unknown) => {
  const flaw = flawOf(row);
  return flaw ? (flaw.raw ?? null) : row;
};

/** The records as the API returned them; for one the app could not read, what the server sent. */
export const toJson = (rows: readonly unknown[]): string => `${JSON.stringify(rows.map(asSent), null, 2)}\n`;


const pad = (n: number) => String(n).padStart(2, '0');
/** yyyymmdd-hhmmss in local time: the names sort by when they were made. */
export const stamp = (d: Date) => `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;

export interface ExportRequest<R> {
  /** The folder; relative to the working folder. */
  dir: string;
  /** The area's name, the start of the file names. */
  area: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  now?: Date;
}

/**
 * Writes `<area>-<stamp>.csv` and `.json` side by side, never over a file
 * that exists (a second export in the same second gets `-2`, …). The files
 * are readable by the user only: a list may hold what others should not read.
 */
export async function exportList<R>({ dir, area, columns, rows, now = new Date() }: ExportRequest<R>): Promise<{ csv: string; json: string }> {
  const base = join(resolve(dir), `${area.replace(/[^\w.-]+/g, '_')}-${stamp(now)}`);
  const csv = toCsv(columns, rows);
  const json = toJson(rows);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!(await create(`${name}.csv`, csv))) continue;
    try {
      if (await create(`${name}.json`, json)) return { csv: `${name}.csv`, json: `${name}.json` };
    } catch (err) {
      await unlink(`${name}.csv`).catch(() => {});
      throw err;
    }
    await unlink(`${name}.csv`);
  }
}

/** Writes a new file; false when one of that name exists. */
async function create(path: string, text: string): Promise<boolean> {
  let file;
  try {
    file = await open(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await file.writeFile(text);
  } catch (err) {
    // No half file left behind (a full disk).
    await file.close();
    await unlink(path).catch(() => {});
    throw err;
  }
  await file.close();
  return true;
}

/** An export's failure in words: which folder, and what the system said. */
export function exportError(dir: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const where = resolve(dir);
  if (e.code === 'ENOENT') return `Cannot export: the folder ${where} does not exist`;
  if (e.code === 'EACCES' || e.code === 'EPERM') return `Cannot export: no permission to write in ${where}`;
  if (e.code === 'ENOTDIR') return `Cannot export: ${where} is not a folder`;
  if (e.code === 'ENOSPC') return `Cannot export: the disk holding ${where} is full`;
  return `Cannot export to ${where}: ${e.message ?? String(err)}`;
}
