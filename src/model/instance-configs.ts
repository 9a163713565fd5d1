import { defineResource, type CrossRule, type FieldError, type FieldSpec } from './schema.js';

export const DEVICE_SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'] as const;
export type DeviceSlot = (typeof DEVICE_SLOTS)[number];
/** Slots a fullvirt config cannot use. */
export const PARAVIRT_ONLY_SLOTS: readonly DeviceSlot[] = ['sde', 'sdf', 'sdg', 'sdh'];

export const RUN_LEVELS = ['default', 'single', 'binbash'] as const;
export const VIRT_MODES = ['paravirt', 'fullvirt'] as const;
export const DEFAULT_KERNEL = 'vm/latest-64bit';
export const DEFAULT_ROOT_DEVICE = '/dev/sda';

export interface Device {
  disk_id: number | null;
  volume_id: number | null;
}
export type Devices = Record<DeviceSlot, Device | null>;

export interface Helpers {
  updatedb_disabled: boolean;
  distro: boolean;
  modules_dep: boolean;
  network: boolean;
  devtmpfs_automount: boolean;
}

export const DEFAULT_HELPERS: Helpers = { updatedb_disabled: true, distro: true, modules_dep: true, network: true, devtmpfs_automount: false };

const kernelId = (v: string) => (/^vm\/[A-Za-z0-9._-]+$/.test(v) ? null : 'kernel must be a kernel ID such as vm/latest-64bit, vm/grub2 or vm/direct-disk');

const helper = (title: string, help: string): FieldSpec => ({ kind: 'boolean', title, help });

const isSet = (v: unknown) => v !== undefined && v !== null;

const slotsOf = (devices: unknown): [string, Record<string, unknown>][] =>
  typeof devices === 'object' && devices !== null && !Array.isArray(devices)
    ? Object.entries(devices as Record<string, unknown>).filter((e): e is [string, Record<string, unknown>] => typeof e[1] === 'object' && e[1] !== null)
    : [];

/** A slot holds a disk or a volume, not both. */
const oneKindPerSlot: CrossRule = (body) =>
  slotsOf(body.devices)
    .filter(([, d]) => isSet(d.disk_id) && isSet(d.volume_id))
    .map(([slot]) => ({ field: `devices.${slot}`, reason: `devices.${slot} may hold a disk_id or a volume_id, not both` }));

/** fullvirt has four slots; on update the stored mode applies unless the body changes it. */
const fullvirtSlots: CrossRule = (body, { current }): FieldError[] => {
  const mode = body.virt_mode ?? current?.virt_mode;
  if (mode !== 'fullvirt') return [];
  return slotsOf(body.devices)
    .filter(([slot, d]) => (PARAVIRT_ONLY_SLOTS as readonly string[]).includes(slot) && (isSet(d.disk_id) || isSet(d.volume_id)))
    .map(([slot]) => ({ field: `devices.${slot}`, reason: `devices.${slot} is unavailable in fullvirt mode (sda..sdd only)` }));
};

/** A boot config (response-shapes §3.1 Config); label and devices are required on update too. */
export const Config = defineResource(
  'config',
  {
    id: { kind: 'integer', readOnly: true, title: 'ID' },
    label: { kind: 'string', title: 'Label', required: true, requiredOnUpdate: true, filterable: true, minLength: 1, maxLength: 48 },
    kernel: { kind: 'string', title: 'Kernel', help: `Default ${DEFAULT_KERNEL}`, check: kernelId, default: DEFAULT_KERNEL },
    comments: { kind: 'string', title: 'Comments', nullable: true },
    memory_limit: { kind: 'integer', title: 'Memory limit (MB)', help: "Default all of the instance's RAM", min: 0 },
    run_level: { kind: 'enum', values: RUN_LEVELS, title: 'Run level', default: 'default' },
    virt_mode: { kind: 'enum', values: VIRT_MODES, title: 'Virtualization', help: 'fullvirt allows sda..sdd only', default: 'paravirt' },
    helpers: {
      kind: 'object',
      title: 'Boot helpers',
      fields: {
        updatedb_disabled: helper('Disable updatedb', 'Avoids disk thrashing from the updatedb cron job'),
        distro: helper('Distro helper', 'Keeps the console device right'),
        modules_dep: helper('Modules dep', 'Builds a modules dependency file for the kernel'),
        network: helper('Auto-configure network', 'Static networking from the assigned addresses'),
        devtmpfs_automount: helper('devtmpfs automount', 'Populates /dev early without udev; default false'),
      },
    },
    devices: {
      kind: 'map',
      title: 'Devices',
      help: 'sda..sdh: {"disk_id": n} or {"volume_id": n} or null',
      required: true,
      requiredOnUpdate: true,
      keys: DEVICE_SLOTS,
      items: {
        kind: 'object',
        nullable: true,
        fields: { disk_id: { kind: 'integer', nullable: true, min: 1 }, volume_id: { kind: 'integer', nullable: true, min: 1 } },
      },
    },
    root_device: { kind: 'string', title: 'Root device', help: `Default ${DEFAULT_ROOT_DEVICE} when absent or invalid`, default: DEFAULT_ROOT_DEVICE },
  },
  [oneKindPerSlot, fullvirtSlots],
);

/** The seed: an absent or invalid root device becomes /dev/sda. */
export const rootDevice = (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9/_-]+$/.test(v) ? v : DEFAULT_ROOT_DEVICE);

/** All eight slots, each a device or null; a slot naming neither a disk nor a volume is empty. */
export function normalizeDevices(input: Record<string, unknown> | undefined): Devices {
  const out = {} as Devices;
  for (const slot of DEVICE_SLOTS) {
    const d = input?.[slot] as Partial<Device> | null | undefined;
    out[slot] = d && (isSet(d.disk_id) || isSet(d.volume_id)) ? { disk_id: d.disk_id ?? null, volume_id: d.volume_id ?? null } : null;
  }
  return out;
}
