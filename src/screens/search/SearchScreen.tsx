import { useEffect, useMemo } from 'react';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { SelectTable } from '../../components/SelectTable.js';
import { plural } from '../../model/plural.js';
import { DEFAULT_VIEW } from '../../store/views.js';
import { matchedBy, parseQuery, type Query } from './match.js';
import { openHit, plan, search, type Hit } from './sources.js';

const columns = (q: Query): Column<Hit>[] => [
  { key: 'area', title: 'Area', flex: 2, format: (h) => h.collection.area },
  { key: 'label', title: 'Label', flex: 3, identifier: true, format: (h) => h.collection.label(h.row) },
  { key: 'id', title: 'ID', width: 10, format: (h) => (h.row.id === undefined ? '' : String(h.row.id)) },
  { key: 'matched', title: 'Matched', flex: 3, format: (h) => matchedBy(h.row, q) },
];

/**
 * `:search WORDS` (`:find`): every item of every area the token can read,
 * found by label, id, address (in a range too), tag, bucket or object name.
 * It reads the cached lists and loads, in parallel, those not cached yet;
 * hits show as they arrive. Enter opens the item where it lives.
 */
export function SearchScreen({ entry, width, height }: ScreenProps) {
  const app = useApp();
  const { data, views } = app;
  const lists = useStore(data, (s) => s.lists);
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  const words = view.filter.trim();
  const p = useMemo(() => plan(app, lists), [app, lists]);
  // Each list a search lacks is asked for once; the data store runs them side by side and caches them for the areas too.
  const missing = p.missing.length;
  useEffect(() => {
    if (!words) return;
    for (const q of p.missing) void data.getState().load(q);
  }, [words, missing, p, data]);
  const q = useMemo(() => parseQuery(words), [words]);
  const hits = useMemo(() => search(p.collections, q), [p.collections, q]);
  const cols = useMemo(() => columns(q), [q]);
  const parts = [plural(hits.length, 'hit')];
  if (p.loading) parts.push(`loading ${p.total - p.loading}/${p.total} lists`);
  else parts.push(`in ${plural(p.total, 'list')}`);
  if (hits.some((h) => h.collection.partial)) parts.push('objects: first page of each bucket');
  if (p.failures.length) parts.push(`not read: ${p.failures.join('; ')}`);
  const status = (
    <Text wrap="truncate-end">
      {!view.filtering && <Text color="cyan">{`search: ${words || '(nothing yet: / types words)'}  `}</Text>}
      <Text dimColor>{parts.join(' · ')}</Text>
    </Text>
  );
  const empty = (
    <Text dimColor wrap="wrap">
      {!words
        ? 'Type / and words: a label, an id, an address (IPv4, IPv6, one inside a range), a tag, a bucket or object name.'
        : p.loading
          ? 'Searching…'
          : `Nothing matches "${words}" in what this token can read.`}
    </Text>
  );
  return (
    <SelectTable
      entry={entry}
      title="Search"
      columns={cols}
      rows={words ? hits : []}
      rowKey={(h) => `${h.collection.area}\u0000${h.collection.route.map((s) => JSON.stringify(s.params)).join()}\u0000${h.collection.rowKey(h.row)}`}
      onOpen={(h) => openHit(app, h)}
      status={status}
      empty={empty}
      width={width}
      height={height}
      prompt="search: "
    />
  );
}
