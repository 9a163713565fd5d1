import { useMemo } from 'react';
import type { Params } from '../store/nav.js';
import { useApp } from './context.js';
import type { ScreenCtx } from './screen.js';

/** The ScreenCtx that list specs' callbacks (forms, actions, loaders) get, for custom screens that run them. */
export function useScreenCtx(params: Params): ScreenCtx {
  const { client, data, session, nav, jobs } = useApp();
  return useMemo<ScreenCtx>(
    () => ({
      client,
      params,
      invalidate: (...prefixes) => data.getState().invalidate(...prefixes),
      notify: (text, kind) => session.getState().notify(text, kind),
      push: (screen, p, label) => nav.getState().push(screen, p, label),
      jobs,
    }),
    [client, params, data, session, nav, jobs],
  );
}
