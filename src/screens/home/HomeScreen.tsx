import { useEffect, useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { Column, ScreenDef, ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { Table } from '../../components/Table.js';
import { useAutoRefresh } from '../../components/list/use-list-data.js';
import { clamp } from '../../components/window.js';
import type { CountEntry } from '../../store/data.js';
import { homeAreas, loadCounts } from './count.js';

interface AreaRow {
  def: ScreenDef;
  /** Absent for an area that has nothing to count (a profile, a dashboard). */
  counter?: () => Promise<number>;
  count?: CountEntry;
}

const countText = (r: AreaRow) => {
  if (!r.counter) return '';
  const c = r.count;
  return !c || c.status === 'loading' ? '…' : c.status === 'error' ? `✗ ${c.error}` : String(c.value);
};

const COLUMNS: Column<AreaRow>[] = [
  { key: 'title', title: 'Area', width: 18, format: (r) => r.def.title },
  { key: 'count', title: 'Count', width: 12, format: countText, color: (r) => (r.count?.status === 'error' ? 'red' : undefined) },
  { key: 'names', title: 'Jump with', width: 30, format: (r) => [r.def.id, ...(r.def.aliases ?? [])].map((n) => `:${n}`).join(' ') },
  { key: 'description', title: 'What', format: (r) => r.def.description ?? '' },
];

/**
 * Every area with its count. A custom screen: it draws with the shared
 * Table and binds keys through the same keymap as the generic list.
 */
export function HomeScreen({ entry, width, height }: ScreenProps) {
  const { screens, data, client, nav, views } = useApp();
  const areas = useMemo(() => homeAreas(screens, client, data), [screens, client, data]);
  const counts = useStore(data, (s) => s.counts);
  // In the views store, not component state: coming back from an area finds the same row selected.
  const selected = useStore(views, (s) => s.views[entry.key]?.selectedIndex ?? 0);
  const recount = () => loadCounts(areas, data, true);
  // Counted again on every visit (the old numbers stay until the new ones arrive): something may have changed meanwhile.
  useEffect(recount, []);
  useAutoRefresh(recount);
  const current = () => views.getState().get(entry.key).selectedIndex;
  const move = (to: (i: number) => number) => views.getState().update(entry.key, { selectedIndex: clamp(to(current()), 0, areas.length - 1) });
  useCommands(
    {
      up: () => move((i) => i - 1),
      down: () => move((i) => i + 1),
      top: () => move(() => 0),
      bottom: () => move(() => areas.length - 1),
      open: () => areas.length > 0 && nav.getState().push(areas[current()]!.def.id),
      refresh: recount,
    },
    { priority: PRIORITY.screen, title: 'Home' },
  );
  const rows: AreaRow[] = areas.map((a) => ({ ...a, count: counts[a.def.id] }));
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor wrap="truncate-end">{`${areas.length} areas · Enter opens · : jumps by name`}</Text>
      <Table columns={COLUMNS} rows={rows} selected={selected} height={height - 1} width={width} />
    </Box>
  );
}
