import type { ImageRecord } from '../../model/images.js';
import type { InstanceStatus } from '../../model/instances.js';
import { applyLayout, imageLayout, insertBackup, insertInstance } from '../areas/instance-build.js';
import type { InstanceRecord } from '../areas/instance-common.js';
import { bootInto, scheduleProvisioning } from '../areas/instance-lifecycle.js';
import { vmEntity } from '../areas/vm-refs.js';
import { emitEvent, finishEvent } from '../events.js';
import type { Simulation } from '../sim.js';
import type { Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';
import type { InstanceTypeRecord } from './reference.js';

type Demo = [
  label: string,
  region: string,
  type: string,
  image: string | null,
  status: InstanceStatus,
  tags: string[],
  group: string,
  privateIp: boolean,
  backups: boolean,
];

/** A lived-in account: web and API tiers with private addresses (the balancer demo uses them), databases with backups, odds and ends. */
const INSTANCES: Demo[] = [
  ['web-1', 'us-east', 'g6-standard-2', 'vm/debian12', 'running', ['web', 'production'], 'web', true, false],
  ['web-2', 'us-east', 'g6-standard-2', 'vm/debian12', 'running', ['web', 'production'], 'web', true, false],
  ['web-3', 'us-east', 'g6-standard-2', 'vm/debian12', 'running', ['web', 'production'], 'web', true, false],
  ['api-1', 'us-east', 'g6-standard-4', 'vm/ubuntu24.04', 'running', ['api', 'production'], 'api', true, false],
  ['api-2', 'us-east', 'g6-standard-4', 'vm/ubuntu24.04', 'running', ['api', 'production'], 'api', true, false],
  ['api-eu-1', 'eu-central', 'g6-standard-4', 'vm/ubuntu24.04', 'running', ['api', 'eu'], 'api', true, false],
  ['db-primary', 'us-east', 'g6-dedicated-4', 'vm/debian12', 'running', ['database', 'production'], 'data', true, true],
  ['db-replica', 'us-east', 'g6-dedicated-4', 'vm/debian12', 'running', ['database', 'production'], 'data', true, true],
  ['cache-1', 'us-east', 'g7-highmem-1', 'vm/debian12', 'running', ['cache', 'production'], 'data', true, false],
  ['worker-1', 'us-central', 'g6-standard-6', 'vm/rocky9', 'running', ['worker'], 'batch', false, false],
  ['worker-2', 'us-central', 'g6-standard-6', 'vm/rocky9', 'offline', ['worker'], 'batch', false, false],
  ['ci-runner', 'eu-west', 'g6-dedicated-2', 'vm/ubuntu22.04', 'running', ['ci'], 'tools', false, false],
  ['staging-web', 'eu-west', 'g6-standard-1', 'vm/debian11', 'offline', ['staging', 'web'], 'web', false, false],
  ['vpn-gateway', 'eu-central', 'g6-nanode-1', 'vm/alpine3.20', 'running', ['network'], 'ops', false, false],
  ['monitoring', 'eu-central', 'g6-standard-2', 'vm/ubuntu24.04', 'running', ['ops'], 'ops', false, true],
  ['bastion-ap', 'ap-south', 'g6-nanode-1', 'vm/debian12', 'running', ['ops', 'network'], 'ops', false, false],
  ['ml-trainer', 'us-east', 'g1-gpu-rtx6000-1', 'vm/ubuntu22.04', 'offline', ['ml'], 'research', false, false],
  ['legacy-crm', 'us-west', 'g6-standard-1', 'vm/centos7', 'offline', ['legacy'], 'legacy', false, false],
  ['rescue-lab', 'us-west', 'g6-nanode-1', null, 'offline', [], '', false, false],
  ['build-box', 'us-west', 'g6-standard-4', 'vm/ubuntu24.04', 'provisioning', ['ci'], 'tools', false, false],
  ['dev-sandbox', 'ap-south', 'g6-standard-1', 'vm/arch', 'booting', ['dev'], '', false, false],
];

const DAY_MS = 24 * 60 * 60 * 1000;
/** Settled instances were created on consecutive days from here. */
const FIRST_CREATED = Date.UTC(2024, 1, 5, 9, 30, 0);
const OWNER = 'demo-owner';

/** A finished event in the past: started at `at`, done `seconds` later. */
function pastEvent(store: Store, action: string, vm: InstanceRecord, at: number, seconds: number): void {
  const event = emitEvent(store, { action, status: 'started', entity: vmEntity(vm), username: OWNER }, at);
  finishEvent(store, event.id, 'finished', at + seconds * 1000);
}

/** Nightly backups of the last three days and a snapshot taken before a migration. */
function seedBackups(store: Store, vm: InstanceRecord, now: number): void {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  let last = '';
  for (let d = 3; d >= 1; d--) {
    const at = midnight - d * DAY_MS + 2 * 60 * 60 * 1000;
    last = isoSeconds(at + 25 * 60 * 1000);
    insertBackup(store, vm, { type: 'auto', label: null, status: 'successful', created: isoSeconds(at), finished: last });
  }
  const snapAt = midnight - 2 * DAY_MS + 15 * 60 * 60 * 1000;
  insertBackup(store, vm, { type: 'snapshot', label: 'before-pg16-upgrade', status: 'successful', created: isoSeconds(snapAt), finished: isoSeconds(snapAt + 600_000) });
  store.put<InstanceRecord>('vm', vm.id, { ...vm, backups: { enabled: true, schedule: { day: 'Sunday', window: 'W2' }, last_successful: last } });
}

export function seedComputeDemo(store: Store, sim: Simulation): void {
  const now = store.clock.now();
  INSTANCES.forEach(([label, region, typeId, imageId, status, tags, group, privateIp, backups], i) => {
    const type = store.get<InstanceTypeRecord>('type', typeId)!;
    const image = imageId ? store.get<ImageRecord>('image', imageId)! : undefined;
    const inFlight = status === 'provisioning' || status === 'booting';
    const createdAt = inFlight ? now : FIRST_CREATED + i * DAY_MS;
    const created = isoSeconds(createdAt);
    let vm = insertInstance(store, { label, region, type, image: imageId, group, tags, status, privateIp, created });
    const made = image ? applyLayout(store, vm.id, imageLayout(type, image), status === 'provisioning' ? 'not ready' : 'ready', created) : { disks: [], configs: [] };
    const config = made.configs[0];

    if (status === 'provisioning') {
      const event = emitEvent(store, { action: 'vm_create', status: 'started', entity: vmEntity(vm), username: OWNER });
      scheduleProvisioning(sim, { vm_id: vm.id, event_id: event.id, disks: made.disks.map((d) => d.id), boot_config: config?.id ?? null, username: OWNER });
      return;
    }
    if (status === 'booting') {
      const event = emitEvent(store, { action: 'vm_boot', status: 'started', entity: vmEntity(vm), username: OWNER });
      bootInto(store, sim, vm, config!.id, event.id);
      return;
    }
    if (config) vm = store.put<InstanceRecord>('vm', vm.id, { ...vm, _last_config: config.id });
    if (backups) seedBackups(store, vm, now);
    if (i % 4 === 0) {
      pastEvent(store, 'vm_create', vm, createdAt, 55);
      if (config) pastEvent(store, 'vm_boot', vm, createdAt + 60_000, 18);
    }
  });
}
