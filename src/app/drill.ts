import type { NavStore } from '../store/nav.js';
import type { ViewsStore } from '../store/views.js';
import type { DrillTarget } from './screen.js';

/** Opens a drill target as a user drilling by hand would: the screens on the way first, then the target with its crumb, row selected or list filtered. */
export function drillTo(nav: NavStore, views: ViewsStore, target: DrillTarget, crumb: string): void {
  for (const step of target.via ?? []) nav.getState().push(step.screen, step.params, step.label);
  nav.getState().push(target.screen, target.params ?? {}, crumb);
  const opened = nav.getState().stack.at(-1)!.key;
  if (target.select !== undefined) views.getState().update(opened, { selectedKey: target.select });
  if (target.filter) views.getState().update(opened, { filter: target.filter, filterCursor: target.filter.length });
}
