import { PerformanceObserver } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIdleCollector } from '../../src/app/idle-collector.js';

const MB = 1024 * 1024;

describe('the idle collector', () => {
  afterEach(() => vi.useRealTimers());

  it('collects the young generation once frames stop, and only when little of it is left', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    let free = 1 * MB;
    const collector = createIdleCollector({ idleMs: 150, headroomBytes: 4 * MB, collect, youngFree: () => free });
    collector.drawn();
    vi.advanceTimersByTime(100);
    // A frame in the burst moves the collection past it.
    collector.drawn();
    vi.advanceTimersByTime(100);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collect).toHaveBeenCalledWith({ type: 'minor' });
    // Once it has fired, the next frame arms it again; room enough for a few keys: nothing to do.
    free = 8 * MB;
    collector.drawn();
    vi.advanceTimersByTime(200);
    expect(collect).toHaveBeenCalledTimes(1);
    free = 2 * MB;
    collector.drawn();
    vi.advanceTimersByTime(200);
    expect(collect).toHaveBeenCalledTimes(2);
    // Idle without frames: no timer runs, nothing is looked at.
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(2);
    collector.drawn();
    collector.dispose();
    vi.advanceTimersByTime(200);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it("runs V8's own minor collection, and leaves no gc on the global", async () => {
    /** The kinds of collection V8 ran while a collector with this headroom went idle after a frame. */
    const collections = async (headroomBytes: number) => {
      const kinds: number[] = [];
      const observer = new PerformanceObserver((list) => kinds.push(...list.getEntries().map((e) => (e.detail as { kind: number }).kind)));
      observer.observe({ entryTypes: ['gc'] });
      const collector = createIdleCollector({ idleMs: 10, headroomBytes });
      collector.drawn();
      await new Promise((r) => setTimeout(r, 100));
      collector.dispose();
      await new Promise((r) => setTimeout(r, 50));
      observer.disconnect();
      return kinds;
    };
    // The control: a young generation never short of room is left alone.
    expect(await collections(0)).toEqual([]);
    // NODE_PERFORMANCE_GC_MINOR: a scavenge, not a full collection (4).
    expect(await collections(Number.POSITIVE_INFINITY)).toEqual([1]);
    expect('gc' in globalThis).toBe(false);
  });
});
