import { issueToken, type Grants, type User } from '../../src/server/auth.js';
import type { RunningService } from '../../src/server/service.js';

/**
 * Rows the images, scripts and tags tests need from other areas, written
 * directly in the shapes of response-shapes §3.1 and §3.2, so these tests do
 * not depend on the compute or balancer endpoints.
 */

const STAMP = '2026-11-01T10:00:00';

export interface DiskSpec {
  id: number;
  label: string;
  size?: number;
  filesystem?: string;
  status?: string;
}

export function addInstance(svc: RunningService, id: number, opts: { label?: string; tags?: string[]; disks?: DiskSpec[] } = {}): void {
  svc.store.tx(() => {
    svc.store.insert('vm', id, {
      id,
      label: opts.label ?? `vm-${id}`,
      group: '',
      region: 'us-east',
      type: 'g6-standard-1',
      image: 'vm/debian12',
      tags: opts.tags ?? [],
      status: 'running',
      hypervisor: 'kvm',
      created: STAMP,
      updated: STAMP,
      ipv4: [`192.0.2.${id % 250}`],
      ipv6: null,
      specs: { disk: 51200, memory: 2048, vcpus: 1, transfer: 2000 },
      alerts: { cpu: 90, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
      backups: { enabled: false, schedule: { day: null, window: null }, last_successful: null },
      watchdog_enabled: true,
      _root_pass_hash: 'internal',
    });
    for (const d of opts.disks ?? []) {
      svc.store.insert(
        'disk',
        d.id,
        { id: d.id, label: d.label, status: d.status ?? 'ready', size: d.size ?? 25000, filesystem: d.filesystem ?? 'ext4', created: STAMP, updated: STAMP },
        { parent: String(id) },
      );
    }
  });
}

export function addNodeBalancer(svc: RunningService, id: number, opts: { label?: string; tags?: string[] } = {}): void {
  svc.store.tx(() => {
    svc.store.insert('nodebalancer', id, {
      id,
      label: opts.label ?? `nb-${id}`,
      region: 'us-east',
      hostname: `nb-${id}.us-east.nodebalancer.example.com`,
      ipv4: `198.51.100.${id % 250}`,
      ipv6: null,
      client_conn_throttle: 0,
      created: STAMP,
      updated: STAMP,
      tags: opts.tags ?? [],
      transfer: { in: null, out: null, total: null },
    });
  });
}

/** Edits the restricted user's (id 2) grants in place. */
export function setGrants(svc: RunningService, edit: (grants: Grants) => void): void {
  svc.store.tx(() => {
    const user = svc.store.get<User>('user', 2)!;
    edit(user.grants!);
    svc.store.put('user', 2, user);
  });
}

/** A token of the owner with only the given scopes. */
export function scopedToken(svc: RunningService, value: string, scopes: string): string {
  svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: `test ${scopes}`, scopes }));
  return value;
}
