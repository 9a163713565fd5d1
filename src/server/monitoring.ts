import { randomBytes } from 'node:crypto';
import type { Store } from './store.js';
import { onJob, type Simulation } from './sim.js';
import { emitEvent } from './events.js';
import { entityUrl } from '../model/events.js';
import { isoSeconds } from '../model/time.js';
import type { ServiceStatus } from '../model/managed.js';
import { mulberry32 } from './prng.js';

/**
 * What the provider's monitoring does to managed services: first checks
 * (pending → ok), issues that open support tickets (problem) and close again,
 * and the aggregate stats graphs. With speed realistic it also breaks a
 * service now and then so a demo looks alive.
 */

export interface ServiceRecord extends Record<string, unknown> {
  id: number;
  label: string;
  status: ServiceStatus;
  credentials: number[];
  updated: string;
}

export interface IssueRecord extends Record<string, unknown> {
  id: number;
  created: string;
  entity: { id: number; label: string; type: 'ticket'; url: string };
  services: number[];
}

const FIRST_TICKET = 21400;
/** Realistic seconds from (re)enabling a service to its first check. */
const FIRST_CHECK_SECONDS = 20;

const openIssues = (store: Store) => store.all<IssueRecord>('managed_issue');

function setStatus(store: Store, service: ServiceRecord, status: ServiceStatus, now: number): ServiceRecord {
  if (service.status === status) return service;
  return store.put('managed_service', service.id, { ...service, status, updated: isoSeconds(now) });
}

/** A service that just (re)started monitoring waits for its first check. */
export function awaitFirstCheck(store: Store, sim: Simulation, service: ServiceRecord, seconds = FIRST_CHECK_SECONDS): ServiceRecord {
  sim.schedule('managed_first_check', { id: service.id }, seconds);
  return setStatus(store, service, 'pending', store.clock.now());
}

onJob('managed_first_check', (store, payload) => {
  const service = store.get<ServiceRecord>('managed_service', Number(payload.id));
  if (service?.status !== 'pending') return;
  const troubled = openIssues(store).some((i) => i.services.includes(service.id));
  setStatus(store, service, troubled ? 'problem' : 'ok', store.clock.now());
});

export function setServiceStatus(store: Store, id: number, status: ServiceStatus, now = store.clock.now()): ServiceRecord | undefined {
  const service = store.get<ServiceRecord>('managed_service', id);
  return service && setStatus(store, service, status, now);
}

/** Opens an issue (and its support ticket) on services: they turn problem, except disabled ones. */
export function openIssue(store: Store, serviceIds: number[], opts: { label?: string; username?: string; now?: number } = {}): IssueRecord {
  const now = opts.now ?? store.clock.now();
  const services = serviceIds.map((id) => store.get<ServiceRecord>('managed_service', id)).filter((s): s is ServiceRecord => s !== undefined);
  const ticket = store.nextId('ticket', FIRST_TICKET);
  const label = opts.label ?? `Managed issue: ${services.map((s) => s.label).join(', ')} not responding`;
  const issue: IssueRecord = {
    id: store.nextId('managed_issue'),
    created: isoSeconds(now),
    entity: { id: ticket, label, type: 'ticket', url: `/support/tickets/${ticket}` },
    services: services.map((s) => s.id),
  };
  store.insert('managed_issue', issue.id, issue);
  for (const s of services) if (s.status !== 'disabled') setStatus(store, s, 'problem', now);
  emitEvent(store, { action: 'ticket_create', entity: { id: ticket, label, type: 'ticket', url: entityUrl('ticket', ticket) }, username: opts.username }, now);
  return issue;
}

/** Closes an issue; its services recover unless another open issue still holds them. */
export function resolveIssue(store: Store, issueId: number, now = store.clock.now()): boolean {
  const issue = store.get<IssueRecord>('managed_issue', issueId);
  if (!issue) return false;
  store.delete('managed_issue', issueId);
  const stillTroubled = new Set(openIssues(store).flatMap((i) => i.services));
  for (const id of issue.services) {
    const service = store.get<ServiceRecord>('managed_service', id);
    if (service?.status === 'problem' && !stillTroubled.has(id)) setStatus(store, service, 'ok', now);
  }
  return true;
}

/** A deleted service leaves the issues that named it. */
export function forgetService(store: Store, serviceId: number): void {
  for (const issue of openIssues(store)) {
    if (issue.services.includes(serviceId)) store.put('managed_issue', issue.id, { ...issue, services: issue.services.filter((s) => s !== serviceId) });
  }
}

// ---- the demo's own monitoring (speed realistic only) ----

/** The stretch at the end of a long advance of the clock in which the demo's monitoring still breaks services. */
const MONITOR_REPLAY_MS = 60 * 60 * 1000;

const between = (rand: () => number, lo: number, hi: number) => lo + Math.round(rand() * (hi - lo));

/** Starts the breakage cycle: every 60–120 s an ok service has an issue for 30–90 s. Never at speed instant. */
export function startMonitoring(sim: Simulation): void {
  if (sim.speed !== 'realistic') return;
  sim.schedule('managed_monitor_tick', { round: 1 }, between(mulberry32(1), 60, 120));
}

onJob('managed_monitor_tick', (store, payload, sim) => {
  // A store seeded at speed realistic and later served at instant stops the cycle rather than spin.
  if (sim.speed !== 'realistic') return;
  const round = Number(payload.round) || 1;
  const rand = mulberry32(round * 7919);
  const healthy = store.all<ServiceRecord>('managed_service').filter((s) => s.status === 'ok');
  if (healthy.length > 0) {
    const victim = healthy[Math.floor(rand() * healthy.length)]!;
    const issue = openIssue(store, [victim.id]);
    sim.schedule('managed_monitor_resolve', { issue: issue.id }, between(rand, 30, 90));
  }
  // An advance of the clock by days or years replays only its last hour of breakage: all of it would be an issue every few minutes of it.
  const horizon = sim.horizon ?? 0;
  sim.schedule('managed_monitor_tick', { round: round + 1 }, between(rand, 60, 120), Math.max(store.clock.now(), horizon - MONITOR_REPLAY_MS));
});

onJob('managed_monitor_resolve', (store, payload) => {
  resolveIssue(store, Number(payload.issue));
});

// ---- stats ----

const FIVE_MINUTES = 5 * 60 * 1000;
const POINTS = 288;
export const STATS_SERIES = ['cpu', 'disk', 'net_in', 'net_out', 'swap'] as const;

/** Per-series scale: a daily baseline and swing, in the graphs' usual units. */
const SERIES_SHAPE: Record<(typeof STATS_SERIES)[number], { base: number; swing: number; noise: number; decimals: number }> = {
  cpu: { base: 18, swing: 14, noise: 6, decimals: 2 },
  disk: { base: 120, swing: 60, noise: 40, decimals: 2 },
  net_in: { base: 180_000, swing: 120_000, noise: 60_000, decimals: 0 },
  net_out: { base: 420_000, swing: 300_000, noise: 150_000, decimals: 0 },
  swap: { base: 2, swing: 1.5, noise: 1, decimals: 2 },
};

const STATS_SEED_KEY = 'managed_stats_seed';

/** A per-store value, made once and kept so the graphs stay the same account's graphs. */
export function storeSecret(store: Store, key: string, make: () => string): string {
  const existing = store.getMeta(key);
  if (existing !== undefined) return existing;
  const value = make();
  store.setMeta(key, value);
  return value;
}

export function setStatsSeed(store: Store, seed: number): void {
  store.setMeta(STATS_SEED_KEY, String(seed));
}

/** Hash of (seed, series, knot) to [0, 1): the value-noise lattice. */
function lattice(seed: number, series: number, knot: number): number {
  return mulberry32((seed ^ Math.imul(series + 1, 0x9e3779b1) ^ Math.imul(knot, 0x85ebca6b)) >>> 0)();
}

/** Smooth noise in [-1, 1]: cosine interpolation between half-hour knots. */
function smoothNoise(seed: number, series: number, t: number): number {
  const pos = t / (30 * 60 * 1000);
  const knot = Math.floor(pos);
  const f = (1 - Math.cos((pos - knot) * Math.PI)) / 2;
  const a = lattice(seed, series, knot);
  const b = lattice(seed, series, knot + 1);
  return (a + (b - a) * f) * 2 - 1;
}

/**
 * The last 24 hours of combined usage, one point per 5 minutes ending now. Each
 * point is a pure function of the store's seed and its time, so the graph
 * slides forward as time passes instead of being redrawn.
 */
export function managedStats(store: Store, now = store.clock.now()): Record<(typeof STATS_SERIES)[number], { x: number; y: number }[]> {
  const seed = Number(storeSecret(store, STATS_SEED_KEY, () => String(randomBytes(4).readUInt32LE(0))));
  const instances = Math.max(1, store.count('vm'));
  const last = Math.floor(now / FIVE_MINUTES) * FIVE_MINUTES;
  const times = Array.from({ length: POINTS }, (_, i) => last - (POINTS - 1 - i) * FIVE_MINUTES);
  const day = 24 * 60 * 60 * 1000;
  return Object.fromEntries(
    STATS_SERIES.map((name, series) => {
      const shape = SERIES_SHAPE[name];
      const points = times.map((x) => {
        // Busiest mid-afternoon UTC, quietest before dawn.
        const daily = Math.sin(((x % day) / day) * 2 * Math.PI - Math.PI / 2 - 0.9);
        const value = (shape.base + shape.swing * daily + shape.noise * smoothNoise(seed, series, x)) * instances;
        return { x, y: Number(Math.max(0, value).toFixed(shape.decimals)) };
      });
      return [name, points];
    }),
  ) as ReturnType<typeof managedStats>;
}
