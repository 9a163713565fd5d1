import { Text } from '../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from './context.js';

const OVERLAY_NAMES: Record<string, string> = { detail: 'detail', json: 'json', form: 'form', menu: 'actions', confirm: 'confirm', copy: 'copy' };

/** The drill-down path: one crumb per nav entry (the item drilled from, then the screen), then an open overlay. */
export function Breadcrumbs() {
  const { nav, screens, views } = useApp();
  const stack = useStore(nav, (s) => s.stack);
  const top = stack[stack.length - 1]!;
  const overlay = useStore(views, (s) => s.views[top.key]?.overlay?.kind);
  const crumbs = stack.flatMap((e) => [...(e.label ? [e.label] : []), screens.get(e.screen).title.toLowerCase()]);
  if (overlay && OVERLAY_NAMES[overlay]) crumbs.push(OVERLAY_NAMES[overlay]);
  const last = crumbs.pop();
  return (
    <Text wrap="truncate-start">
      <Text dimColor>{crumbs.map((c) => `${c} › `).join('')}</Text>
      <Text bold>{last}</Text>
    </Text>
  );
}
