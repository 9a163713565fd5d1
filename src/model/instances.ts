import { instanceLabel } from './formats.js';
import { DEPLOY_FIELDS, DEPLOY_RULES, onlyWith } from './instance-deploy.js';
import { defineResource, type CrossRule, type FieldSpec } from './schema.js';

export const INSTANCE_STATUSES = [
  'running',
  'offline',
  'booting',
  'rebooting',
  'shutting_down',
  'provisioning',
  'deleting',
  'migrating',
  'rebuilding',
  'cloning',
  'restoring',
  'stopped',
] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** States no action is under way in; anything else is a job still running. */
export const SETTLED_STATUSES: readonly InstanceStatus[] = ['running', 'offline', 'stopped'];

export const BACKUP_DAYS = ['Scheduling', 'Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const BACKUP_WINDOWS = ['Scheduling', 'W0', 'W2', 'W4', 'W6', 'W8', 'W10', 'W12', 'W14', 'W16', 'W18', 'W20', 'W22'] as const;

export const DEFAULT_SWAP_MB = 512;

/** Label rule shared by create, update and clone: 3..32, starts with a letter, no doubled separators. */
export const INSTANCE_LABEL: FieldSpec = {
  kind: 'string',
  title: 'Label',
  help: 'Starts with a letter; letters, digits, - _ .; no --, __ or ..',
  filterable: true,
  minLength: 3,
  maxLength: 32,
  check: instanceLabel,
};

export const TAGS: FieldSpec = {
  kind: 'array',
  title: 'Tags',
  help: 'Only unrestricted users may add or change tags',
  filterable: true,
  items: { kind: 'string', minLength: 3, maxLength: 50 },
};

/** Alert thresholds; 0 disables one. cpu defaults to 90 per core. */
export interface Alerts {
  cpu: number;
  io: number;
  network_in: number;
  network_out: number;
  transfer_quota: number;
}

export const defaultAlerts = (vcpus: number): Alerts => ({ cpu: 90 * vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 });

const alert = (title: string, help: string, max?: number): FieldSpec => ({ kind: 'integer', title, help: `${help}; 0 disables`, min: 0, max });

const createOnly = (spec: FieldSpec): FieldSpec => ({ ...spec, writeOnly: true, createOnly: true });

const backupOrImage: CrossRule = (body, { mode }) =>
  mode === 'create' && body.backup_id !== undefined && body.image !== undefined
    ? [{ field: 'backup_id', reason: 'backup_id and image are mutually exclusive' }]
    : [];

/**
 * A compute instance (response-shapes §3.1 Instance). One schema serves create
 * (region, type and the deploy fields) and update (alerts, backups schedule,
 * group, label, tags, watchdog); the rest is read-only.
 */
export const Instance = defineResource(
  'instance',
  {
    id: { kind: 'integer', readOnly: true, filterable: true, title: 'ID' },
    label: INSTANCE_LABEL,
    group: { kind: 'string', title: 'Group', help: 'Deprecated display grouping', filterable: true, deprecated: true },
    status: { kind: 'enum', values: INSTANCE_STATUSES, readOnly: true, title: 'Status' },
    created: { kind: 'datetime', readOnly: true, title: 'Created' },
    updated: { kind: 'datetime', readOnly: true, title: 'Updated' },
    type: { kind: 'string', title: 'Type', help: 'Plan, e.g. g6-standard-2', required: true, createOnly: true, minLength: 1 },
    ipv4: { kind: 'array', items: { kind: 'string' }, readOnly: true, title: 'IPv4' },
    ipv6: { kind: 'string', readOnly: true, nullable: true, title: 'IPv6' },
    image: { ...DEPLOY_FIELDS.image!, nullable: true, filterable: true },
    region: { kind: 'string', title: 'Region', required: true, createOnly: true, filterable: true, minLength: 1 },
    specs: {
      kind: 'object',
      readOnly: true,
      title: 'Specs',
      fields: { disk: { kind: 'integer' }, memory: { kind: 'integer' }, vcpus: { kind: 'integer' }, transfer: { kind: 'integer' } },
    },
    alerts: {
      kind: 'object',
      title: 'Alerts',
      updateOnly: true,
      fields: {
        cpu: alert('CPU %', '100 per core'),
        io: alert('Disk IO ops/s', 'two-hour average'),
        network_in: alert('Network in Mbit/s', 'two-hour average'),
        network_out: alert('Network out Mbit/s', 'two-hour average'),
        transfer_quota: alert('Transfer quota %', 'of the monthly allowance', 100),
      },
    },
    backups: {
      kind: 'object',
      title: 'Backups',
      updateOnly: true,
      fields: {
        enabled: { kind: 'boolean', readOnly: true, title: 'Enabled' },
        schedule: {
          kind: 'object',
          title: 'Schedule',
          fields: {
            day: { kind: 'enum', values: BACKUP_DAYS, nullable: true, title: 'Day' },
            window: { kind: 'enum', values: BACKUP_WINDOWS, nullable: true, title: 'Window', help: 'Wn = two hours from n:00 UTC' },
          },
        },
        last_successful: { kind: 'datetime', readOnly: true, nullable: true, title: 'Last successful' },
      },
    },
    hypervisor: { kind: 'enum', values: ['kvm'], readOnly: true },
    watchdog_enabled: { kind: 'boolean', title: 'Watchdog', help: 'Reboots the instance if it powers off unexpectedly', updateOnly: true },
    tags: TAGS,
    root_pass: DEPLOY_FIELDS.root_pass!,
    authorized_keys: DEPLOY_FIELDS.authorized_keys!,
    authorized_users: DEPLOY_FIELDS.authorized_users!,
    stackscript_id: DEPLOY_FIELDS.stackscript_id!,
    stackscript_data: DEPLOY_FIELDS.stackscript_data!,
    backup_id: createOnly({ kind: 'integer', title: 'From backup', help: 'Restore source; not with an image', min: 1 }),
    backups_enabled: createOnly({ kind: 'boolean', title: 'Enable backups', help: 'Paid backup service' }),
    booted: createOnly({ kind: 'boolean', title: 'Boot after deploy', help: 'Default true; only with an image' }),
    private_ip: createOnly({ kind: 'boolean', title: 'Private IP', help: 'Adds a private IPv4 address' }),
    swap_size: createOnly({ kind: 'integer', title: 'Swap (MB)', help: 'Default 512; only with an image', min: 0 }),
  },
  [...DEPLOY_RULES, backupOrImage, onlyWith('booted', 'image', 'an image'), onlyWith('swap_size', 'image', 'an image')],
);

/** Type ids read g6-standard-2; default labels drop the generation prefix. */
export const typeShortName = (typeId: string) => typeId.replace(/^g\d+-/, '');
