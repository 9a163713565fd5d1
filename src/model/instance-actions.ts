import { INSTANCE_LABEL } from './instances.js';
import { defineResource, type CrossRule, type FieldError } from './schema.js';

/** Boot and reboot: an optional config to boot into. */
export const BootRequest = defineResource('boot', {
  config_id: { kind: 'integer', title: 'Config', help: 'Default: the only config, else the last booted one', nullable: true, min: 1 },
});

/** Shutdown takes no fields. */
export const EmptyRequest = defineResource('empty', {});

const NEW_TARGET_ONLY = ['region', 'type', 'label', 'backups_enabled'] as const;

/** Region and type pick a new instance; with vm_id they (and label, backups_enabled) are refused. */
const cloneTarget: CrossRule = (body): FieldError[] => {
  if (body.vm_id !== undefined) {
    return NEW_TARGET_ONLY.filter((f) => body[f] !== undefined).map((field) => ({ field, reason: `${field} applies only when cloning into a new instance` }));
  }
  return (['region', 'type'] as const)
    .filter((f) => body[f] === undefined)
    .map((field) => ({ field, reason: `${field} is required when cloning into a new instance` }));
};

/**
 * The clone request. configs omitted: all configs and their disks; [] none;
 * listed: those and their disks. disks: extra disks on top of the configs' ones.
 */
export const CloneRequest = defineResource(
  'clone',
  {
    region: { kind: 'string', title: 'Region', help: 'New instance only', minLength: 1 },
    type: { kind: 'string', title: 'Type', help: 'New instance only', minLength: 1 },
    vm_id: { kind: 'integer', title: 'Existing target', help: 'Clone into this instance instead; it needs the space', min: 1 },
    label: { ...INSTANCE_LABEL, filterable: false, help: 'New instance only; default vm<ID>' },
    group: { kind: 'string', title: 'Group', deprecated: true },
    backups_enabled: { kind: 'boolean', title: 'Enable backups', help: 'New instance only' },
    configs: { kind: 'array', title: 'Configs', help: 'Omit for all, [] for none', items: { kind: 'integer', min: 1 } },
    disks: { kind: 'array', title: 'Extra disks', help: 'Cloned in addition to the configs’ disks', items: { kind: 'integer', min: 1 } },
  },
  [cloneTarget],
);
