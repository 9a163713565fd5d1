import { useCallback } from 'react';
import { useInput, type Key } from 'ink';
import { useApp } from './context.js';
import { keyEvents } from './keys.js';

/** Every key enters here, once, through a handler that never changes, and goes to the key router. Ctrl-C always quits. */
export function useKeyRouting(): void {
  const { router, quit } = useApp();
  const onInput = useCallback(
    (input: string, key: Key) => {
      for (const ev of keyEvents(input, key)) {
        if (ev.name === 'ctrl+c') return quit();
        router.dispatch(ev);
      }
    },
    [router, quit],
  );
  useInput(onInput);
}
