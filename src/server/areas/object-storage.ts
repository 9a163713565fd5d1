import { Bucket, BucketAccess, BucketDelete, Cluster, EXPIRES_DEFAULT, ObjectAclUpdate, ObjectUrlRequest, type ObjectAcl } from '../../model/object-storage.js';
import { present } from '../../model/schema.js';
import { badRequest, notFound } from '../errors.js';
import { bodyFor, defineArea, listPage, mustGet, pageSizeParam, type Ctx } from '../route.js';
import { keyRoutes, type KeyRecord } from './object-storage-keys.js';
import { sslRoutes } from './object-storage-ssl.js';
import {
  aclXml,
  bucketId,
  bucketStats,
  checkedBody,
  deleteBucket,
  getObject,
  insertBucket,
  mustBucket,
  presentBucket,
  reading,
  RO,
  RW,
  saveBucket,
  setObjectAcl,
  transferUsed,
  writing,
  type BucketRecord,
  type ClusterRecord,
  type ObjectRecord,
} from './object-storage-shared.js';
import { presignedUrl } from './object-storage-urls.js';

export { mountObjectData } from './object-storage-urls.js';

/** A forced delete empties the bucket in one request; beyond this many objects the seed's "too many objects" error applies. */
export const FORCE_DELETE_MAX_OBJECTS = 1000;

function stringQuery(ctx: Ctx, name: string): string | undefined {
  const v = ctx.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequest(`${name} must be given once, as a string`, name);
  return v;
}

function forceOption(ctx: Ctx): boolean {
  const query = stringQuery(ctx, 'force');
  if (query !== undefined && query !== 'true' && query !== 'false') throw badRequest('force must be true or false', 'force');
  return query === 'true' || bodyFor(ctx, BucketDelete, 'update').force === true;
}

const listEntry = (o: ObjectRecord) => ({ name: o.name, etag: o.etag, last_modified: o.last_modified, owner: o.owner, size: o.size });
const prefixEntry = (name: string) => ({ name, etag: null, last_modified: null, owner: null, size: null });
type ListEntry = ReturnType<typeof listEntry> | ReturnType<typeof prefixEntry>;

/**
 * One page of a bucket's contents, S3 style: names after the marker, starting
 * with the prefix, sorted; with a delimiter, names that contain it after the
 * prefix collapse into one prefix entry each.
 */
function objectList(ctx: Ctx, bucket: string) {
  const pageSize = pageSizeParam(ctx);
  const marker = stringQuery(ctx, 'marker') ?? '';
  const prefix = stringQuery(ctx, 'prefix') ?? '';
  const delimiter = stringQuery(ctx, 'delimiter') ?? '';
  const objects = ctx.store
    .all<ObjectRecord>('object', bucket)
    .filter((o) => o.name > marker && o.name.startsWith(prefix))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: ListEntry[] = [];
  for (const o of objects) {
    const cut = delimiter ? o.name.indexOf(delimiter, prefix.length) : -1;
    if (cut === -1) entries.push(listEntry(o));
    else {
      const group = o.name.slice(0, cut + delimiter.length);
      // The marker may be a prefix entry of the previous page: its names were already covered.
      if (group !== marker && entries[entries.length - 1]?.name !== group) entries.push(prefixEntry(group));
    }
    if (entries.length > pageSize) break;
  }
  const truncated = entries.length > pageSize;
  const page = entries.slice(0, pageSize);
  const nextMarker = truncated ? page[page.length - 1]!.name : null;
  return { data: page.map((e) => ({ ...e, next_marker: nextMarker, is_truncated: truncated })) };
}

export default defineArea('object-storage', (r) => {
  r.get('/object-storage/buckets', RO, reading((ctx) => listPage<BucketRecord>(ctx, 'bucket', { present: (row) => presentBucket(ctx.store, row) })));

  r.post(
    '/object-storage/buckets',
    RW,
    writing((ctx) => {
      const body = checkedBody(ctx, Bucket, 'create', (v) =>
        typeof v.cluster === 'string' && !ctx.store.get('cluster', v.cluster) ? [{ field: 'cluster', reason: `Cluster ${v.cluster} not found` }] : [],
      );
      const cluster = ctx.store.get<ClusterRecord>('cluster', body.cluster as string)!;
      // Seed: creating a bucket the account already owns answers 200 with that bucket.
      const existing = ctx.store.get<BucketRecord>('bucket', bucketId(cluster.id, body.label as string));
      const bucket = existing ?? insertBucket(ctx.store, cluster, body.label as string, (body.acl as ObjectAcl | undefined) ?? 'private', body.cors_enabled === true);
      return presentBucket(ctx.store, bucket);
    }),
  );

  r.get(
    '/object-storage/buckets/{clusterId}',
    RO,
    reading((ctx) => {
      mustGet(ctx, 'cluster', ctx.params.clusterId!, 'Cluster not found');
      return listPage<BucketRecord>(ctx, 'bucket', { parent: ctx.params.clusterId, present: (row) => presentBucket(ctx.store, row) });
    }),
  );

  r.get('/object-storage/buckets/{clusterId}/{bucket}', RO, reading((ctx) => presentBucket(ctx.store, mustBucket(ctx))));

  r.delete(
    '/object-storage/buckets/{clusterId}/{bucket}',
    RW,
    writing((ctx) => {
      const bucket = mustBucket(ctx);
      const force = forceOption(ctx);
      const { objects } = bucketStats(ctx.store, bucketId(bucket.cluster, bucket.label));
      if (objects > 0 && !force) throw badRequest(`Bucket ${bucket.label} is not empty (${objects} objects); delete its objects first, or pass ?force=true`);
      if (objects > FORCE_DELETE_MAX_OBJECTS) {
        throw badRequest(
          `Bucket ${bucket.label} holds too many objects to delete with force (${objects}; the limit is ${FORCE_DELETE_MAX_OBJECTS}); empty it first, e.g. with an S3 lifecycle policy`,
        );
      }
      deleteBucket(ctx.store, bucket);
    }),
  );

  const access = writing((ctx) => {
    const bucket = mustBucket(ctx);
    saveBucket(ctx.store, { ...bucket, ...bodyFor(ctx, BucketAccess, 'update') });
  });
  r.post('/object-storage/buckets/{clusterId}/{bucket}/access', RW, access);
  r.put('/object-storage/buckets/{clusterId}/{bucket}/access', RW, access);

  r.get(
    '/object-storage/buckets/{clusterId}/{bucket}/object-acl',
    RO,
    reading((ctx) => {
      const bucket = mustBucket(ctx);
      const name = stringQuery(ctx, 'name');
      if (!name) throw badRequest('name is required: the object whose ACL to show', 'name');
      const object = getObject(ctx.store, bucketId(bucket.cluster, bucket.label), name);
      if (!object) throw notFound('Object not found');
      return { acl: object.acl, acl_xml: aclXml(object.acl) };
    }),
  );

  r.put(
    '/object-storage/buckets/{clusterId}/{bucket}/object-acl',
    RW,
    writing((ctx) => {
      const bucket = mustBucket(ctx);
      const body = bodyFor(ctx, ObjectAclUpdate, 'create');
      const id = bucketId(bucket.cluster, bucket.label);
      const object = getObject(ctx.store, id, body.name as string);
      if (!object) throw notFound('Object not found');
      const updated = setObjectAcl(ctx.store, id, object, body.acl as ObjectAcl);
      return { acl: updated.acl, acl_xml: aclXml(updated.acl) };
    }),
  );

  r.get(
    '/object-storage/buckets/{clusterId}/{bucket}/object-list',
    RO,
    reading((ctx) => {
      const bucket = mustBucket(ctx);
      return objectList(ctx, bucketId(bucket.cluster, bucket.label));
    }),
  );

  r.post(
    '/object-storage/buckets/{clusterId}/{bucket}/object-url',
    RW,
    writing((ctx) => {
      const bucket = mustBucket(ctx);
      const body = bodyFor(ctx, ObjectUrlRequest, 'create');
      const expiresIn = (body.expires_in as number | undefined) ?? EXPIRES_DEFAULT;
      const origin = `${ctx.req.protocol}://${ctx.req.headers.host ?? ctx.req.host}`;
      const url = presignedUrl(ctx.account, origin, {
        cluster: bucket.cluster,
        bucket: bucket.label,
        name: body.name as string,
        method: body.method as string,
        expires: Math.floor(ctx.store.clock.now() / 1000) + expiresIn,
        contentType: (body.content_type as string | undefined) ?? '',
      });
      return { url };
    }),
  );

  sslRoutes(r);

  r.post(
    '/object-storage/cancel',
    RW,
    writing((ctx) => {
      const buckets = ctx.store.all<BucketRecord>('bucket');
      const full = buckets.filter((b) => ctx.store.count('object', bucketId(b.cluster, b.label)) > 0);
      if (full.length > 0) {
        throw badRequest(`All buckets must be empty before object storage can be cancelled; not empty: ${full.map((b) => bucketId(b.cluster, b.label)).join(', ')}`);
      }
      for (const b of buckets) deleteBucket(ctx.store, b);
      for (const k of ctx.store.all<KeyRecord>('obj_key')) ctx.store.delete('obj_key', k.id);
    }),
  );

  r.get('/object-storage/clusters', 'public', (ctx) => listPage(ctx, 'cluster', { present: (row) => present(Cluster, row) }));
  r.get('/object-storage/clusters/{clusterId}', 'public', (ctx) => present(Cluster, mustGet(ctx, 'cluster', ctx.params.clusterId!, 'Cluster not found')));

  keyRoutes(r);

  r.get('/object-storage/transfer', RO, reading((ctx) => ({ used: transferUsed(ctx.store) })));
});
