import { useRef, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../Text.js';
import type { Column } from '../../app/screen.js';
import { PRIORITY } from '../../app/key-router.js';
import { plain } from '../../app/style.js';
import { useCommands } from '../../app/use-commands.js';
import type { ColumnChoice } from '../../store/columns.js';
import { clamp, windowStart } from '../window.js';
import { MAX_WIDTH, MIN_WIDTH } from './column-choice.js';

interface Entry {
  key: string;
  title: string;
  shown: boolean;
  width?: number;
  /** The width the column has before any resize (its fixed width), for the first + or -. */
  natural: number;
}

interface Props {
  title: string;
  /** Every column offered, the list's own first. */
  offered: readonly Column<unknown>[];
  /** The columns shown now, in their order. */
  current: readonly ColumnChoice[];
  /** Width each shown column has on screen now, by key. */
  widths: ReadonlyMap<string, number>;
  onDone(choice: ColumnChoice[]): void;
  onCancel(): void;
  width: number;
  height: number;
}

/** Lines around the entries: title, header, hint. */
const CHROME = 3;
const STEP = 2;

/** C on a list: every column it can show, the shown ones first in their order; Space shows or hides, < > move, - + resize, Enter keeps. */
export function ColumnChooser({ title, offered, current, widths, onDone, onCancel, width, height }: Props) {
  const [entries, setEntries] = useState<Entry[]>(() => {
    const byKey = new Map(offered.map((c) => [c.key, c]));
    const shown = current.map((c) => ({ key: c.key, title: byKey.get(c.key)?.title ?? c.key, shown: true, width: c.width, natural: widths.get(c.key) ?? byKey.get(c.key)?.width ?? 12 }));
    const rest = offered.filter((c) => !current.some((s) => s.key === c.key)).map((c) => ({ key: c.key, title: c.title, shown: false, natural: c.width ?? 12 }));
    return [...shown, ...rest];
  });
  const [cursor, setCursor] = useState(0);
  const start = useRef(0);
  // Keys read the latest state: several may come before a render.
  const state = useRef({ entries, cursor });
  state.current = { entries, cursor };
  const put = (next: Entry[], at = state.current.cursor) => {
    state.current = { entries: next, cursor: at };
    setEntries(next);
    setCursor(at);
  };
  const move = (to: number) => put(state.current.entries, clamp(to, 0, state.current.entries.length - 1));
  const swap = (by: number) => {
    const { entries: es, cursor: i } = state.current;
    const j = i + by;
    if (j < 0 || j >= es.length) return;
    const next = es.slice();
    [next[i], next[j]] = [next[j]!, next[i]!];
    put(next, j);
  };
  const resize = (by: number) => {
    const { entries: es, cursor: i } = state.current;
    const e = es[i]!;
    put(es.map((x, n) => (n === i ? { ...x, shown: true, width: clamp((e.width ?? e.natural) + by, MIN_WIDTH, MAX_WIDTH) } : x)));
  };
  useCommands(
    {
      up: () => move(state.current.cursor - 1),
      down: () => move(state.current.cursor + 1),
      top: () => move(0),
      bottom: () => move(state.current.entries.length - 1),
      toggleColumn: () => {
        const { entries: es, cursor: i } = state.current;
        put(es.map((x, n) => (n === i ? { ...x, shown: !x.shown } : x)));
      },
      columnEarlier: () => swap(-1),
      columnLater: () => swap(1),
      narrower: () => resize(-STEP),
      wider: () => resize(STEP),
      select: () => {
        const chosen = state.current.entries.filter((e) => e.shown);
        if (chosen.length === 0) return;
        onDone(chosen.map((e) => (e.width === undefined ? { key: e.key } : { key: e.key, width: e.width })));
      },
      close: onCancel,
    },
    { priority: PRIORITY.dialog, title: 'Columns', modal: 'full' },
  );
  const body = Math.max(1, height - CHROME);
  start.current = windowStart(start.current, cursor, body, entries.length);
  const shownCount = entries.filter((e) => e.shown).length;
  const marker = plain() ? '>' : '›';
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden">
      <Text bold wrap="truncate-end">{`Columns of ${title}: ${shownCount} shown of ${entries.length}`}</Text>
      <Text dimColor wrap="truncate-end">{'    Show  Column                          Width'}</Text>
      {entries.slice(start.current, start.current + body).map((e, n) => {
        const i = start.current + n;
        return (
          <Text key={e.key} inverse={i === cursor} wrap="truncate-end">
            {`${i === cursor ? marker : ' '}   ${e.shown ? '[x]' : '[ ]'}   ${e.title.padEnd(30).slice(0, 30)}  ${e.width === undefined ? 'auto' : String(e.width)}`}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {shownCount === 0 ? 'Show at least one column (Space)' : 'Space show/hide  < > move  - + width  Enter keep (saved)  Esc cancel'}
      </Text>
    </Box>
  );
}
