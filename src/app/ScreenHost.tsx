import { useStore } from 'zustand';
import { ListScreen } from '../components/list/ListScreen.js';
import { useApp } from './context.js';

/** The screen on top of the nav stack; a new entry gets a fresh component (its view state lives in the store). */
export function ScreenHost({ width, height }: { width: number; height: number }) {
  const { nav, screens } = useApp();
  const entry = useStore(nav, (s) => s.stack[s.stack.length - 1]!);
  const def = screens.get(entry.screen);
  if (def.list) return <ListScreen key={entry.key} def={def} entry={entry} width={width} height={height} />;
  const Component = def.component!;
  return <Component key={entry.key} entry={entry} width={width} height={height} />;
}
