import { DISK_FILESYSTEMS } from './instance-disks.js';
import { defineResource } from './schema.js';

export const BACKUP_TYPES = ['auto', 'snapshot'] as const;
export const BACKUP_STATUSES = ['paused', 'pending', 'running', 'needsPostProcessing', 'successful', 'failed', 'userAborted'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];
/** A snapshot in one of these states is still being taken. */
export const BACKUP_IN_PROGRESS: readonly BackupStatus[] = ['paused', 'pending', 'running', 'needsPostProcessing'];

/** A backup or snapshot (response-shapes §3.1 Backup); everything but the snapshot label is read-only. */
export const Backup = defineResource('backup', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  type: { kind: 'enum', values: BACKUP_TYPES, readOnly: true, title: 'Type' },
  status: { kind: 'enum', values: BACKUP_STATUSES, readOnly: true, title: 'Status' },
  created: { kind: 'datetime', readOnly: true, title: 'Created' },
  updated: { kind: 'datetime', readOnly: true, title: 'Updated' },
  finished: { kind: 'datetime', readOnly: true, nullable: true, title: 'Finished' },
  label: { kind: 'string', nullable: true, readOnly: true, title: 'Label' },
  configs: { kind: 'array', items: { kind: 'string' }, readOnly: true, title: 'Configs' },
  disks: {
    kind: 'array',
    readOnly: true,
    title: 'Disks',
    items: { kind: 'object', fields: { size: { kind: 'integer' }, filesystem: { kind: 'enum', values: DISK_FILESYSTEMS }, label: { kind: 'string' } } },
  },
});

/** POST …/backups: take a snapshot (replaces the previous one). */
export const SnapshotRequest = defineResource('snapshot', {
  label: { kind: 'string', title: 'Label', required: true, minLength: 1, maxLength: 255 },
});

/** POST …/backups/{backupId}/restore. */
export const RestoreRequest = defineResource('restore', {
  vm_id: { kind: 'integer', title: 'Target instance', required: true, min: 1 },
  overwrite: { kind: 'boolean', title: 'Overwrite', help: "Deletes the target's disks and configs first", default: false },
});
