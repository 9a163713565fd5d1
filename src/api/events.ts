import type { EventRecord as AccountEvent } from '../model/events.js';
import type { ApiClient } from './client.js';

/** Account events: the account's activity feed, newest first. */

export type { EntityRef, EventRecord as AccountEvent, EventStatus } from '../model/events.js';

export const EVENTS_PATH = '/account/events';

/** Events still under way: the live poller watches them closely. */
export const inProgress = (e: Pick<AccountEvent, 'status'>) => e.status === 'started' || e.status === 'scheduled';

/** The newest events (one page; the API lists newest first). */
export async function recentEvents(client: ApiClient, pageSize = 25): Promise<AccountEvent[]> {
  return (await client.page<AccountEvent>(EVENTS_PATH, { page: 1, pageSize })).data;
}

/** The newest events up to `max` (whole pages): enough history for a feed without paging through 90 days. */
export async function eventWindow(client: ApiClient, max = 500): Promise<AccountEvent[]> {
  const pageSize = 100;
  const first = await client.page<AccountEvent>(EVENTS_PATH, { page: 1, pageSize });
  const last = Math.min(first.pages, Math.ceil(max / pageSize));
  const rest = await Promise.all(Array.from({ length: Math.max(0, last - 1) }, (_, i) => client.page<AccountEvent>(EVENTS_PATH, { page: i + 2, pageSize })));
  // A new event shifts the pages while they load: keep each event once.
  const seen = new Set<number>();
  return [first, ...rest].flatMap((p) => p.data).filter((e) => !seen.has(e.id) && seen.add(e.id));
}

export const getEvent = (client: ApiClient, id: number) => client.get<AccountEvent>(`${EVENTS_PATH}/${id}`);
/** Marks this event and every earlier one as seen. */
export const markSeen = (client: ApiClient, id: number) => client.post<unknown>(`${EVENTS_PATH}/${id}/seen`);
export const markRead = (client: ApiClient, id: number) => client.post<unknown>(`${EVENTS_PATH}/${id}/read`);

/** "vm_boot finished: web-1": one line for the message line. */
export function eventSummary(e: AccountEvent): string {
  const what = e.entity ? `: ${e.entity.label}` : '';
  const status = e.status === 'notification' ? '' : ` ${e.status}`;
  return `${e.action}${status}${what}${e.message ? ` (${e.message})` : ''}`;
}
