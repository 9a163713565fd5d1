import { useCommands, type CommandHandlers, type LayerOptions } from '../app/use-commands.js';
import { useLocalStore } from '../app/use-local-store.js';
import { clamp } from './window.js';

/**
 * Scrolling over `count` lines shown `body` at a time, on the list keys,
 * bound in one layer with the view's other commands. Returns the first line shown.
 */
export function useScroll(count: number, body: number, commands: CommandHandlers, opts: LayerOptions): number {
  const [{ top }, store] = useLocalStore(() => ({ top: 0 }));
  const maxTop = Math.max(0, count - body);
  // The stored top may be past the end after the lines got fewer: start from where the view really is.
  const scroll = (to: (t: number) => number) => store.setState((s) => ({ top: clamp(to(Math.min(s.top, maxTop)), 0, maxTop) }));
  useCommands(
    {
      up: () => scroll((t) => t - 1),
      down: () => scroll((t) => t + 1),
      pageUp: () => scroll((t) => t - body),
      pageDown: () => scroll((t) => t + body),
      top: () => scroll(() => 0),
      bottom: () => scroll(() => maxTop),
      ...commands,
    },
    opts,
  );
  return Math.min(top, maxTop);
}
