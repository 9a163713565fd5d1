import type { Store } from './store.js';
import { isoSeconds } from '../model/time.js';
import type { EntityRef, EventRecord, EventStatus } from '../model/events.js';

export type { EntityRef, EventStatus };

export interface AccountEvent extends EventRecord, Record<string, unknown> {}

export interface NewEvent {
  action: string;
  entity: EntityRef | null;
  status?: EventStatus;
  username?: string;
  secondary_entity?: EntityRef | null;
  message?: string | null;
}

/** Records an account event; started events are finished later by `finishEvent`. */
export function emitEvent(store: Store, e: NewEvent, now = store.clock.now()): AccountEvent {
  const id = store.nextId('event');
  const status = e.status ?? 'notification';
  const event: AccountEvent = {
    id,
    action: e.action,
    created: isoSeconds(now),
    duration: status === 'started' ? null : 0,
    entity: e.entity,
    secondary_entity: e.secondary_entity ?? null,
    percent_complete: status === 'notification' ? null : status === 'started' ? 0 : 100,
    rate: null,
    read: false,
    seen: false,
    status,
    time_remaining: null,
    username: e.username ?? 'system',
    message: e.message ?? null,
  };
  store.insert('event', id, event);
  return event;
}

export function finishEvent(store: Store, id: number, status: 'finished' | 'failed' = 'finished', now = store.clock.now()): void {
  const event = store.get<AccountEvent>('event', id);
  if (!event) return;
  // `created` has whole seconds: the time it drops is less than one, so the whole seconds since it are the duration.
  const started = Date.parse(`${event.created}Z`);
  store.put('event', id, { ...event, status, percent_complete: 100, duration: Math.max(0, Math.floor((now - started) / 1000)) });
}
