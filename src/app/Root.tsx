import { Activity, memo } from 'react';
import { useStore } from 'zustand';
import { App } from './App.js';
import type { AppContextValue } from './context.js';
import type { TabsStore } from './tabs.js';

/** A number for each context a tab was given: a tab put on another account (:ctx) mounts its app afresh. */
const numbers = new WeakMap<AppContextValue, number>();
let counted = 0;
const numberOf = (ctx: AppContextValue) => {
  let n = numbers.get(ctx);
  if (n === undefined) numbers.set(ctx, (n = ++counted));
  return n;
};

/** A tab's app: the tabs changing (another shown, one opened) does not draw the others again. */
const TabApp = memo(App);

/**
 * Every tab's app stays mounted and one is shown: a switch hides one and
 * shows the other (React's Activity) rather than building the other's
 * screens afresh. A hidden tab's effects stop as if it were gone (its keys,
 * refresh timers, store subscriptions: it draws nothing while hidden), and
 * its state, down to each screen's own, is there when it is shown again.
 */
export function Root({ tabs }: { tabs: TabsStore }) {
  const all = useStore(tabs, (s) => s.tabs);
  const active = useStore(tabs, (s) => s.active);
  return all.map((tab, i) => (
    <Activity key={tab.id} mode={i === active ? 'visible' : 'hidden'}>
      <TabApp key={numberOf(tab.ctx)} ctx={tab.ctx} />
    </Activity>
  ));
}
