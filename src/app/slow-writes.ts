import type { RequestLog, RequestRecord } from '../api/request-log.js';
import type { MessageKind } from '../store/session.js';

/** A write without an answer for this long is said to be waiting; then again every EVERY_MS while it waits. */
export const SLOW_WRITE_MS = 3000;
export const EVERY_MS = 10_000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * Says in the message line that a change sent to the server has had no
 * answer yet, while it waits: on a slow server the user sees the app waiting,
 * not stuck, and knows the change went out once and will not go out again (a
 * write is never retried). Keys keep working meanwhile.
 */
export function watchSlowWrites(log: RequestLog, notify: (text: string, kind?: MessageKind) => void, firstMs = SLOW_WRITE_MS, everyMs = EVERY_MS): () => void {
  const timers = new Map<number, NodeJS.Timeout>();
  const pending = (r: RequestRecord) => r.duration === undefined;
  const remind = (r: RequestRecord, after: number) => {
    const timer = setTimeout(() => {
      timers.delete(r.id);
      if (!pending(r)) return;
      notify(`Still waiting for the server: ${r.method} ${r.path} was sent ${seconds(Date.now() - r.started)} ago and has no answer yet; it is sent once, never again`);
      remind(r, everyMs);
    }, after);
    // A write still waiting must not keep the app's process alive once it quits.
    timer.unref();
    timers.set(r.id, timer);
  };
  const unsubscribe = log.subscribe(() => {
    const r = log.latest();
    if (r && r.method !== 'GET' && pending(r) && !timers.has(r.id)) remind(r, firstMs);
  });
  return () => {
    unsubscribe();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}
