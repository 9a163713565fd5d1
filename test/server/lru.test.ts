import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/server/lru.js';

describe('LruCache', () => {
  it('forgets the least recently used entry beyond its count', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.size]).toEqual([1, 3, 2]);
  });

  it('forgets by weight, and keeps no entry heavier than the whole budget', () => {
    const cache = new LruCache<string, string>(100, (v) => v.length, 10);
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    cache.set('c', 'zzzz');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.totalWeight).toBe(8);
    cache.set('huge', 'w'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('b', 'y');
    expect(cache.totalWeight).toBe(5);
    cache.clear();
    expect([cache.size, cache.totalWeight]).toEqual([0, 0]);
  });
});
