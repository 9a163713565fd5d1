import { describe, expect, it } from 'vitest';
import { gerund, runBulk } from '../../src/app/bulk.js';
import { ApiError } from '../../src/api/errors.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('runBulk', () => {
  it('keeps at most 4 in flight, sends each item once, in order, and reports each failure with its reason', async () => {
    let inFlight = 0;
    let most = 0;
    const sent: number[] = [];
    const progress: [number, number][] = [];
    const items = Array.from({ length: 20 }, (_, i) => i);
    const outcome = await runBulk(
      items,
      async (i) => {
        sent.push(i);
        most = Math.max(most, ++inFlight);
        await tick();
        inFlight--;
        if (i % 7 === 3) throw new ApiError('http', `HTTP 500: item ${i} failed`, 500);
      },
      (done, failed) => progress.push([done, failed]),
    ).done;
    expect(most).toBe(4);
    expect(sent).toEqual(items);
    expect(outcome.succeeded).toHaveLength(17);
    expect(outcome.failed).toEqual([3, 10, 17].map((i) => ({ item: i, reason: `HTTP 500: item ${i} failed` })));
    expect(outcome.notStarted).toEqual([]);
    expect(progress.at(-1)).toEqual([20, 3]);
    expect(progress.map(([d]) => d)).toEqual(items.map((i) => i + 1));
  });

  it('stop starts no more: those in flight finish and are counted, the rest are reported not started', async () => {
    const sent: number[] = [];
    const run = runBulk(Array.from({ length: 10 }, (_, i) => i), async (i) => {
      sent.push(i);
      await tick();
    });
    run.stop();
    const outcome = await run.done;
    expect(sent).toEqual([0, 1, 2, 3]);
    expect(outcome.succeeded).toEqual([0, 1, 2, 3]);
    expect(outcome.notStarted).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it('an empty list is done at once', async () => {
    expect(await runBulk([], async () => {}).done).toEqual({ succeeded: [], failed: [], notStarted: [] });
  });
});

describe('gerund', () => {
  it('names the work under way from the action label', () => {
    expect(['Delete', 'Revoke', 'Remove', 'Boot', 'Reboot', 'Shut down', 'Enable backups', 'Add a tag', 'Disable monitoring', 'Mark read', 'Stop'].map(gerund)).toEqual([
      'Deleting',
      'Revoking',
      'Removing',
      'Booting',
      'Rebooting',
      'Shutting down',
      'Enabling backups',
      'Adding a tag',
      'Disabling monitoring',
      'Marking read',
      'Stopping',
    ]);
  });
});
