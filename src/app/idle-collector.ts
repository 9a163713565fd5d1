/**
 * The young generation's garbage collected while the operator reads, not
 * while a key waits for its frame: as a browser collects between frames.
 *
 * Every frame allocates (a key about half a megabyte, a refresh of a long
 * list many), and V8 collects the young generation when it is full, which
 * on a key means a 3–8 ms pause inside that key's frame, one key in twenty
 * or so. After a frame and IDLE_MS without another, if what is left of the
 * young generation would not hold a few more keys, it is collected then.
 * That collection was due anyway (its cost is what survives, the same a
 * moment later); only its moment moves. Nothing runs while nothing draws.
 */

import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Longer than the gap between a held key's repeats (30–50 ms) and a typist's keys: the collection waits out a burst.
const IDLE_MS = 150;
// A few keys' allocation (0.45 MB each on a long list, an xray's opening about 1 MB).
const HEADROOM_BYTES = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor' | 'major' }) => void;

/**
 * V8's `gc`, taken without putting it on the app's global: the flag exposes
 * it only in contexts made after it is set, and is set back at once.
 */
function v8Collector(): Collect | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const collect: unknown = runInNewContext('gc');
    return typeof collect === 'function' ? (collect as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

export interface IdleCollector {
  /** A frame was drawn: look again once the app has been idle for a while. */
  drawn(): void;
  dispose(): void;
}

export function createIdleCollector({ idleMs = IDLE_MS, headroomBytes = HEADROOM_BYTES, collect = v8Collector(), youngFree = youngGenerationFree } = {}): IdleCollector {
  if (!collect) return { drawn() {}, dispose() {} };
  const look = () => {
    if (youngFree() < headroomBytes) collect({ type: 'minor' });
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    drawn() {
      // One timer for the whole run: refresh() moves its deadline, and brings it back once it has fired.
      if (timer) timer.refresh();
      else timer = setTimeout(look, idleMs).unref();
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}

/** Bytes the young generation can still take before V8 must collect it. */
function youngGenerationFree(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_available_size ?? Number.POSITIVE_INFINITY;
}
