import type { ApiClient } from '../../api/client.js';
import { INSTANCES_PATH, backupsPath, getBackup, instancePath, listBackups, restoreBackup, takeSnapshot, type Backup } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { BACKUP_IN_PROGRESS, RestoreRequest, SnapshotRequest } from '../../model/instance-backups.js';
import type { Params } from '../../store/nav.js';
import { instanceChoices } from './choices.js';
import { backupStatusColor, sizeText } from './format.js';
import { dateSort, dateTimeText } from '../../components/dates.js';
import { BACKUPS_SCREEN, INSTANCE_GRANT } from './sub-lists.js';

/** automatic, snapshot, or a snapshot still being taken. */
export function backupKind(b: Backup): string {
  if (b.type === 'auto') return 'automatic';
  return (BACKUP_IN_PROGRESS as readonly string[]).includes(b.status) ? 'snapshot…' : 'snapshot';
}

const disksText = (b: Backup) => b.disks.map((d) => `${d.label} ${sizeText(d.size)}`).join(', ');

/** The backups body is not paged: automatic ones, then the current snapshot and one in progress, as rows. */
async function loadBackups(client: ApiClient, p: Params): Promise<Backup[]> {
  const { automatic, snapshot } = await listBackups(client, p.id!);
  return [...automatic, ...(snapshot.current ? [snapshot.current] : []), ...(snapshot.in_progress ? [snapshot.in_progress] : [])];
}

/** An instance's backups (GET /vm/instances/{id}/backups): restore, details, take a snapshot. */
export const backups = defineScreen<Backup>({
  id: BACKUPS_SCREEN,
  title: 'Backups',
  params: ['id'],
  list: {
    path: (p) => backupsPath(p.id!),
    load: loadBackups,
    writeScope: 'vms:read_write',
    grant: INSTANCE_GRANT,
    label: (b) => b.label ?? `${backupKind(b)} ${b.id}`,
    columns: [
      { key: 'type', title: 'Kind', width: 10, format: backupKind },
      { key: 'status', title: 'Status', width: 10, color: (b) => backupStatusColor(b.status) },
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'created', title: 'Created', width: 16, format: (b) => dateTimeText(b.created), sortValue: (b) => dateSort(b.created) },
      { key: 'finished', title: 'Finished', width: 16, format: (b) => dateTimeText(b.finished), sortValue: (b) => dateSort(b.finished) },
      { key: 'disks', title: 'Disks', flex: 2, format: disksText },
    ],
    detail: {
      fetch: (b, ctx) => getBackup(ctx.client, ctx.params.id!, b.id),
      sections: [
        { title: 'Backup', fields: ['id', 'type', 'status', 'label', 'created', 'updated', 'finished'] },
        { title: 'Contents', fields: ['configs', 'disks'] },
      ],
    },
    create: {
      title: 'Take a snapshot',
      schema: SnapshotRequest,
      fields: ['label'],
      overrides: { label: { help: 'Replaces the current snapshot; needs the backup service' } },
      submit: (body, ctx) => takeSnapshot(ctx.client, Number(ctx.params.id), body),
      done: (result) => `Taking snapshot ${(result as Backup).label}`,
      scope: 'vms:read_write',
      invalidates: (_b, p) => [instancePath(p.id!)],
    },
    actions: [
      {
        id: 'restore',
        label: 'Restore…',
        key: 'r',
        when: (b) => b.status === 'successful',
        form: {
          schema: RestoreRequest,
          fields: ['vm_id', 'overwrite'],
          overrides: {
            vm_id: { choices: async (c) => instanceChoices(c), help: 'This instance or another one you may change' },
            overwrite: { help: "Deletes the target's disks and configs first; without it the backup must fit its free space" },
          },
          initial: (_b, p) => ({ vm_id: p.id, overwrite: false }),
          confirm: (body) =>
            body.overwrite === true
              ? `Overwrite deletes ALL disks and configs of instance ${String(body.vm_id)} before restoring. They cannot be recovered. Go ahead?`
              : undefined,
          submit: (body, ctx, b) => restoreBackup(ctx.client, ctx.params.id!, b!.id, body),
          done: (_r, b) => `Restoring ${b!.label ?? `backup ${b!.id}`}`,
          // The event is about the target instance; the messages name the backup.
          job: { event: 'backups_restore', name: 'Restore', subject: (_r, body, b) => ({ type: 'vm', id: Number(body.vm_id), label: b!.label ?? `backup ${b!.id}` }) },
          // The target (maybe another instance) shows restoring, then gets the disks.
          invalidates: () => [INSTANCES_PATH],
        },
      },
    ],
    empty: 'No backups. Take a snapshot with c (the backup service must be on: instance actions, a).',
  },
});
