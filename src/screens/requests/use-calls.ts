import { useEffect, useState } from 'react';
import type { RequestLog, RequestRecord } from '../../api/request-log.js';

/** Calls coming in are drawn together, at most this often: a first screen sends twenty at once. */
const REDRAW_MS = 150;

/** The log's calls, newest first, redrawn as calls start and end. */
export function useCalls(log: RequestLog): RequestRecord[] {
  const [, setVersion] = useState(log.version);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const unsubscribe = log.subscribe(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        setVersion(log.version);
      }, REDRAW_MS);
    });
    // Calls made between the first render and this effect.
    setVersion(log.version);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [log]);
  return log.entries();
}
