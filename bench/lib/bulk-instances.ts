import type { RunningService } from '../../src/server/service.js';

/**
 * Adds `count` instances to a service's store, each with a config and two
 * disks, copied from its first instance in one transaction. Each is keyed by
 * its label, as the service keys the instances it makes.
 */
export function addInstances(svc: RunningService, count: number): void {
  const { store } = svc;
  store.tx(() => {
    const vm = store.all<Record<string, unknown> & { id: number }>('vm')[0]!;
    const config = store.all<Record<string, unknown>>('config', String(vm.id))[0]!;
    const disk = store.all<Record<string, unknown>>('disk', String(vm.id))[0]!;
    for (let i = 0; i < count; i++) {
      const id = 1_000_000 + i;
      store.insert('vm', id, { ...vm, id, label: `bulk-${i}` }, { key: `bulk-${i}` });
      store.insert('config', 2_000_000 + i, { ...config, id: 2_000_000 + i }, { parent: String(id) });
      for (const d of [0, 1]) store.insert('disk', 3_000_000 + 2 * i + d, { ...disk, id: 3_000_000 + 2 * i + d }, { parent: String(id) });
    }
  });
}
