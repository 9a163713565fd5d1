import type { ReactNode } from 'react';
import { Box } from 'ink';
import { Text } from './Text.js';
import { useStore } from 'zustand';
import { useApp } from '../app/context.js';
import { PRIORITY } from '../app/key-router.js';
import type { Column } from '../app/screen.js';
import { useCommands, type CommandHandlers } from '../app/use-commands.js';
import type { NavEntry } from '../store/nav.js';
import { DEFAULT_VIEW, type ListView } from '../store/views.js';
import { filterCapture, listHandlers } from './list/list-keys.js';
import { selectedIndex } from './list/list-view.js';
import { Table } from './Table.js';
import { TextInput } from './TextInput.js';
import { clamp } from './window.js';

interface Props<R> {
  entry: NavEntry;
  title: string;
  columns: Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  /** Enter on a row. */
  onOpen: (row: R) => void;
  /** The line above the table (counts, progress, the words searched). */
  status: ReactNode;
  /** Shown instead of the table while there are no rows. */
  empty: ReactNode;
  width: number;
  height: number;
  /** The view's own keys beside the moves and Enter. */
  commands?: CommandHandlers;
  /** Before the text typed after `/` (the view's filter): what it is to this view. */
  prompt?: string;
}

/**
 * A table of rows computed by a view (search hits, accounts, every account's
 * items) with the lists' moves, `/` typed into the view's filter, and Enter;
 * the selection lives in the views store, so Esc back returns to the same row.
 */
export function SelectTable<R>({ entry, title, columns, rows, rowKey, onOpen, status, empty, width, height, commands = {}, prompt = '/' }: Props<R>) {
  const { views } = useApp();
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  const getView = () => views.getState().get(entry.key);
  const update = (patch: Partial<ListView>) => views.getState().update(entry.key, patch);
  // The row at the cursor's place is checked first: a move scans nothing.
  const indexOf = (v: ListView) => selectedIndex({ rows }, rowKey, v.selectedKey, v.selectedIndex);
  const select = (to: (i: number, n: number) => number) => {
    if (rows.length === 0) return;
    const n = clamp(to(indexOf(getView()), rows.length), 0, rows.length - 1);
    update({ selectedIndex: n, selectedKey: rowKey(rows[n]!) });
  };
  const body = height - 1;
  useCommands(
    listHandlers(view, getView, select, update, Math.max(1, body - 1), {
      open: rows.length > 0 && (() => onOpen(rows[indexOf(getView())]!)),
      // Esc goes back rather than clearing the words the view was opened with.
      back: undefined,
      ...commands,
    }, () => update({ overlay: null })),
    { priority: PRIORITY.screen, title, capture: filterCapture(getView, update) },
  );
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      <Box height={1}>
        {view.filtering ? (
          <>
            <Text color="cyan">{prompt}</Text>
            <Box width={Math.max(10, Math.floor(width / 2))}>
              <TextInput value={{ text: view.filter, cursor: view.filterCursor }} width={Math.max(10, Math.floor(width / 2))} focused />
            </Box>
            <Text> </Text>
            {status}
          </>
        ) : (
          status
        )}
      </Box>
      {rows.length === 0 ? empty : <Table columns={columns} rows={rows} selected={indexOf(view)} height={body} width={width} />}
    </Box>
  );
}
