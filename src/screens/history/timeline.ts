import type { AccountEvent } from '../../api/events.js';
import { changeLine } from '../../model/history.js';
import { parseApiTime } from '../../model/time.js';
import type { HistoryPoint } from '../../store/history.js';

/** One line of an item's timeline: an event about it, or a sighting of its record. */
export interface TimelineRow {
  key: string;
  at: number;
  what: string;
  by: string;
  text: string;
  /** The sighting's index among the item's points; absent for an event. */
  point?: number;
}

/** Events and sightings, newest first; a sighting with several changes is one line, its changes joined. */
export function timeline(points: readonly HistoryPoint[], events: readonly AccountEvent[]): TimelineRow[] {
  const rows: TimelineRow[] = [
    ...points.map((p, i) => ({
      key: `p${i}`,
      at: p.at,
      what: i === 0 ? 'first seen' : 'changed',
      by: '',
      text: i === 0 ? 'as the app first read it' : p.changes.map(changeLine).join(' · '),
      point: i,
    })),
    ...events.map((e) => ({
      key: `e${e.id}`,
      at: parseApiTime(e.created),
      what: e.status === 'notification' ? 'event' : e.status,
      by: e.username,
      text: `${e.action}${e.percent_complete !== null && e.status === 'started' ? ` ${e.percent_complete}%` : ''}${e.message ? ` (${e.message})` : ''}`,
    })),
  ];
  return rows.sort((a, b) => b.at - a.at || b.key.localeCompare(a.key));
}
