import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import type { Job } from '../../src/server/sim.js';
import { parseApiTime } from '../../src/model/time.js';

/** The demo's managed account, and the monitoring that keeps it moving at speed realistic. */

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo', speed: 'realistic' });
});
afterAll(() => svc.close());

const jobs = (type: string) => svc.store.all<Job & Record<string, unknown>>('job').filter((j) => j.type === type);
const statuses = async () => ((await call(svc, 'GET', '/managed/services')).body.data as { status: string }[]).map((s) => s.status).sort();
const issues = async () => (await call(svc, 'GET', '/managed/issues')).body.data as { id: number; created: string; services: number[] }[];

/** Makes a queued job due now (its due time and its sort key, as Simulation.schedule stores them) and runs what is due. */
function makeDue(store: RunningService['store'], job: Job): void {
  store.tx(() => {
    store.delete('job', job.id);
    store.insert('job', job.id, { ...job, due: 0 } as unknown as Record<string, unknown>, { ord: 0 });
  });
}
function runNow(job: Job): void {
  makeDue(svc.store, job);
  svc.sim.runDue();
}

describe('managed demo data', () => {
  it('has contacts in groups with phones, credentials, and services in every state', async () => {
    const contacts = (await call(svc, 'GET', '/managed/contacts')).body.data as { group: string; phone: { primary: string } }[];
    expect(contacts.length).toBeGreaterThanOrEqual(4);
    expect(new Set(contacts.map((c) => c.group)).size).toBeGreaterThanOrEqual(2);
    expect(contacts.every((c) => c.phone.primary)).toBe(true);
    expect((await call(svc, 'GET', '/managed/credentials')).body.results).toBeGreaterThanOrEqual(3);
    expect(await statuses()).toEqual(['disabled', 'ok', 'ok', 'ok', 'ok', 'pending', 'problem', 'problem']);
    const services = (await call(svc, 'GET', '/managed/services')).body.data as { service_type: string; region: string | null }[];
    expect(new Set(services.map((s) => s.service_type))).toEqual(new Set(['url', 'tcp']));
    expect(services.filter((s) => s.region !== null)).toHaveLength(1);
  });

  it('has two issues detected minutes ago, and the history in events', async () => {
    const open = await issues();
    expect(open).toHaveLength(2);
    for (const i of open) expect(Date.now() - parseApiTime(i.created)).toBeLessThan(30 * 60_000);
    const events = (await call(svc, 'GET', '/account/events', { filter: { 'entity.type': 'managed_service' } })).body.data as { action: string }[];
    expect(events.filter((e) => e.action === 'managed_service_create')).toHaveLength(8);
    expect((await call(svc, 'GET', '/account/events', { filter: { action: 'ticket_create' } })).body.results).toBe(2);
  });

  it('overrides access settings on up to three instances', async () => {
    const settings = (await call(svc, 'GET', '/managed/vm-settings')).body.data as { ssh: { user: string; port: number; access: boolean } }[];
    const changed = settings.filter((s) => s.ssh.user !== 'root' || s.ssh.port !== 22 || !s.ssh.access);
    expect(changed.length).toBe(Math.min(3, settings.length));
  });
});

describe('demo monitoring at speed realistic', () => {
  it('breaks an ok service every 60–120 s and mends it 30–90 s later', async () => {
    const [tick] = jobs('managed_monitor_tick');
    expect(tick).toBeDefined();
    expect(tick!.due - Date.now()).toBeGreaterThan(55_000);
    expect(tick!.due - Date.now()).toBeLessThanOrEqual(120_000);

    runNow(tick!);
    const open = await issues();
    expect(open).toHaveLength(3);
    expect(await statuses()).toEqual(['disabled', 'ok', 'ok', 'ok', 'pending', 'problem', 'problem', 'problem']);
    const [resolve] = jobs('managed_monitor_resolve');
    expect(resolve!.due - Date.now()).toBeGreaterThan(25_000);
    expect(resolve!.due - Date.now()).toBeLessThanOrEqual(90_000);
    expect(jobs('managed_monitor_tick')).toHaveLength(1);

    runNow(resolve!);
    expect(await issues()).toHaveLength(2);
    expect(await statuses()).toEqual(['disabled', 'ok', 'ok', 'ok', 'ok', 'pending', 'problem', 'problem']);
  });

  it('persists across a restart, and stops (rather than spins) when the store is served at speed instant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-monitor-'));
    const data = join(dir, 'store.sqlite');
    try {
      const first = await startTestService({ data, seed: 'demo', speed: 'realistic' });
      const tick = first.store.all<Job & Record<string, unknown>>('job').find((j) => j.type === 'managed_monitor_tick')!;
      await first.close();
      const second = await startTestService({ data, seed: 'demo', speed: 'instant' });
      try {
        const kept = second.store.get<Job & Record<string, unknown>>('job', tick.id)!;
        expect(kept).toMatchObject({ type: 'managed_monitor_tick', due: tick.due });
        makeDue(second.store, kept);
        second.sim.runDue();
        expect(second.store.all<Job & Record<string, unknown>>('job').filter((j) => j.type.startsWith('managed_monitor'))).toHaveLength(0);
        expect((await call(second, 'GET', '/managed/issues')).body.results).toBe(2);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never runs at speed instant', async () => {
    const instant = await startTestService({ seed: 'demo', speed: 'instant' });
    try {
      expect(instant.store.all<Job & Record<string, unknown>>('job').filter((j) => j.type.startsWith('managed_monitor'))).toHaveLength(0);
      // The pending service's first check is due at once.
      const list = (await call(instant, 'GET', '/managed/services')).body.data as { status: string }[];
      expect(list.filter((s) => s.status === 'pending')).toHaveLength(0);
    } finally {
      await instant.close();
    }
  });
});
