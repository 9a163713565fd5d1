import { defineScreen } from '../../app/screen.js';
import { KEYS_PATH, OBJ_RW, createKey, deleteKey, getKey, listBuckets, updateKey, type BucketGrant, type ObjKey } from '../../api/object-storage.js';
import { KEY_PERMISSIONS, ObjKey as ObjKeySchema } from '../../model/object-storage.js';
import { defineResource, type CrossRule } from '../../model/schema.js';

/** How the key create form asks for bucket_access: its three meanings as a choice, the buckets as a pick list. */
const ACCESS_MODES = ['all', 'none', 'listed'] as const;

const PERMISSION_TEXT: Record<BucketGrant['permissions'], string> = { read_write: 'read/write', read_only: 'read-only' };

/** A pick-list value: cluster/bucket:permissions (neither names may hold : or /). */
const grantValue = (g: BucketGrant) => `${g.cluster}/${g.bucket_name}:${g.permissions}`;

function parseGrant(value: string): BucketGrant {
  const [where = '', permissions = ''] = value.split(':');
  const [cluster = '', bucket_name = ''] = where.split('/');
  return { cluster, bucket_name, permissions: permissions as BucketGrant['permissions'] };
}

const accessRule: CrossRule = (body) => {
  const picked = (Array.isArray(body.buckets) ? body.buckets : []) as string[];
  if (body.access === 'listed' && picked.length === 0) return [{ field: 'buckets', reason: 'Pick at least one bucket (or choose none)' }];
  if (body.access !== 'listed' && picked.length > 0) return [{ field: 'buckets', reason: 'Buckets apply only when access is "listed"' }];
  const seen = new Set<string>();
  for (const value of picked) {
    const g = parseGrant(value);
    const id = `${g.cluster}/${g.bucket_name}`;
    if (!g.bucket_name || !(KEY_PERMISSIONS as readonly string[]).includes(g.permissions)) return [{ field: 'buckets', reason: `${value} is not cluster/bucket:read_write or :read_only` }];
    if (seen.has(id)) return [{ field: 'buckets', reason: `${id} is picked twice: one permission per bucket` }];
    seen.add(id);
  }
  return [];
};

const KeyCreate = defineResource(
  'obj_key_create',
  {
    label: ObjKeySchema.fields.label!,
    access: {
      kind: 'enum',
      values: ACCESS_MODES,
      required: true,
      default: 'all',
      title: 'Bucket access',
      help: 'all: every bucket, now and later; none: no bucket; listed: only the buckets picked below',
    },
    buckets: { kind: 'array', items: { kind: 'string', minLength: 1 }, title: 'Buckets', help: 'Enter picks buckets, each read/write or read-only' },
  },
  [accessRule],
);

async function grantChoices(client: Parameters<typeof listBuckets>[0]) {
  return (await listBuckets(client)).flatMap((b) =>
    KEY_PERMISSIONS.map((permissions) => ({
      value: grantValue({ cluster: b.cluster, bucket_name: b.label, permissions }),
      label: `${b.label} (${b.cluster}) ${PERMISSION_TEXT[permissions]}`,
    })),
  );
}

/** The bucket_access the model means by each mode: omitted (unlimited), [] (none), or the picked grants. */
function bucketAccess(body: Record<string, unknown>): BucketGrant[] | undefined {
  if (body.access === 'none') return [];
  if (body.access === 'listed') return (body.buckets as string[]).map(parseGrant);
  return undefined;
}

export function accessText(k: ObjKey, sep = ', '): string {
  if (k.bucket_access === null) return 'all buckets';
  if (k.bucket_access.length === 0) return 'no buckets';
  return k.bucket_access.map((g) => `${g.bucket_name} ${g.permissions === 'read_write' ? 'rw' : 'ro'}`).join(sep);
}

export const keys = defineScreen<ObjKey>({
  id: 'obj-keys',
  title: 'Access keys',
  aliases: ['keys', 'objkeys', 'access-keys'],
  description: 'Object storage (S3) access keys',
  list: {
    path: KEYS_PATH,
    writeScope: OBJ_RW,
    columns: [
      { key: 'id', title: 'ID', width: 5, align: 'right' },
      { key: 'label', title: 'Label', flex: 1, identifier: true },
      { key: 'access_key', title: 'Access key', width: 20 },
      { key: 'limited', title: 'Limited', width: 7, color: (k) => (k.limited ? undefined : 'yellow') },
      { key: 'bucket_access', title: 'Bucket access', flex: 2, format: (k) => accessText(k) },
    ],
    detail: {
      sections: [
        { title: 'Key', fields: ['id', 'label', 'access_key', 'limited'] },
        { title: 'Bucket access', fields: ['access'] },
      ],
      fetch: async (k, ctx) => {
        const key = await getKey(ctx.client, k.id);
        const lines = key.bucket_access?.length
          ? key.bucket_access.map((g) => `${g.bucket_name} (${g.cluster}) ${PERMISSION_TEXT[g.permissions]}`).join('\n') +
            '\nMay list every bucket and create buckets, without access to them unless listed'
          : accessText(key);
        return { ...key, access: lines };
      },
    },
    create: {
      title: 'New access key',
      schema: KeyCreate,
      fields: ['label', 'access', 'buckets'],
      overrides: { buckets: { choices: grantChoices } },
      submit: (body, ctx) => createKey(ctx.client, { label: body.label as string | undefined, bucket_access: bucketAccess(body) }),
      done: (r) => {
        const k = r as ObjKey & { secret_key: string };
        return {
          message: `Created key ${k.label} (${accessText(k)})`,
          secret: {
            title: `Secret key of ${k.label}`,
            value: k.secret_key,
            note: `Access key: ${k.access_key}. S3 clients (aws s3, rclone, s3cmd) need both.`,
          },
        };
      },
    },
    edit: {
      schema: ObjKeySchema,
      fields: ['label'],
      submit: (body, ctx, k) => updateKey(ctx.client, k!.id, body as { label: string }),
    },
    delete: {
      verb: 'Revoke',
      confirm: (k) => `Revoke access key ${k.label} (${k.access_key})? Every client using it stops working at once; this cannot be undone.`,
      submit: (k, ctx) => deleteKey(ctx.client, k.id),
    },
    empty: 'No access keys. Press c to create one; its secret is shown once.',
  },
});
