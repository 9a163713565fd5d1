import {
  bootInstance,
  cancelBackups,
  cloneInstance,
  enableBackups,
  rebootInstance,
  shutdownInstance,
  takeSnapshot,
  updateInstance,
  type Instance,
} from '../../api/instances.js';
import { regionChoices, typeChoices } from '../../api/regions.js';
import type { ActionSpec } from '../../app/screen.js';
import { BootRequest, CloneRequest } from '../../model/instance-actions.js';
import { SnapshotRequest } from '../../model/instance-backups.js';
import { bootConfigChoices, configChoices, diskChoices, orNone, otherInstanceChoices } from './choices.js';
import { SUB_LISTS } from './sub-lists.js';
import { addTagAction } from '../images/tag-action.js';
import type { Addition } from '../../model/costs.js';

/** The backups add-on of an instance, as enabling it bills. */
export const backupsAddition = (vm: Pick<Instance, 'type' | 'region'>): Addition => ({ type: vm.type, region: vm.region, instance: false, backups: true });

const stopped = (vm: Instance) => vm.status === 'offline' || vm.status === 'stopped';
const running = (vm: Instance) => vm.status === 'running';

/** Lifecycle, clone, backups, and the way to an instance's disks, configs and backups. */
export const instanceActions: ActionSpec<Instance>[] = [
  {
    id: 'boot',
    job: { event: 'vm_boot', name: 'Boot' },
    bulk: true,
    label: 'Boot',
    key: 'b',
    when: stopped,
    run: async (vm, ctx) => {
      await bootInstance(ctx.client, vm.id);
      return `Booting ${vm.label}`;
    },
  },
  {
    id: 'boot-config',
    job: { event: 'vm_boot', name: 'Boot' },
    label: 'Boot with config…',
    key: 'B',
    when: stopped,
    form: {
      schema: BootRequest,
      fields: ['config_id'],
      overrides: { config_id: { choices: bootConfigChoices } },
      submit: (body, ctx, vm) => bootInstance(ctx.client, vm!.id, body),
      done: (_r, vm) => `Booting ${vm!.label}`,
    },
  },
  {
    id: 'reboot',
    job: { event: 'vm_reboot', name: 'Reboot' },
    bulk: true,
    label: 'Reboot',
    key: 'r',
    when: running,
    confirm: (vm) => `Reboot ${vm.label}? It goes down for a few seconds and comes back with its last booted config.`,
    run: async (vm, ctx) => {
      await rebootInstance(ctx.client, vm.id);
      return `Rebooting ${vm.label}`;
    },
  },
  {
    id: 'shutdown',
    job: { event: 'vm_shutdown', name: 'Shutdown', doing: 'Shutting down' },
    bulk: true,
    label: 'Shut down',
    key: 's',
    when: running,
    destructive: true,
    confirm: (vm) => `Shut down ${vm.label}? Everything running on it stops until it is booted again (billing continues).`,
    run: async (vm, ctx) => {
      await shutdownInstance(ctx.client, vm.id);
      return `Shutting down ${vm.label}`;
    },
  },
  {
    id: 'clone',
    job: { event: 'vm_clone', name: 'Clone' },
    label: 'Clone…',
    key: 'c',
    form: {
      schema: CloneRequest,
      fields: ['region', 'type', 'label', 'backups_enabled', 'vm_id', 'configs', 'disks'],
      overrides: {
        region: { choices: async (c) => regionChoices(c), help: 'For a new instance (with type)' },
        type: { choices: async (c) => typeChoices(c), help: 'For a new instance; its disk must hold the cloned disks' },
        vm_id: { choices: orNone('none: clone into a new instance', otherInstanceChoices), help: 'Or an existing instance with room; then leave region, type, label empty' },
        configs: { choices: configChoices, help: 'None picked: every config (and its disks); type [] for none' },
        disks: { choices: diskChoices, help: "Cloned on top of the chosen configs' disks" },
      },
      confirm: (body, vm) => (body.vm_id === undefined ? `Clone ${vm!.label} into a new instance?` : undefined),
      // Into an existing instance: nothing new is billed.
      adds: (body, vm) => (body.vm_id === undefined ? { type: String(body.type ?? vm!.type), region: String(body.region ?? vm!.region), instance: true, backups: body.backups_enabled === true } : undefined),
      submit: (body, ctx, vm) => cloneInstance(ctx.client, vm!.id, body),
      done: (result, vm) => {
        const target = result as Instance;
        return `Cloning ${vm!.label} into ${target.label} (${target.id})`;
      },
    },
  },
  {
    id: 'snapshot',
    job: { event: 'vm_snapshot', name: 'Snapshot', doing: 'Taking a snapshot of' },
    label: 'Take snapshot…',
    key: 'n',
    when: (vm) => vm.backups.enabled,
    form: {
      schema: SnapshotRequest,
      fields: ['label'],
      overrides: { label: { help: 'Replaces the current snapshot of this instance' } },
      submit: (body, ctx, vm) => takeSnapshot(ctx.client, vm!.id, body),
      done: (_r, vm) => `Taking a snapshot of ${vm!.label}`,
    },
  },
  {
    id: 'backups-enable',
    bulk: true,
    label: 'Enable backups',
    key: 'e',
    when: (vm) => !vm.backups.enabled,
    confirm: (vm) => `Enable the backup service for ${vm.label}? It is billed monthly; the service picks a schedule you can change with e.`,
    adds: backupsAddition,
    run: async (vm, ctx) => {
      await enableBackups(ctx.client, vm.id);
      return `Backups enabled for ${vm.label}`;
    },
  },
  {
    id: 'backups-cancel',
    bulk: true,
    label: 'Cancel backups',
    key: 'x',
    when: (vm) => vm.backups.enabled,
    destructive: true,
    typeToConfirm: true,
    confirm: (vm) => `Cancel the backup service of ${vm.label}? All of its backups and its snapshot are deleted permanently.`,
    run: async (vm, ctx) => {
      await cancelBackups(ctx.client, vm.id);
      return `Backups cancelled for ${vm.label}; its backups are deleted`;
    },
  },
  addTagAction((ctx, vm, tags) => updateInstance(ctx.client, vm.id, { tags })),
  ...SUB_LISTS.map(
    (sub): ActionSpec<Instance> => ({
      id: `open-${sub.part}`,
      label: `${sub.title} →`,
      key: sub.key,
      scope: 'vms:read_only',
      changes: false,
      run: async (vm, ctx) => {
        ctx.push(sub.screen, { id: String(vm.id) }, vm.label);
        return `${vm.label}: ${sub.title.toLowerCase()}`;
      },
    }),
  ),
];
