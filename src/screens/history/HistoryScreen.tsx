import { useEffect, useState } from 'react';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { EVENTS_PATH, type AccountEvent } from '../../api/events.js';
import { describeError } from '../../api/errors.js';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { plain } from '../../app/style.js';
import { ScrollView } from '../../components/ScrollView.js';
import { SelectTable } from '../../components/SelectTable.js';
import { entityTypeOfPath } from '../../model/events.js';
import { changeLine, fieldChanges } from '../../model/history.js';
import type { HistoryPoint } from '../../store/history.js';
import { timeline, type TimelineRow } from './timeline.js';

const time = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** The diff of two sightings, the older first, as lines. */
function diffLines(points: readonly HistoryPoint[], a: number, b: number): { title: string; lines: string[] } {
  const [from, to] = a < b ? [a, b] : [b, a];
  const changes = fieldChanges(points[from]!.record, points[to]!.record);
  return {
    title: `From ${time(points[from]!.at)} to ${time(points[to]!.at)} (Esc closes)`,
    lines: changes.length ? changes.map(changeLine) : ['No field differs between these two points.'],
  };
}

/** `h` on an item: its events and the changes of its fields the app has seen, newest first; two points picked show the record's diff. */
export function HistoryScreen({ entry, width, height }: ScreenProps) {
  const { client, history, session, views } = useApp();
  const { path = '', id = '', label = id } = entry.params;
  useStore(history, (s) => s.version);
  const item = history.getState().get(path, id);
  const points = item?.points ?? [];
  const [events, setEvents] = useState<AccountEvent[]>([]);
  const [eventsNote, setEventsNote] = useState<string>('');
  const [picked, setPicked] = useState<number[]>([]);
  const [diff, setDiff] = useState<{ title: string; lines: string[] } | null>(null);
  const type = entityTypeOfPath(path);
  useEffect(() => {
    if (!type) return setEventsNote('the account keeps no events about this kind of item');
    const entityId = /^\d+$/.test(id) ? Number(id) : id;
    client.page<AccountEvent>(EVENTS_PATH, { page: 1, pageSize: 100, filter: { 'entity.id': entityId, 'entity.type': type } }).then(
      (page) => setEvents(page.data),
      (err: unknown) => setEventsNote(`events not read: ${describeError(err)}`),
    );
  }, [client, type, id]);
  const rows = timeline(points, events);
  if (diff) {
    return <ScrollView title={diff.title} items={diff.lines} height={height} onClose={() => setDiff(null)} render={(line) => <Text wrap="truncate-end">{line}</Text>} />;
  }
  const dot = plain() ? '*' : '●';
  const columns: Column<TimelineRow>[] = [
    { key: 'at', title: 'Time', width: 21, format: (r) => `${r.point !== undefined && picked.includes(r.point) ? dot : ' '} ${time(r.at)}` },
    { key: 'what', title: 'What', width: 10, color: (r) => (r.what === 'failed' ? 'red' : r.what === 'changed' ? 'cyan' : undefined) },
    { key: 'by', title: 'By', width: 12 },
    { key: 'text', title: 'Detail', flex: 3 },
  ];
  const pick = (row: TimelineRow) => {
    if (row.point === undefined) return session.getState().notify('Only what the app saw of the record can be compared: pick a "changed" or "first seen" line', 'error');
    const p = row.point;
    setPicked((was) => (was.includes(p) ? was.filter((x) => x !== p) : [...was, p].slice(-2)));
  };
  const open = (row: TimelineRow) => {
    if (picked.length === 2) return setDiff(diffLines(points, picked[0]!, picked[1]!));
    if (row.point !== undefined && row.point > 0) return setDiff(diffLines(points, row.point - 1, row.point));
    session.getState().notify('Space picks two points of the record; Enter then shows what differs between them');
  };
  const seen = points.length ? `${points.length - 1} changes seen since ${time(points[0]!.at)}` : 'not seen by the app yet';
  return (
    <SelectTable
      entry={entry}
      title={`History of ${label}`}
      columns={columns}
      rows={rows}
      rowKey={(r) => r.key}
      onOpen={open}
      commands={{
        mark: () => {
          const v = views.getState().get(entry.key);
          const row = rows.find((r) => r.key === v.selectedKey) ?? rows[Math.min(v.selectedIndex, rows.length - 1)];
          if (row) pick(row);
        },
      }}
      status={<Text dimColor wrap="truncate-end">{`${label} · ${seen} · ${events.length} events${eventsNote ? ` (${eventsNote})` : ''} · Space picks two points, Enter shows their diff`}</Text>}
      empty={<Text dimColor>Nothing yet.</Text>}
      width={width}
      height={height}
    />
  );
}
