import { describeError } from '../api/errors.js';

/** How many requests of a bulk action are in flight at once: as many as a list's pages load. */
export const BULK_CONCURRENCY = 4;

export interface BulkOutcome<T> {
  succeeded: T[];
  failed: { item: T; reason: string }[];
  /** Never sent: the run was stopped before their turn. */
  notStarted: T[];
}

export interface BulkRun<T> {
  /** Starts no more items; those already sent are still awaited and reported. */
  stop(): void;
  done: Promise<BulkOutcome<T>>;
}

/**
 * Runs `work` once per item, at most `concurrency` at a time, in the items'
 * order. Each item is sent at most once: a failure is reported, never
 * retried. `progress` is called as each one settles.
 */
export function runBulk<T>(items: readonly T[], work: (item: T) => Promise<unknown>, progress: (done: number, failed: number) => void = () => {}, concurrency = BULK_CONCURRENCY): BulkRun<T> {
  const outcome: BulkOutcome<T> = { succeeded: [], failed: [], notStarted: [] };
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
        outcome.succeeded.push(item);
      } catch (err) {
        outcome.failed.push({ item, reason: describeError(err) });
      }
      progress(outcome.succeeded.length + outcome.failed.length, outcome.failed.length);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker);
  const done = Promise.all(workers).then(() => {
    outcome.notStarted = items.slice(next);
    return outcome;
  });
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/** "Delete" → "Deleting", "Shut down" → "Shutting down": the progress line of an action named by its label. */
export function gerund(label: string): string {
  const [word = '', ...rest] = label.split(' ');
  const lower = word.toLowerCase();
  let ing: string;
  if (lower.endsWith('e') && !lower.endsWith('ee')) ing = `${word.slice(0, -1)}ing`;
  // One syllable ending consonant-vowel-consonant doubles its last letter: shut, stop.
  else if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(lower)) ing = `${word}${word.slice(-1)}ing`;
  else ing = `${word}ing`;
  return [ing, ...rest].join(' ');
}
