import { useMemo } from 'react';
import { useApp } from '../../app/context.js';
import type { ScreenCtx } from '../../app/screen.js';
import type { NavEntry } from '../../store/nav.js';

/** The ScreenCtx list specs' callbacks expect, for the area's custom screens that reuse those specs. */
export function useScreenCtx(entry: NavEntry): ScreenCtx {
  const { client, data, session, nav } = useApp();
  return useMemo<ScreenCtx>(
    () => ({
      client,
      params: entry.params,
      invalidate: (...prefixes) => data.getState().invalidate(...prefixes),
      notify: (text, kind) => session.getState().notify(text, kind),
      push: (screen, p, l) => nav.getState().push(screen, p, l),
    }),
    [client, entry.params, data, session, nav],
  );
}
