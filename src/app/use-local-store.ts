import { useState } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';

/**
 * Component state in a small store: render subscribes to it, key handlers
 * read and write it with getState/setState, so fast typing never works on a
 * stale copy.
 */
export function useLocalStore<T extends object>(init: () => T): [T, StoreApi<T>] {
  const [store] = useState(() => createStore<T>()(() => init()));
  return [useStore(store), store];
}
