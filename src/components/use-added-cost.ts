import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { TYPES_LIST, allReadable } from '../store/lists.js';
import { useApp } from '../app/context.js';
import { additionText, typeMap, type Addition } from '../model/costs.js';
import type { PricedType } from '../model/prices.js';
import { queryKey } from '../store/data.js';

/**
 * The line a confirmation adds about the bill ("This adds $24.00/month,
 * $0.036/hour."), from the types' prices in the cache, read once when absent;
 * undefined when nothing is added.
 */
export function useAddedCost(additions: readonly Addition[] | undefined): string | undefined {
  const { data } = useApp();
  const adding = Boolean(additions?.length);
  useEffect(() => {
    if (adding) void data.getState().load(TYPES_LIST);
  }, [adding, data]);
  const entry = useStore(data, (s) => s.lists[queryKey(TYPES_LIST)]);
  const types = useMemo(() => {
    if (entry?.status !== 'ready') return undefined;
    try {
      return typeMap(allReadable<PricedType>(TYPES_LIST, entry.rows));
    } catch (err) {
      return err as Error;
    }
  }, [entry?.status, entry?.rows]);
  if (!adding) return undefined;
  const unknown = (why: string) => `Cost not known: the prices could not be read (${why}).`;
  if (entry?.status === 'error') return unknown(entry.error ?? 'no reason given');
  if (types instanceof Error) return unknown(types.message);
  if (!types) return 'Cost: reading the prices…';
  return additionText(types, additions!);
}
