import { Pool } from 'undici';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * `clients` (50) clients for `seconds`. Without a rate each sends its next request as soon
 * as the last one is answered: the most the service can do. With a rate the
 * clients share it, each on its own schedule, and a latency counts from when
 * the request was due, so a stalled service is not excused by the requests it
 * delayed (no coordinated omission).
 */
export async function load(origin: string, seconds: number, makeRequest: (pool: Pool, i: number) => Promise<number>, ratePerSecond?: number, clients = 50) {
  const pool = new Pool(origin, { connections: clients, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const interval = ratePerSecond ? (clients / ratePerSecond) * 1000 : 0;
  let seq = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      let due = start + (interval * client) / clients;
      while (performance.now() < deadline) {
        if (interval) {
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        const t0 = interval ? due : performance.now();
        const status = await makeRequest(pool, seq++);
        latencies.push(performance.now() - t0);
        if (status >= 400) failures++;
        due += interval;
      }
    }),
  );
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures, count: latencies.length };
}

