import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { queryKey, type ListEntry, type ListQuery } from '../../store/data.js';

/** Runs `refresh` every --refresh seconds while the calling view is mounted (i.e. visible). */
export function useAutoRefresh(refresh: () => void): void {
  const { session } = useApp();
  const seconds = useStore(session, (s) => s.refreshSeconds);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    const timer = setInterval(() => latest.current(), Math.max(2, seconds) * 1000);
    return () => clearInterval(timer);
  }, [seconds]);
}

/**
 * A cached list kept fresh while on screen: shown from the cache at once
 * (read again behind it when older than the refresh interval, see the data
 * store's read rule), and read again each time it turns a refresh interval old.
 */
export function useListData(query: ListQuery): ListEntry | undefined {
  const { data, session } = useApp();
  const key = queryKey(query);
  const entry = useStore(data, (s) => s.lists[key]);
  const seconds = useStore(session, (s) => s.refreshSeconds);
  const latest = useRef(query);
  latest.current = query;
  useEffect(() => {
    const unwatch = data.getState().watch(query);
    void data.getState().load(query);
    return unwatch;
    // The key stands for the query, which is a new object each render.
  }, [key, data]);
  const checkedAt = entry?.checkedAt;
  useEffect(() => {
    if (checkedAt === undefined) return;
    // Due when the last read is an interval old, however the list got here (another view, a count, a change).
    const timer = setTimeout(() => void data.getState().refresh(latest.current), Math.max(0, checkedAt + Math.max(2, seconds) * 1000 - Date.now()));
    return () => clearTimeout(timer);
  }, [key, checkedAt, seconds, data]);
  return entry;
}
