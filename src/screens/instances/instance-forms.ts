import { createInstance, updateInstance, type Instance } from '../../api/instances.js';
import { regionChoices, typeChoices } from '../../api/regions.js';
import type { FormSpec } from '../../components/form/types.js';
import { Instance as InstanceSchema } from '../../model/instances.js';
import { backupChoices, orNone } from './choices.js';
import { DEPLOY_FORM_FIELDS, DEPLOY_OVERRIDES } from './deploy-fields.js';

const SCOPE = 'vms:read_write';

/** POST /vm/instances: the four create modes (image, script, backup, empty) from one form; the model's rules say which fields go together. */
export const createInstanceForm: FormSpec<Instance> = {
  title: 'New instance',
  schema: InstanceSchema,
  fields: [
    'region',
    'type',
    'label',
    ...DEPLOY_FORM_FIELDS,
    'backup_id',
    'booted',
    'swap_size',
    'private_ip',
    'backups_enabled',
    'tags',
    'group',
  ],
  overrides: {
    ...DEPLOY_OVERRIDES,
    region: { choices: async (c) => regionChoices(c) },
    type: { choices: async (c) => typeChoices(c), help: 'Plan: CPUs, memory, disk and price (:types lists them all)' },
    label: { help: 'Default: assigned by the service. Starts with a letter; letters, digits, - _ .' },
    backup_id: { choices: orNone('none', async (c) => backupChoices(c)), help: 'Create from this backup instead of an image (same region)' },
    // The service boots a deployed image unless told not to: show that default.
    booted: { default: true },
    swap_size: { help: 'MB; default 512; only with an image' },
  },
  confirm: (body) => `Create ${body.label ? `the instance ${String(body.label)}` : 'the instance'} (${String(body.type)} in ${String(body.region)})?`,
  adds: (body) => ({ type: String(body.type), region: String(body.region), instance: true, backups: body.backups_enabled === true }),
  submit: (body, ctx) => createInstance(ctx.client, body),
  job: {
    event: 'vm_create',
    name: 'Creation',
    doing: 'Creating',
    subject: (vm) => ({ type: 'vm', id: (vm as Instance).id, label: (vm as Instance).label }),
    // A deployed image boots unless told not to, a restored backup always: the creation is done when the instance runs.
    then: (_vm, body) => ((body.image ? body.booted !== false : typeof body.backup_id === 'number') ? 'vm_boot' : undefined),
  },
  done: (result) => {
    const vm = result as Instance;
    return `Created ${vm.label} (${vm.id}): ${vm.status}`;
  },
  scope: SCOPE,
};

/** PUT /vm/instances/{id}: only what changed is sent. */
export const editInstanceForm: FormSpec<Instance> = {
  schema: InstanceSchema,
  mode: 'update',
  fields: [
    'label',
    'tags',
    'group',
    'watchdog_enabled',
    'alerts.cpu',
    'alerts.io',
    'alerts.network_in',
    'alerts.network_out',
    'alerts.transfer_quota',
    'backups.schedule.day',
    'backups.schedule.window',
  ],
  overrides: {
    'alerts.cpu': { title: 'Alert: CPU %' },
    'alerts.io': { title: 'Alert: disk IO/s' },
    'alerts.network_in': { title: 'Alert: net in Mb/s' },
    'alerts.network_out': { title: 'Alert: net out Mb/s' },
    'alerts.transfer_quota': { title: 'Alert: transfer %' },
    'backups.schedule.day': { title: 'Backup day', help: 'Scheduling: let the service choose' },
    'backups.schedule.window': { title: 'Backup window', help: 'Wn = the two hours from n:00 UTC; Scheduling: let the service choose' },
  },
  submit: (body, ctx, row) => updateInstance(ctx.client, row!.id, body),
  scope: SCOPE,
};
