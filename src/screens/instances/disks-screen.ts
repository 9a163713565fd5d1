import { cloneDisk, configsPath, createDisk, deleteDisk, disksPath, getDisk, instancePath, updateDisk, type Disk } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { Disk as DiskSchema, DiskCreate } from '../../model/instance-disks.js';
import type { Params } from '../../store/nav.js';
import { DEPLOY_FORM_FIELDS, DEPLOY_OVERRIDES } from './deploy-fields.js';
import { diskStatusColor, sizeText } from './format.js';
import { dateSort, dateTimeText } from '../../components/dates.js';
import { DISKS_SCREEN, INSTANCE_GRANT } from './sub-lists.js';

const SCOPE = 'vms:read_write';
/** A disk change shows in the overview's totals; a deleted disk empties config slots. */
const touched = (_d: Disk | undefined, p: Params) => [instancePath(p.id!), configsPath(p.id!)];

/** An instance's disks (GET /vm/instances/{id}/disks). */
export const disks = defineScreen<Disk>({
  id: DISKS_SCREEN,
  title: 'Disks',
  params: ['id'],
  list: {
    path: (p) => disksPath(p.id!),
    writeScope: SCOPE,
    grant: INSTANCE_GRANT,
    columns: [
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'size', title: 'Size', width: 9, align: 'right', format: (d) => sizeText(d.size), sortValue: (d) => d.size },
      { key: 'filesystem', title: 'FS', width: 6 },
      { key: 'status', title: 'Status', width: 9, color: (d) => diskStatusColor(d.status) },
      { key: 'id', title: 'ID', width: 6, align: 'right' },
      { key: 'created', title: 'Created', width: 16, format: (d) => dateTimeText(d.created), sortValue: (d) => dateSort(d.created) },
    ],
    detail: { fetch: (d, ctx) => getDisk(ctx.client, ctx.params.id!, d.id) },
    create: {
      title: 'New disk',
      schema: DiskCreate,
      fields: ['label', 'size', 'filesystem', 'read_only', ...DEPLOY_FORM_FIELDS],
      overrides: {
        ...DEPLOY_OVERRIDES,
        size: { help: "MB, from the plan's free space (the overview shows it); at least the image's size" },
      },
      submit: (body, ctx) => createDisk(ctx.client, ctx.params.id!, body),
      done: (result) => {
        const d = result as Disk;
        return `Creating disk ${d.label} (${sizeText(d.size)})`;
      },
      scope: SCOPE,
      invalidates: touched,
    },
    edit: {
      schema: DiskSchema,
      fields: ['label', 'filesystem'],
      overrides: { filesystem: { help: 'Changes what the disk is recorded as; the data is not reformatted' } },
      submit: (body, ctx, d) => updateDisk(ctx.client, ctx.params.id!, d!.id, body),
      scope: SCOPE,
    },
    delete: {
      confirm: (d) => `Delete disk ${d.label} (${sizeText(d.size)})? Its data is gone for good; configs using it lose that device.`,
      submit: (d, ctx) => deleteDisk(ctx.client, ctx.params.id!, d.id),
      invalidates: touched,
    },
    actions: [
      {
        id: 'clone',
        // The event is about the instance; the job's messages name the disk.
        job: { event: 'disk_duplicate', name: 'Disk clone', doing: 'Cloning disk', subject: (d, p) => ({ type: 'vm', id: Number(p.id), label: d.label }) },
        label: 'Clone disk',
        key: 'c',
        when: (d) => d.status === 'ready',
        confirm: (d) => `Clone ${d.label}? It is copied byte for byte into a new disk of this instance, which needs ${sizeText(d.size)} of free space.`,
        run: async (d, ctx) => {
          const copy = await cloneDisk(ctx.client, ctx.params.id!, d.id);
          return `Cloning ${d.label} into ${copy.label}`;
        },
        invalidates: touched,
      },
    ],
    empty: 'No disks. Press c to create one (an instance made without an image starts empty).',
  },
});
