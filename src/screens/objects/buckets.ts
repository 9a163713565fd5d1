import { defineScreen, type ActionSpec, type ListSpec } from '../../app/screen.js';
import {
  BUCKETS_PATH,
  OBJ_RO,
  OBJ_RW,
  clusterChoices,
  createBucket,
  deleteBucket,
  deleteSsl,
  getBucket,
  getCluster,
  getSsl,
  modifyAccess,
  updateAccess,
  uploadSsl,
  type Bucket,
} from '../../api/object-storage.js';
import { Bucket as BucketSchema, BucketAccess, BucketCertificate } from '../../model/object-storage.js';
import { dateText, dateTimeText } from '../../components/dates.js';
import { bytesText } from './format.js';
import { presignForm } from './presign.js';
import { plural } from '../../model/plural.js';

const objectsText = (b: Bucket) => `${plural(b.objects, 'object')} (${bytesText(b.size)})`;

/** Both access calls take acl and cors_enabled; POST changes what is sent, PUT sets both here. */
const accessActions: ActionSpec<Bucket>[] = [
  {
    id: 'acl',
    label: 'Change ACL (CORS unchanged)',
    key: 'l',
    form: {
      title: 'Change bucket ACL',
      schema: BucketAccess,
      fields: ['acl'],
      overrides: { acl: { required: true, help: 'custom keeps grants made through the S3 API' } },
      submit: (body, ctx, b) => modifyAccess(ctx.client, b!.cluster, b!.label, { acl: body.acl as never }),
      done: (_r, b) => `ACL of ${b!.label} changed`,
    },
  },
  {
    id: 'access',
    label: 'Set ACL and CORS',
    key: 'x',
    form: {
      title: 'Set bucket access',
      schema: BucketAccess,
      fields: ['acl', 'cors_enabled'],
      overrides: {
        acl: { required: true },
        cors_enabled: { help: 'Sets CORS on or off (the API does not report the current setting)' },
      },
      initial: () => ({ cors_enabled: false }),
      // A switch left as it is still says what the user wants: both values are sent.
      submit: (body, ctx, b) => updateAccess(ctx.client, b!.cluster, b!.label, { acl: body.acl as never, cors_enabled: body.cors_enabled === true }),
      done: (_r, b) => `Access of ${b!.label} set`,
    },
  },
];

const sslActions: ActionSpec<Bucket>[] = [
  {
    id: 'ssl-status',
    label: 'TLS certificate: check',
    key: 't',
    scope: OBJ_RO,
    changes: false,
    run: async (b, ctx) => ((await getSsl(ctx.client, b.cluster, b.label)).ssl ? `${b.label} has a TLS certificate` : `${b.label} has no TLS certificate`),
  },
  {
    id: 'ssl-upload',
    label: 'TLS certificate: upload',
    key: 'u',
    form: {
      title: 'Upload TLS certificate',
      schema: BucketCertificate,
      fields: ['certificate', 'private_key'],
      overrides: {
        certificate: { lines: 7, help: 'Paste the PEM (or its Base64); served for the bucket hostname' },
        private_key: { lines: 5, help: 'Paste the PEM private key; stored encrypted, never shown again' },
      },
      submit: (body, ctx, b) => uploadSsl(ctx.client, b!.cluster, b!.label, body as { certificate: string; private_key: string }),
      done: (_r, b) => `TLS certificate uploaded for ${b!.hostname}`,
    },
  },
  {
    id: 'ssl-delete',
    label: 'TLS certificate: delete',
    key: 'D',
    destructive: true,
    confirm: (b) => `Delete the TLS certificate and private key of ${b.label}? ${b.hostname} is then served with the cluster's certificate only.`,
    run: async (b, ctx) => {
      await deleteSsl(ctx.client, b.cluster, b.label);
      return `TLS certificate of ${b.label} deleted`;
    },
  },
];

/** The bucket list, of the account or (params.cluster) of one cluster. */
export function bucketList(): ListSpec<Bucket> {
  return {
    path: (p) => (p.cluster ? `${BUCKETS_PATH}/${encodeURIComponent(p.cluster)}` : BUCKETS_PATH),
    rowKey: (b) => `${b.cluster}/${b.label}`,
    label: (b) => b.label,
    writeScope: OBJ_RW,
    columns: [
      { key: 'label', title: 'Bucket', flex: 2, identifier: true },
      { key: 'cluster', title: 'Cluster', width: 13 },
      { key: 'hostname', title: 'Hostname', flex: 2 },
      { key: 'objects', title: 'Objects', width: 7, align: 'right' },
      { key: 'size', title: 'Size', width: 8, align: 'right', format: (b) => bytesText(b.size), sortValue: (b) => b.size },
      { key: 'created', title: 'Created', width: 10, format: (b) => dateText(b.created), sortValue: (b) => b.created },
    ],
    detail: {
      sections: [
        { title: 'Bucket', fields: ['label', 'cluster', 'hostname', 'created'] },
        { title: 'Contents', fields: ['contents'] },
        { title: 'TLS', fields: ['tls'] },
        { title: 'Cluster', fields: ['endpoint', 'website'] },
      ],
      fetch: async (b, ctx) => {
        const [bucket, ssl, cluster] = await Promise.all([getBucket(ctx.client, b.cluster, b.label), getSsl(ctx.client, b.cluster, b.label), getCluster(ctx.client, b.cluster)]);
        return {
          ...bucket,
          created: dateTimeText(bucket.created),
          contents: objectsText(bucket),
          tls: ssl.ssl ? 'a certificate is uploaded' : 'none uploaded',
          endpoint: cluster.domain,
          website: `${bucket.label}.${cluster.static_site_domain}`,
        };
      },
    },
    drill: (b) => ({ screen: 'object-browser', params: { cluster: b.cluster, bucket: b.label, prefix: '' } }),
    create: {
      title: 'New bucket',
      schema: BucketSchema,
      fields: ['cluster', 'label', 'acl', 'cors_enabled'],
      overrides: { cluster: { choices: clusterChoices } },
      initial: (_row, p) => (p.cluster ? { cluster: p.cluster } : {}),
      submit: async (body, ctx) => {
        // Creating a bucket the account already owns answers 200 with it: say so rather than "created".
        const existed = await getBucket(ctx.client, body.cluster as string, body.label as string).then(
          () => true,
          () => false,
        );
        return { bucket: await createBucket(ctx.client, body), existed };
      },
      done: (r) => {
        const { bucket, existed } = r as { bucket: Bucket; existed: boolean };
        return existed ? `Bucket ${bucket.label} already exists in ${bucket.cluster} and is yours; nothing changed` : `Created bucket ${bucket.hostname}`;
      },
      invalidates: () => [BUCKETS_PATH],
    },
    delete: {
      confirm: (b) =>
        b.objects > 0
          ? `Bucket ${b.label} holds ${objectsText(b)}: the service refuses to delete a bucket that is not empty. Use "Force delete" in the actions (a) to delete it with its objects.`
          : `Delete the empty bucket ${b.label} (${b.cluster})? Its name becomes free for anyone.`,
      submit: (b, ctx) => deleteBucket(ctx.client, b.cluster, b.label),
      invalidates: () => [BUCKETS_PATH],
    },
    actions: [
      {
        id: 'flat',
        label: 'List all objects, without folders',
        key: 'o',
        scope: OBJ_RO,
        changes: false,
        run: async (b, ctx) => {
          ctx.push('object-browser', { cluster: b.cluster, bucket: b.label, prefix: '', flat: '1' }, `${b.label} (all)`);
          return `Every object of ${b.label}`;
        },
      },
      ...accessActions,
      ...sslActions,
      {
        id: 'url',
        label: 'Pre-signed URL (e.g. for an upload)',
        key: 'p',
        form: presignForm<Bucket>(
          (b) => ({ cluster: b.cluster, bucket: b.label }),
          () => '',
        ),
      },
      {
        id: 'force-delete',
        label: 'Force delete (with all objects)',
        key: 'F',
        destructive: true,
        typeToConfirm: true,
        when: (b) => b.objects > 0,
        confirm: (b) => `Delete bucket ${b.label} and all ${objectsText(b)} in it, for good. Clients using ${b.hostname} get errors from now on.`,
        run: async (b, ctx) => {
          await deleteBucket(ctx.client, b.cluster, b.label, true);
          return `Deleted bucket ${b.label} and its ${plural(b.objects, 'object')}`;
        },
        invalidates: () => [BUCKETS_PATH],
      },
    ],
    empty: 'No buckets. Press c to create one.',
  };
}

export const buckets = defineScreen<Bucket>({
  id: 'buckets',
  title: 'Buckets',
  aliases: ['objects', 's3', 'obj', 'bucket'],
  description: 'Object storage buckets; Enter browses objects (:keys, :clusters, :transfer)',
  list: bucketList(),
});

export const clusterBuckets = defineScreen<Bucket>({
  id: 'cluster-buckets',
  title: 'Buckets',
  params: ['cluster'],
  list: bucketList(),
});
