import { useEffect, useReducer } from 'react';

import type { ListEntry } from '../store/data.js';

const MINUTE = 60_000;

/** An age in its largest whole unit: 12s, 3m, 5h, 2d. */
export function ageText(ms: number): string {
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))}s`;
  return minutes < 60 ? `${minutes}m` : minutes < 48 * 60 ? `${Math.floor(minutes / 60)}h` : `${Math.floor(minutes / 1440)}d`;
}

/**
 * What a view whose last read failed says beside the rows it kept (a plain
 * list, or one joined from lists one of which failed): the error, and how old
 * the rows are. Empty when the last read answered.
 */
export function refreshFailed(entry: ListEntry | undefined, now = Date.now()): string {
  if (entry?.status !== 'ready' || !entry.error) return '';
  const age = entry.fetchedAt === undefined ? '' : ` · shown as read ${ageText(now - entry.fetchedAt)} ago`;
  return `refresh failed: ${entry.error}${age}`;
}

/**
 * How old the data on screen is, once it is older than it should be: three
 * refresh intervals and at least a minute (refreshes failing, or a view that
 * does not refresh). While refreshes keep up there is nothing to say, and
 * nothing changes on screen, so an idle screen sends nothing; once stale, the
 * age counts whole minutes, redrawn only when the minute turns.
 */
export function dataAge(lastRefresh: number | undefined, refreshSeconds: number, now: number): { text?: string; changesAt?: number } {
  if (lastRefresh === undefined) return {};
  const staleAt = lastRefresh + Math.max(MINUTE, 3 * refreshSeconds * 1000);
  if (now < staleAt) return { changesAt: staleAt };
  const minutes = Math.floor((now - lastRefresh) / MINUTE);
  const text = ageText(now - lastRefresh);
  const step = minutes < 60 ? MINUTE : minutes < 48 * 60 ? 60 * MINUTE : 1440 * MINUTE;
  return { text, changesAt: lastRefresh + (Math.floor((now - lastRefresh) / step) + 1) * step };
}

/** dataAge, kept current: the component renders again only when the text would change. */
export function useDataAge(lastRefresh: number | undefined, refreshSeconds: number): string | undefined {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  const age = dataAge(lastRefresh, refreshSeconds, Date.now());
  useEffect(() => {
    if (age.changesAt === undefined) return;
    const timer = setTimeout(tick, Math.max(0, age.changesAt - Date.now()));
    return () => clearTimeout(timer);
  }, [age.changesAt]);
  return age.text;
}
