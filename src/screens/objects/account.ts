import { defineScreen } from '../../app/screen.js';
import { BUCKETS_PATH, KEYS_PATH, OBJ_RW, TRANSFER_PATH, cancelObjectStorage, getTransfer, type Bucket } from '../../api/object-storage.js';
import { BUCKETS_LIST, OBJECT_KEYS_LIST, everyRow } from '../../store/lists.js';
import { bytesText } from './format.js';
import { plural } from '../../model/plural.js';

/** Object storage as a whole: one row, so the account-wide transfer and the cancel action have a place. */
interface Account {
  label: 'object-storage';
  used: number;
  buckets: number;
  full: string[];
  objects: number;
  size: number;
  keys: number;
}

const TERABYTE = 1024 ** 4;

export const account = defineScreen<Account>({
  id: 'obj-account',
  title: 'Object storage',
  aliases: ['transfer', 'objstorage', 'obj-transfer'],
  description: 'Transfer used, totals, and cancelling object storage',
  // A single row: a count would say nothing on the home view.
  home: false,
  list: {
    path: TRANSFER_PATH,
    rowKey: (a) => a.label,
    label: (a) => a.label,
    writeScope: OBJ_RW,
    // The buckets and keys from the lists their own screens show (the home view counts them): the transfer is the one request.
    load: async (client, _p, _data, io) => {
      const [transfer, buckets, keys] = await Promise.all([getTransfer(client), everyRow<Bucket>(io.read, BUCKETS_LIST), everyRow(io.read, OBJECT_KEYS_LIST)]);
      return [
        {
          label: 'object-storage',
          used: transfer.used,
          buckets: buckets.length,
          full: buckets.filter((b) => b.objects > 0).map((b) => `${b.label} (${b.cluster}): ${plural(b.objects, 'object')}`),
          objects: buckets.reduce((n, b) => n + b.objects, 0),
          size: buckets.reduce((n, b) => n + b.size, 0),
          keys: keys.length,
        },
      ];
    },
    columns: [
      { key: 'used', title: 'Transfer used (month)', flex: 2, format: (a) => bytesText(a.used), sortValue: (a) => a.used },
      { key: 'buckets', title: 'Buckets', width: 8, align: 'right' },
      { key: 'objects', title: 'Objects', width: 8, align: 'right' },
      { key: 'size', title: 'Stored', width: 9, align: 'right', format: (a) => bytesText(a.size) },
      { key: 'keys', title: 'Access keys', width: 11, align: 'right' },
    ],
    detail: {
      sections: [
        { title: 'Outbound transfer this month', fields: ['used_text', 'pool'] },
        { title: 'Contents', fields: ['buckets', 'objects', 'size_text', 'not_empty'] },
        { title: 'Access keys', fields: ['keys'] },
      ],
      fetch: async (a) => ({
        ...a,
        used_text: `${bytesText(a.used)} (${a.used} bytes)`,
        pool: `object storage adds ${bytesText(TERABYTE)} to the account's transfer pool`,
        size_text: bytesText(a.size),
        not_empty: a.full.length ? a.full.join('\n') : 'every bucket is empty',
      }),
    },
    actions: [
      {
        id: 'cancel',
        label: 'Cancel object storage',
        key: 'C',
        destructive: true,
        typeToConfirm: true,
        confirm: (a) =>
          (a.full.length
            ? `Not possible yet: every bucket must be empty first, and ${plural(a.full.length, 'still holds', 'still hold')} objects (${a.full.join('; ')}). Empty them or force-delete them in :buckets. `
            : '') +
          `Cancelling deletes the account's ${plural(a.buckets, 'bucket')} and ${plural(a.keys, 'access key')}; S3 clients stop working and the added transfer is gone.`,
        run: async (_a, ctx) => {
          await cancelObjectStorage(ctx.client);
          return 'Object storage cancelled: buckets and access keys deleted';
        },
        invalidates: () => [BUCKETS_PATH, KEYS_PATH],
      },
    ],
  },
});
