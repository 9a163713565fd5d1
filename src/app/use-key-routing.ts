import { useCallback, useRef } from 'react';
import { useInput, type Key } from 'ink';
import { useApp } from './context.js';
import { keyEvents, type KeyEvent } from './keys.js';
import type { ViewsState } from '../store/views.js';

/** How soon after g a t or T makes it a tab key. */
const CHORD_MS = 1000;

/**
 * Every key enters here, once, through a handler that never changes, and goes
 * to the key router. Keys that arrive together (":vm\r", a paste, fast
 * typing) are split. Typed text goes on at once, but after a key that ran a
 * command the rest waits a turn of the event loop: the view that command
 * opened is drawn, and its keys bound, before the next key is routed.
 * Ctrl-C quits from anywhere, unless the view binds it to stop something.
 */
export function useKeyRouting(): void {
  const { router, quit, views } = useApp();
  const queue = useRef<KeyEvent[]>([]);
  /** A g that ran a command just now, with the view states from before it: g then t or T is a tab key (gt, gT), and the g's move is undone. */
  const chord = useRef<{ at: number; before: ViewsState['views'] } | undefined>(undefined);
  const drain = useCallback(() => {
    for (let ev = queue.current.shift(); ev; ev = queue.current.shift()) {
      const g = chord.current;
      chord.current = undefined;
      if (g && (ev.name === 't' || ev.name === 'T') && Date.now() - g.at < CHORD_MS && router.dispatch({ name: `g${ev.name}`, text: '' }) === 'command') {
        views.setState({ views: g.before });
        continue;
      }
      if (ev.name === 'g') {
        const before = views.getState().views;
        const handled = router.dispatch(ev);
        if (handled === 'command') chord.current = { at: Date.now(), before };
        if (handled === 'command' && queue.current.length > 0) {
          setImmediate(drain);
          return;
        }
        continue;
      }
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
  }, [router, quit, views]);
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
