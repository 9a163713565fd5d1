import { isoSeconds } from '../model/time.js';

/**
 * The account's clock: wall time plus an offset, or frozen at one instant. A
 * test moves it forward (POST /__control/clock) and every time-based thing of
 * the account follows: lifecycles, timestamps, expiries, monitoring.
 *
 * Its state is kept in the store's meta, written in the transaction that
 * changes it: a restarted service keeps the account's time, and services
 * sharing a data file share it (each reads it back before serving, see
 * `sync`). It never goes backwards, not even when the machine's clock does.
 */

const META_KEY = 'clock';

/** Job order keeps millisecond precision (sim.ts: ord = due * 1000 + …) up to about 2255: the clock stops well short of that. */
export const CLOCK_END_MS = Date.UTC(2200, 0, 1);

interface StoredClock {
  offset_ms: number;
  /** The instant it stands at, while frozen. */
  frozen_at: number | null;
}

export interface ClockState {
  now: string;
  frozen: boolean;
  /** How far the account's time is ahead of the machine's (negative after a freeze that lasted). */
  offset_seconds: number;
}

const isStoredClock = (v: unknown): v is StoredClock =>
  typeof v === 'object' &&
  v !== null &&
  Number.isFinite((v as StoredClock).offset_ms) &&
  ((v as StoredClock).frozen_at === null || Number.isFinite((v as StoredClock).frozen_at));

function readJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where the clock keeps its state: the store's meta (the store makes its clock, so this names only what the clock uses of it). */
export interface ClockMeta {
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
}

export class Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  /** The latest time handed out: the floor of every later one. */
  private latest = -Infinity;
  /** The meta text this state was read from or written as, so `sync` parses only what changed; null: unknown, read it again. */
  private stored: string | undefined | null = null;

  constructor(private readonly store: ClockMeta) {
    this.sync();
  }

  /** The account's time, in milliseconds since the epoch. */
  now(): number {
    const t = this.frozenAt ?? Date.now() + this.offsetMs;
    if (t > this.latest) this.latest = t;
    return this.latest;
  }

  /** The account's time as the API writes timestamps. */
  iso(): string {
    return isoSeconds(this.now());
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  state(): ClockState {
    const now = this.now();
    return { now: new Date(now).toISOString(), frozen: this.frozen, offset_seconds: (now - Date.now()) / 1000 };
  }

  /** Moves the clock to `t` (never back), frozen or running as it is; written in the caller's transaction. */
  moveTo(t: number): void {
    const target = Math.max(t, this.now());
    if (this.frozenAt !== null) this.frozenAt = target;
    else this.offsetMs = target - Date.now();
    this.latest = target;
    this.save();
  }

  /**
   * Sets a new account's time to another's (an imported account's source),
   * behind the machine's too: only before anything has read the clock, since
   * it never goes back on a time handed out.
   */
  startAt(t: number): void {
    if (this.latest !== -Infinity) throw new Error('the clock was read already: it can only move forward');
    this.offsetMs = t - Date.now();
    this.save();
  }

  /** Stops the clock where it is, or lets it run on from there. */
  setFrozen(frozen: boolean): void {
    if (frozen === this.frozen) return;
    const now = this.now();
    if (frozen) this.frozenAt = now;
    else {
      this.frozenAt = null;
      this.offsetMs = now - Date.now();
    }
    this.save();
  }

  /** A way back to the state as it is now, for when the transaction that moves it is rolled back. */
  checkpoint(): () => void {
    const { offsetMs, frozenAt, latest } = this;
    return () => {
      Object.assign(this, { offsetMs, frozenAt, latest });
      // Read the meta again at the next sync: whatever of the change was committed is there.
      this.stored = null;
    };
  }

  /** Writes the state to the meta, e.g. again after a snapshot's restore put an older one there. */
  save(): void {
    this.stored = JSON.stringify({ offset_ms: this.offsetMs, frozen_at: this.frozenAt } satisfies StoredClock);
    this.store.setMeta(META_KEY, this.stored);
  }

  /**
   * Takes the state another service on the same file (or a rolled-back
   * transaction) left in the meta; the time handed out so far stays the floor.
   */
  sync(): void {
    const text = this.store.getMeta(META_KEY);
    if (text === this.stored) return;
    this.stored = text;
    const parsed = readJson(text);
    const state = isStoredClock(parsed) ? parsed : { offset_ms: 0, frozen_at: null };
    this.offsetMs = state.offset_ms;
    this.frozenAt = state.frozen_at;
  }
}
