import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { seedComputeDemo } from '../../src/server/seed/demo-compute.js';
import { Store } from '../../src/server/store.js';
import { Simulation } from '../../src/server/sim.js';
import { seedReference } from '../../src/server/seed/reference.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo', speed: 'realistic' });
});
afterAll(() => svc.close());

describe('compute demo data', () => {
  it('has about twenty instances across regions and plans, mostly running, one provisioning and one booting', async () => {
    const all = (await call(svc, 'GET', '/vm/instances')).body.data;
    expect(all.length).toBeGreaterThanOrEqual(18);
    expect(new Set(all.map((v: any) => v.region)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(all.map((v: any) => v.type)).size).toBeGreaterThanOrEqual(6);
    const statuses = all.map((v: any) => v.status);
    expect(statuses.filter((s: string) => s === 'running').length).toBeGreaterThan(all.length / 2);
    expect(statuses).toContain('offline');
    expect(statuses.filter((s: string) => s === 'provisioning')).toHaveLength(1);
    expect(statuses.filter((s: string) => s === 'booting')).toHaveLength(1);
    expect(all.find((v: any) => v.label === 'db-primary')).toMatchObject({ tags: ['database', 'production'], backups: { enabled: true } });
  });

  it('gives web and api instances private addresses for the balancer demo', async () => {
    const tiers = (await call(svc, 'GET', '/vm/instances', { filter: { '+or': [{ tags: 'web' }, { tags: 'api' }] } })).body.data;
    const withPrivate = tiers.filter((v: any) => v.ipv4.some((a: string) => a.startsWith('192.168.')));
    expect(withPrivate.length).toBeGreaterThanOrEqual(6);
  });

  it('has automatic backups and a current snapshot on the primary database, and past events', async () => {
    const db = (await call(svc, 'GET', '/vm/instances', { filter: { label: 'db-primary' } })).body.data[0];
    const backups = (await call(svc, 'GET', `/vm/instances/${db.id}/backups`)).body;
    expect(backups.automatic).toHaveLength(3);
    expect(backups.snapshot.current).toMatchObject({ type: 'snapshot', status: 'successful', label: 'before-pg16-upgrade' });
    expect(db.backups.last_successful).toBe(backups.automatic[2].finished);
    const finished = svc.store.all<any>('event').filter((e) => e.action === 'vm_create' && e.status === 'finished');
    expect(finished.length).toBeGreaterThanOrEqual(3);
  });

  it('finishes the in-flight provisioning and boot a few seconds later', async () => {
    svc.sim.advance(30_000);
    const all = (await call(svc, 'GET', '/vm/instances')).body.data;
    const build = all.find((v: any) => v.label === 'build-box');
    expect(build.status).toBe('running');
    expect(all.find((v: any) => v.label === 'dev-sandbox').status).toBe('running');
    const disks = (await call(svc, 'GET', `/vm/instances/${build.id}/disks`)).body.data;
    expect(disks.every((d: any) => d.status === 'ready')).toBe(true);
  });

  it('is deterministic and fast', () => {
    const labelsOf = () => {
      const store = new Store(':memory:');
      const started = performance.now();
      store.tx(() => {
        seedReference(store);
        seedComputeDemo(store, new Simulation(store, 'realistic'));
      });
      const took = performance.now() - started;
      const rows = store.all<any>('vm').map((v) => [v.id, v.label, v.status, v.ipv6, store.all<any>('ip', String(v.id)).map((ip) => ip.address)]);
      store.close();
      return { rows, took };
    };
    const a = labelsOf();
    const b = labelsOf();
    expect(b.rows).toEqual(a.rows);
    expect(a.took).toBeLessThan(300);
  });
});
