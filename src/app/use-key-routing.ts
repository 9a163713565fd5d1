import { useCallback } from 'react';
import { useInput, type Key } from 'ink';
import { useApp } from './context.js';
import { keyEvent } from './keys.js';

/** Every key enters here, once, through a handler that never changes, and goes to the key router. Ctrl-C always quits. */
export function useKeyRouting(): void {
  const { router, quit } = useApp();
  const onInput = useCallback(
    (input: string, key: Key) => {
      const ev = keyEvent(input, key);
      if (process.env.VMTUI_KEYLOG) require('node:fs').appendFileSync(process.env.VMTUI_KEYLOG, JSON.stringify({ input, ev, t: Date.now() }) + '\n');
      if (ev.name === 'ctrl+c') return quit();
      router.dispatch(ev);
    },
    [router, quit],
  );
  useInput(onInput);
}
