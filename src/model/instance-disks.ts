import { DEPLOY_FIELDS, DEPLOY_RULES } from './instance-deploy.js';
import { defineResource, type FieldSpec } from './schema.js';

export const DISK_FILESYSTEMS = ['raw', 'swap', 'ext3', 'ext4', 'initrd'] as const;
export const DISK_STATUSES = ['ready', 'not ready', 'deleting'] as const;
export type DiskStatus = (typeof DISK_STATUSES)[number];

const label: FieldSpec = { kind: 'string', title: 'Label', filterable: true, minLength: 1, maxLength: 48 };
const filesystem: FieldSpec = { kind: 'enum', values: DISK_FILESYSTEMS, title: 'Filesystem', help: 'raw = no filesystem' };

/** A disk as returned (response-shapes §3.1 Disk); the update body is label and filesystem. */
export const Disk = defineResource('disk', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  label,
  status: { kind: 'enum', values: DISK_STATUSES, readOnly: true, title: 'Status' },
  size: { kind: 'integer', readOnly: true, filterable: true, title: 'Size (MB)' },
  filesystem,
  created: { kind: 'datetime', readOnly: true, title: 'Created' },
  updated: { kind: 'datetime', readOnly: true, title: 'Updated' },
});

/** The disk create body (DiskCreate): size and label required, optionally deployed from an image. */
export const DiskCreate = defineResource(
  'disk_create',
  {
    label: { ...label, required: true },
    size: { kind: 'integer', title: 'Size (MB)', help: 'Must fit in the space the instance has left', required: true, filterable: true, min: 1 },
    filesystem: { ...filesystem, default: 'ext4' },
    read_only: { kind: 'boolean', title: 'Read-only' },
    ...DEPLOY_FIELDS,
  },
  DEPLOY_RULES,
);
