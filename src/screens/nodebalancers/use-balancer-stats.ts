import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/errors.js';
import { getBalancerStats, type NBStats } from '../../api/nodebalancers.js';
import { useApp } from '../../app/context.js';
import { useAutoRefresh } from '../../components/list/use-list-data.js';

export interface StatsState {
  stats?: NBStats;
  error?: string;
  loading: boolean;
}

/** One balancer's statistics, fetched when it is chosen and kept fresh like a list; answers for a balancer no longer chosen are dropped. */
export function useBalancerStats(id: number | undefined): StatsState & { reload: () => void } {
  const { client } = useApp();
  const [state, setState] = useState<StatsState & { id?: number }>({ loading: false });
  const wanted = useRef(id);
  wanted.current = id;
  const reload = useCallback(() => {
    if (id === undefined) return;
    setState((s) => ({ ...(s.id === id ? s : {}), id, loading: true }));
    getBalancerStats(client, id).then(
      (stats) => wanted.current === id && setState({ id, stats, loading: false }),
      (err: unknown) => wanted.current === id && setState((s) => ({ ...s, id, error: describeError(err), loading: false })),
    );
  }, [client, id]);
  useEffect(reload, [reload]);
  useAutoRefresh(reload);
  return state.id === id ? { ...state, reload } : { loading: id !== undefined, reload };
}
