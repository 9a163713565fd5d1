import { describe, expect, it } from 'vitest';
import { addressWithin } from '../../src/app/start.js';

const connection = { baseUrl: 'http://127.0.0.1:4000/v4', betaUrl: 'http://127.0.0.1:4000/v4beta', token: 't' };
const after = <T,>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('the embedded service address before the first frame', () => {
  it('is taken as soon as it comes within the wait', async () => {
    const t0 = performance.now();
    expect(await addressWithin(after(30, connection), 5000)).toBe(connection.baseUrl);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('is waited for no longer than the wait', async () => {
    const t0 = performance.now();
    expect(await addressWithin(new Promise(() => {}), 40)).toBeUndefined();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });

  it('is not waited for when the service failed (its failure is reported apart)', async () => {
    const t0 = performance.now();
    expect(await addressWithin(Promise.reject(new Error('no port')), 5000)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
