import { basename } from 'node:path';
import { exportError, exportList } from '../../app/export.js';
import type { Column } from '../../app/screen.js';
import { plural } from '../../model/plural.js';
import type { MessageKind } from '../../store/session.js';

export interface SaveRowsOptions<R> {
  /** The start of the file names. */
  area: string;
  columns: readonly Column<R>[];
  /** What the list shows, filtered and sorted, or only its marked rows. */
  rows: readonly R[];
  marked: boolean;
  /** The export folder the flag or config names; the working folder without one. */
  dir: string | undefined;
  notify: (text: string, kind?: MessageKind) => void;
}

/** Ctrl-S in a list: the rows as CSV and JSON, and the message line says where (or why not). */
export async function saveRows<R>({ area, columns, rows, marked, dir = '.', notify }: SaveRowsOptions<R>): Promise<void> {
  if (rows.length === 0) return notify(`Nothing to export: the list shows no ${marked ? 'marked ' : ''}items`, 'error');
  try {
    const files = await exportList({ dir, area, columns, rows });
    notify(`Exported ${plural(rows.length, 'item')} to ${files.csv} and ${basename(files.json)}`, 'success');
  } catch (err) {
    notify(exportError(dir, err), 'error');
  }
}
