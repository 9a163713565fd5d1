import { useCallback, useRef } from 'react';
import { useInput, type Key } from 'ink';
import { useApp } from './context.js';
import { keyEvents, type KeyEvent } from './keys.js';

/**
 * Every key enters here, once, through a handler that never changes, and goes
 * to the key router. Keys that arrive together (":vm\r", a paste, fast
 * typing) are split. Typed text goes on at once, but after a key that ran a
 * command the rest waits a turn of the event loop: the view that command
 * opened is drawn, and its keys bound, before the next key is routed.
 * Ctrl-C quits from anywhere, unless the view binds it to stop something.
 */
export function useKeyRouting(): void {
  const { router, quit } = useApp();
  const queue = useRef<KeyEvent[]>([]);
  const drain = useCallback(() => {
    for (let ev = queue.current.shift(); ev; ev = queue.current.shift()) {
      if (ev.name === 'ctrl+c') {
        queue.current = [];
        // The global layer's quit takes it, or a view that binds it (a bulk action under way stops instead); a dialog that swallows keys does not keep it from quitting.
        if (router.dispatch(ev) !== 'command') quit();
        return;
      }
      if (router.dispatch(ev) === 'command' && queue.current.length > 0) {
        setImmediate(drain);
        return;
      }
    }
  }, [router, quit]);
  const onInput = useCallback(
    (input: string, key: Key) => {
      const idle = queue.current.length === 0;
      queue.current.push(...keyEvents(input, key));
      if (idle) drain();
    },
    [drain],
  );
  useInput(onInput);
}
