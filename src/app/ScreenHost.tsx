import { Activity, memo } from 'react';
import { useStore } from 'zustand';
import { ListScreen } from '../components/list/ListScreen.js';
import { useApp } from './context.js';
import type { NavEntry } from '../store/nav.js';

/**
 * Screens under the top one kept mounted, hidden: going back shows one as it
 * was instead of building it again (Esc after an xray or a detail costs a
 * show, not a mount). Deeper ones go and are built afresh when gone back to.
 */
const KEPT_BELOW = 2;

/**
 * One entry of the nav stack; a new entry gets a fresh component (its view
 * state lives in the store). Memoized: a push or a pop draws the screens it
 * keeps again only if their entry or size changed, not each time the stack does.
 */
const StackScreen = memo(function StackScreen({ entry, width, height }: { entry: NavEntry; width: number; height: number }) {
  const { screens } = useApp();
  const def = screens.get(entry.screen);
  if (def.list) return <ListScreen def={def} entry={entry} width={width} height={height} />;
  const Component = def.component!;
  return <Component entry={entry} width={width} height={height} />;
});

/**
 * The screen on top of the nav stack, and the two under it hidden (React's
 * Activity: a hidden screen's keys, timers and subscriptions stop as if it
 * were gone, and it draws nothing).
 */
export function ScreenHost({ width, height }: { width: number; height: number }) {
  const { nav } = useApp();
  const stack = useStore(nav, (s) => s.stack);
  const kept = stack.slice(-(KEPT_BELOW + 1));
  return kept.map((entry, i) => (
    <Activity key={entry.key} mode={i === kept.length - 1 ? 'visible' : 'hidden'}>
      <StackScreen entry={entry} width={width} height={height} />
    </Activity>
  ));
}
