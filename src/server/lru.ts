/**
 * A cache that forgets its least recently used entries once it holds more than
 * `maxEntries`, or more than `maxWeight` by `weigh`: caches keyed by what
 * clients send (a filter's shape) stay bounded whatever the stream of requests.
 * A Map keeps insertion order, so re-inserting on use keeps it in use order.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private weight = 0;

  constructor(
    readonly maxEntries: number,
    private readonly weigh: (value: V, key: K) => number = () => 0,
    readonly maxWeight = Infinity,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value, key);
    // One entry heavier than the whole budget would only push everything else out.
    if (weight > this.maxWeight) return;
    this.entries.set(key, value);
    this.weight += weight;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.weight -= this.weigh(old, oldest);
    }
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weigh(value, key);
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}
