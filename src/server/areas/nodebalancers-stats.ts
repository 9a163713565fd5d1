import { parseApiTime } from '../../model/time.js';
import type { BalancerRecord } from './nodebalancers-records.js';

type Series = [number, number][];

export interface BalancerStats {
  data: { connections: Series; traffic: { in: Series; out: Series } };
  title: string;
}

const STEP_MS = 5 * 60 * 1000;
const DAY_POINTS = 24 * 12;

/** A stable number in [0, 1) for a balancer and a 5-minute slot, so a point keeps its value between requests. */
function unit(seed: number, slot: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(slot, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The last 24 hours at 5-minute averages, from the balancer's creation at the
 * earliest: a daily curve peaking mid-afternoon UTC plus noise, scaled per
 * balancer. A balancer without configs serves nothing, so its series are empty.
 */
export function balancerStats(nb: BalancerRecord, configured: boolean, now: number): BalancerStats {
  const title = `vmcloud.example - ${nb.label} (${nb.id}) - day (5 min avg)`;
  const connections: Series = [];
  const inbound: Series = [];
  const outbound: Series = [];
  if (configured) {
    const end = Math.floor(now / STEP_MS) * STEP_MS;
    const start = Math.max(end - (DAY_POINTS - 1) * STEP_MS, Math.ceil(parseApiTime(nb.created) / STEP_MS) * STEP_MS);
    const level = 3 + (nb.id % 9) * 2;
    for (let t = start; t <= end; t += STEP_MS) {
      const slot = t / STEP_MS;
      const hour = (t / 3_600_000) % 24;
      const daily = 1 + 0.6 * Math.sin((2 * Math.PI * (hour - 9)) / 24);
      const conns = level * daily * (0.75 + 0.5 * unit(nb.id, slot));
      const bitsIn = conns * (380 + 120 * unit(nb.id + 7919, slot));
      connections.push([t, round2(conns)]);
      inbound.push([t, round2(bitsIn)]);
      outbound.push([t, round2(bitsIn * (0.12 + 0.1 * unit(nb.id + 104729, slot)))]);
    }
  }
  return { data: { connections, traffic: { in: inbound, out: outbound } }, title };
}
