import { createConfig, instancePath, updateConfig } from '../../api/instances.js';
import type { FieldOverride, FormSpec } from '../../components/form/types.js';
import { Config, DEFAULT_HELPERS, DEVICE_SLOTS, PARAVIRT_ONLY_SLOTS, type Helpers } from '../../model/instance-configs.js';
import type { Params } from '../../store/nav.js';
import { deviceChoices } from './choices.js';
import type { ConfigRow } from './config-rows.js';

const SLOT_FIELDS = DEVICE_SLOTS.map((slot) => `devices.${slot}.disk_id`);
const HELPER_FIELDS = (Object.keys(DEFAULT_HELPERS) as (keyof Helpers)[]).map((h) => `helpers.${h}`);

const slotOverrides: Record<string, FieldOverride> = Object.fromEntries(
  DEVICE_SLOTS.map((slot) => [
    `devices.${slot}.disk_id`,
    {
      title: `Device ${slot}`,
      choices: deviceChoices,
      help: (PARAVIRT_ONLY_SLOTS as readonly string[]).includes(slot) ? 'Paravirt only: fullvirt has sda..sdd' : 'A disk of this instance, or none',
    },
  ]),
);

const helperDefaults: Record<string, FieldOverride> = Object.fromEntries(
  Object.entries(DEFAULT_HELPERS).map(([h, on]) => [`helpers.${h}`, { default: on }]),
);

/**
 * The boot config form (create and edit). Each slot is a choice of the
 * instance's disks. The API replaces the whole devices map on update, so a
 * hidden `devices` field carries the current map and the slots edit it.
 */
function configForm(mode: 'create' | 'update'): FormSpec<ConfigRow> {
  return {
    title: mode === 'create' ? 'New boot config' : undefined,
    schema: Config,
    mode,
    fields: ['label', 'kernel', 'virt_mode', 'run_level', 'root_device', 'memory_limit', 'comments', 'devices', ...SLOT_FIELDS, ...HELPER_FIELDS],
    overrides: {
      ...slotOverrides,
      ...helperDefaults,
      devices: { hidden: true, default: {} },
      kernel: { help: 'vm/latest-64bit (default), vm/grub2, vm/direct-disk or another vm/… kernel' },
      memory_limit: { help: "MB; empty: all of the plan's memory" },
      root_device: { help: 'Default /dev/sda' },
    },
    submit: (body, ctx, row) => (row ? updateConfig(ctx.client, ctx.params.id!, row.id, body) : createConfig(ctx.client, ctx.params.id!, body)),
    scope: 'vms:read_write',
    invalidates: (_row: ConfigRow | undefined, p: Params) => [instancePath(p.id!)],
  };
}

export const createConfigForm = configForm('create');
export const editConfigForm = configForm('update');
