import { useMemo } from 'react';
import { useApp } from '../../app/context.js';
import type { ScreenCtx } from '../../app/screen.js';
import type { Params } from '../../store/nav.js';

/** What FormSpec.submit and friends get, for the custom screens that run forms themselves. */
export function useScreenCtx(params: Params): ScreenCtx {
  const { client, data, session, nav } = useApp();
  return useMemo<ScreenCtx>(
    () => ({
      client,
      params,
      invalidate: (...prefixes) => data.getState().invalidate(...prefixes),
      notify: (text, kind) => session.getState().notify(text, kind),
      push: (screen, p, label) => nav.getState().push(screen, p, label),
    }),
    [client, params, data, session, nav],
  );
}
