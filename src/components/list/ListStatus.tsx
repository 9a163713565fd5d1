import { Box } from 'ink';
import { Text } from '../Text.js';
import type { Column } from '../../app/screen.js';
import { NOTICEABLE_MS, useLasting } from '../../app/use-lasting.js';
import { refreshFailed } from '../../app/use-data-age.js';
import type { ListEntry } from '../../store/data.js';
import type { ListView } from '../../store/views.js';
import { TextInput } from '../TextInput.js';
import { plural } from '../../model/plural.js';

interface Props {
  list: ListEntry | undefined;
  view: ListView;
  /** What the list holds, in words (the spec's `summary`): first on the line, except while filtering, when the counts matter. */
  summary?: string;
  shown: number;
  columns: Column<unknown>[];
  width: number;
  /** Marked rows, and how many of them the filter hides. */
  marked?: { count: number; hidden: number };
}

/** The line above a list: what it holds, counts, filter, sort, page progress, refresh state, a cut list, the last error. */
export function ListStatus({ list, view, summary, shown, columns, width, marked }: Props) {
  const total = list?.rows.length ?? 0;
  const parts: string[] = [];
  const refreshing = useLasting(list?.refreshing ?? false, NOTICEABLE_MS);
  const reading = useLasting(list?.partial ?? false, NOTICEABLE_MS);
  if (list?.status === 'ready') parts.push(view.filter ? `${shown} of ${total}` : plural(total, 'item'));
  if (marked?.count) parts.push(`${marked.count} marked${marked.hidden ? ` (${marked.hidden} hidden by the filter)` : ''}`);
  if (view.sortCol !== null && columns[view.sortCol]) parts.push(`sorted by ${columns[view.sortCol]!.title} ${view.sortDesc ? '▼' : '▲'}`);
  if (list?.progress) parts.push(`loading ${list.progress.loaded}/${list.progress.total} pages`);
  if (refreshing) parts.push('refreshing…');
  if (reading) parts.push('reading the rest…');
  const cut = list?.status === 'ready' && list.cut ? `cut: the first ${list.cut.rows.toLocaleString('en-US')} rows of ${list.cut.pages.toLocaleString('en-US')} pages claimed` : '';
  const error = refreshFailed(list);
  if (view.filtering) {
    return (
      <Box height={1}>
        <Text color="cyan">/</Text>
        <Box width={Math.max(10, Math.floor(width / 2))}>
          <TextInput value={{ text: view.filter, cursor: view.filterCursor }} width={Math.max(10, Math.floor(width / 2))} focused />
        </Box>
        <Text dimColor wrap="truncate-end">{`  ${parts.join(' · ')}`}</Text>
      </Box>
    );
  }
  return (
    <Text wrap="truncate-end">
      {view.filter && <Text color="cyan">{`/${view.filter}  `}</Text>}
      <Text dimColor>{(summary ? [summary, ...parts] : parts).join(' · ')}</Text>
      {cut && <Text color="yellow">{`  ${cut}`}</Text>}
      {error && <Text color="red">{`  ${error}`}</Text>}
    </Text>
  );
}
