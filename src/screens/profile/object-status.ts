import { refreshFailed } from '../../app/use-data-age.js';
import type { ListEntry } from '../../store/data.js';
import type { PaneLine } from './ScrollPane.js';

/** Lines for a screen whose object failed to load (r retries); null when there is something to show. */
export function failedLines(entry: ListEntry | undefined, what: string): PaneLine[] | null {
  if (entry?.status !== 'error') return null;
  return [{ text: `Could not load ${what}: ${entry.error}. Press r to retry.`, color: 'red' }];
}

/** A failed refresh keeps the old value on screen; this line says so. */
export function staleLine(entry: ListEntry | undefined): PaneLine[] {
  const failed = refreshFailed(entry);
  return failed ? [{ text: failed, color: 'red' }] : [];
}
