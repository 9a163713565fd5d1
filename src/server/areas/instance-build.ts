import { DEFAULT_HELPERS, DEFAULT_KERNEL, DEFAULT_ROOT_DEVICE, DEVICE_SLOTS, type Devices } from '../../model/instance-configs.js';
import { defaultAlerts, DEFAULT_SWAP_MB, typeShortName, type InstanceStatus } from '../../model/instances.js';
import type { ImageRecord } from '../../model/images.js';
import { allocateIpv4, slaacAddress } from '../ipam.js';
import type { InstanceTypeRecord } from '../seed/reference.js';
import type { Store } from '../store.js';
import { registerTags } from '../tagging.js';
import {
  FIRST_ID,
  configsOf,
  disksOf,
  type BackupRecord,
  type ConfigFields,
  type ConfigRecord,
  type DiskRecord,
  type InstanceRecord,
  type Layout,
  type LayoutConfig,
  type LayoutDisk,
} from './instance-common.js';

/** Labels are unique on the account, ignoring case; the row key enforces it. */
const labelKey = (label: string) => label.toLowerCase();

export function labelTaken(store: Store, label: string, exceptId?: number): boolean {
  const other = store.getByKey<InstanceRecord>('vm', labelKey(label));
  return other !== undefined && other.id !== exceptId;
}

export function setLabel(store: Store, vm: InstanceRecord, label: string): void {
  store.setKey('vm', vm.id, labelKey(label));
}

/** `<stem>-<n>` with the smallest free n; the stem is trimmed so the label stays within 32 characters. */
export function defaultLabel(store: Store, stem: string): string {
  const base = stem.slice(0, 28).replace(/[-_.]+$/, '');
  for (let n = 1; ; n++) {
    const label = `${base}-${n}`;
    if (!labelTaken(store, label)) return label;
  }
}

/** The default for a new instance: the plan without its generation prefix, then the region. */
export const defaultInstanceLabel = (store: Store, typeId: string, region: string) => defaultLabel(store, `${typeShortName(typeId)}-${region}`);

export interface NewInstance {
  id?: number;
  label: string;
  region: string;
  type: InstanceTypeRecord;
  image: string | null;
  group?: string;
  tags?: string[];
  status: InstanceStatus;
  backupsEnabled?: boolean;
  privateIp?: boolean;
  created: string;
}

/** Stores a new instance with its addresses: one public IPv4, a private one on request, a SLAAC IPv6. */
export function insertInstance(store: Store, spec: NewInstance): InstanceRecord {
  const id = spec.id ?? store.nextId('vm', FIRST_ID.vm);
  const tags = spec.tags ?? [];
  const vm: InstanceRecord = {
    id,
    label: spec.label,
    group: spec.group ?? '',
    status: spec.status,
    created: spec.created,
    updated: spec.created,
    type: spec.type.id,
    ipv6: `${slaacAddress(store, spec.region)}/128`,
    image: spec.image,
    region: spec.region,
    specs: { disk: spec.type.disk, memory: spec.type.memory, vcpus: spec.type.vcpus, transfer: spec.type.transfer },
    alerts: defaultAlerts(spec.type.vcpus),
    backups: spec.backupsEnabled
      ? { enabled: true, schedule: { day: 'Scheduling', window: 'Scheduling' }, last_successful: null }
      : { enabled: false, schedule: { day: null, window: null }, last_successful: null },
    hypervisor: 'kvm',
    watchdog_enabled: true,
    tags,
    _last_config: null,
    _boots: [],
  };
  store.insert('vm', id, vm, { key: labelKey(spec.label) });
  allocateIpv4(store, id, spec.region, true);
  if (spec.privateIp) allocateIpv4(store, id, spec.region, false);
  registerTags(store, tags);
  return vm;
}

export function insertDisk(store: Store, vmId: number, disk: LayoutDisk & { status: DiskRecord['status']; created: string; readOnly?: boolean }): DiskRecord {
  const id = store.nextId('disk', FIRST_ID.disk);
  const record: DiskRecord = {
    id,
    label: disk.label,
    status: disk.status,
    size: disk.size,
    filesystem: disk.filesystem,
    created: disk.created,
    updated: disk.created,
    ...(disk.readOnly ? { _read_only: true } : {}),
  };
  return store.insert('disk', id, record, { parent: String(vmId) });
}

export function insertConfig(store: Store, vmId: number, config: ConfigFields): ConfigRecord {
  const id = store.nextId('config', FIRST_ID.config);
  return store.insert('config', id, { id, ...config }, { parent: String(vmId) });
}

/** The fields a new config starts from: the seed's defaults, with all of the plan's memory. */
export const configDefaults = (memory: number): Omit<ConfigFields, 'label' | 'devices'> => ({
  kernel: DEFAULT_KERNEL,
  comments: null,
  memory_limit: memory,
  run_level: 'default',
  virt_mode: 'paravirt',
  helpers: { ...DEFAULT_HELPERS },
  root_device: DEFAULT_ROOT_DEVICE,
});

/** Deploying an image: a root disk of the plan's disk less swap, a swap disk unless swap is 0, one config using both. */
export function imageLayout(type: InstanceTypeRecord, image: ImageRecord, swap = DEFAULT_SWAP_MB): Layout {
  const disks: LayoutDisk[] = [{ label: `${image.label} Disk`.slice(0, 48), size: type.disk - swap, filesystem: 'ext4' }];
  if (swap > 0) disks.push({ label: `${swap} MB Swap Image`, size: swap, filesystem: 'swap' });
  const devices = Object.fromEntries(DEVICE_SLOTS.map((slot, i) => [slot, i < disks.length ? i : null]));
  return { disks, configs: [{ ...configDefaults(type.memory), label: `My ${image.label} Disk Profile`.slice(0, 48), devices }] };
}

/** Creates a layout's disks and configs on an instance, wiring each config's devices to the new disks. */
export function applyLayout(store: Store, vmId: number, layout: Layout, status: DiskRecord['status'], created: string) {
  const disks = layout.disks.map((d) => insertDisk(store, vmId, { ...d, status, created }));
  const configs = layout.configs.map((c) => {
    const devices = Object.fromEntries(
      DEVICE_SLOTS.map((slot) => {
        const at = c.devices[slot];
        const disk = at === null || at === undefined ? undefined : disks[at];
        return [slot, disk ? { disk_id: disk.id, volume_id: null } : null];
      }),
    ) as Devices;
    return insertConfig(store, vmId, { ...c, devices });
  });
  return { disks, configs };
}

/**
 * An instance's disks and configs as a layout. With a selection only those
 * configs and disks; devices on anything left out (and volumes) become empty.
 */
export function layoutOf(store: Store, vmId: number, selection?: { configs: ConfigRecord[]; disks: DiskRecord[] }): Layout {
  const disks = selection?.disks ?? disksOf(store, vmId);
  const configs = selection?.configs ?? configsOf(store, vmId);
  const position = new Map(disks.map((d, i) => [d.id, i]));
  return {
    disks: disks.map((d) => ({ label: d.label, size: d.size, filesystem: d.filesystem })),
    configs: configs.map(({ id: _id, devices, ...rest }): LayoutConfig => ({
      ...rest,
      devices: Object.fromEntries(DEVICE_SLOTS.map((slot) => [slot, position.get(devices[slot]?.disk_id ?? -1) ?? null])),
    })),
  };
}

/** Stores a backup of the instance as it is now. */
export function insertBackup(
  store: Store,
  vm: InstanceRecord,
  b: { type: BackupRecord['type']; label: string | null; status: string; created: string; finished: string | null },
): BackupRecord {
  const id = store.nextId('backup', FIRST_ID.backup);
  const layout = layoutOf(store, vm.id);
  const record: BackupRecord = {
    id,
    type: b.type,
    status: b.status,
    created: b.created,
    updated: b.finished ?? b.created,
    finished: b.finished,
    label: b.label,
    configs: layout.configs.map((c) => c.label),
    disks: layout.disks,
    _layout: layout,
  };
  return store.insert('backup', id, record, { parent: String(vm.id) });
}
