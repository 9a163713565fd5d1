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

/** A cached list kept fresh while on screen: loaded on mount (again when stale), refreshed in the background. */
export function useListData(query: ListQuery): ListEntry | undefined {
  const { data, session } = useApp();
  const key = queryKey(query);
  const entry = useStore(data, (s) => s.lists[key]);
  useEffect(() => {
    const unwatch = data.getState().watch(query);
    const cached = data.getState().lists[key];
    const stale = cached?.fetchedAt !== undefined && Date.now() - cached.fetchedAt > session.getState().refreshSeconds * 1000;
    void data.getState().load(query, stale);
    return unwatch;
    // The key stands for the query, which is a new object each render.
  }, [key, data, session]);
  useAutoRefresh(() => void data.getState().refresh(query));
  return entry;
}
