import { createHash } from 'node:crypto';
import { present, validate, type FieldError, type Mode, type ResourceSchema } from '../../model/schema.js';
import { Bucket, type ObjectAcl } from '../../model/object-storage.js';
import { requireAccountAccess } from '../auth.js';
import { assertValid, notFound } from '../errors.js';
import { readingOf, type Ctx, type Handler } from '../route.js';
import type { Row, Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';

/**
 * What the object storage endpoints and the pre-signed data routes share:
 * bucket and object rows, their blobs, the signing key and the transfer
 * counter.
 */

export const RO = 'object_storage:read_only';
export const RW = 'object_storage:read_write';

/** Object storage is account-level: restricted users need account access (read_only to look, read_write to change). */
export const reading =
  (h: Handler): Handler =>
  (ctx) => {
    requireAccountAccess(ctx.auth, 'read_only');
    return h(ctx);
  };

export const writing =
  (h: Handler): Handler =>
  (ctx) => {
    requireAccountAccess(ctx.auth, 'read_write');
    return h(ctx);
  };

export interface ClusterRecord extends Row {
  id: string;
  region: string;
  status: string;
  domain: string;
  static_site_domain: string;
}

export interface BucketRecord extends Row {
  created: string;
  cluster: string;
  label: string;
  hostname: string;
  acl: ObjectAcl;
  cors_enabled: boolean;
  /** The uploaded certificate and key as JSON, sealed (seed: "stored encrypted"). */
  _ssl?: string | null;
}

export interface ObjectRecord extends Row {
  name: string;
  size: number;
  etag: string;
  last_modified: string;
  owner: string;
  content_type: string;
  acl: ObjectAcl;
}

/** The account's canonical S3 user: every object and ACL names it as owner. */
export const OWNER_UUID = '6f1d2c3b-8a4e-4b7f-9c21-5d0e3a7b9f48';

export const bucketId = (cluster: string, label: string) => `${cluster}/${label}`;
const objectId = (bucket: string, name: string) => `${bucket}/${name}`;
const blobId = (bucket: string, name: string) => `object:${objectId(bucket, name)}`;

export function insertBucket(store: Store, cluster: ClusterRecord, label: string, acl: ObjectAcl, corsEnabled: boolean, created = store.clock.now()): BucketRecord {
  const record: BucketRecord = {
    created: isoSeconds(created),
    cluster: cluster.id,
    label,
    hostname: `${label}.${cluster.domain}`,
    acl,
    cors_enabled: corsEnabled,
  };
  return store.insert('bucket', bucketId(cluster.id, label), record, { parent: cluster.id });
}

export function saveBucket(store: Store, row: BucketRecord): void {
  store.put('bucket', bucketId(row.cluster, row.label), row);
}

/** Size and object count come from the stored objects, so they never drift. */
export function bucketStats(store: Store, bucket: string): { size: number; objects: number } {
  const objects = store.all<ObjectRecord>('object', bucket);
  return { size: objects.reduce((sum, o) => sum + o.size, 0), objects: objects.length };
}

export function presentBucket(store: Store, row: BucketRecord): Record<string, unknown> {
  return present(Bucket, { ...row, ...bucketStats(store, bucketId(row.cluster, row.label)) });
}

export function mustBucket(ctx: Ctx): BucketRecord {
  const row = ctx.store.get<BucketRecord>('bucket', bucketId(ctx.params.clusterId!, ctx.params.bucket!));
  if (!row) throw notFound('Bucket not found');
  return row;
}

export function getObject(store: Store, bucket: string, name: string): ObjectRecord | undefined {
  return store.get<ObjectRecord>('object', objectId(bucket, name));
}

/** Stores (or replaces) an object: like an S3 PUT, a replacement starts over with a private ACL. */
export function putObject(store: Store, bucket: string, name: string, body: Buffer, contentType: string, modified = store.clock.now()): ObjectRecord {
  const record: ObjectRecord = {
    name,
    size: body.length,
    etag: createHash('md5').update(body).digest('hex'),
    last_modified: isoSeconds(modified),
    owner: OWNER_UUID,
    content_type: contentType,
    acl: 'private',
  };
  const id = objectId(bucket, name);
  if (store.get('object', id)) store.put('object', id, record);
  else store.insert('object', id, record, { parent: bucket });
  store.putBlob(blobId(bucket, name), body);
  return record;
}

export function setObjectAcl(store: Store, bucket: string, object: ObjectRecord, acl: ObjectAcl): ObjectRecord {
  return store.put('object', objectId(bucket, object.name), { ...object, acl });
}

export function readObject(store: Store, bucket: string, name: string): Buffer | undefined {
  return store.getBlob(blobId(bucket, name));
}

export function deleteObject(store: Store, bucket: string, name: string): void {
  store.delete('object', objectId(bucket, name));
  store.deleteBlob(blobId(bucket, name));
}

/** Removes a bucket with everything in it. */
export function deleteBucket(store: Store, bucket: BucketRecord): void {
  const id = bucketId(bucket.cluster, bucket.label);
  for (const o of store.all<ObjectRecord>('object', id)) store.deleteBlob(blobId(id, o.name));
  store.deleteChildren('object', id);
  store.delete('bucket', id);
}

const TRANSFER_META = 'object_storage.transfer_bytes';

/** The key that signs pre-signed URLs: derived from the seal key, so it is not in the data file. */
export const presignKey = (store: Store): Buffer => store.sealer.derive('presigned-urls');

/** Outbound transfer in bytes: what pre-signed GETs served, on top of the demo's baseline. */
export function transferUsed(store: Store): number {
  return Number(store.getMeta(TRANSFER_META) ?? 0);
}

export function addTransfer(store: Store, bytes: number): void {
  store.setMeta(TRANSFER_META, String(transferUsed(store) + bytes));
}

const GRANTEE_GROUP = 'http://acs.amazonaws.com/groups/global/';

/** A canned ACL as the S3 AccessControlPolicy document it stands for. */
export function aclXml(acl: ObjectAcl): string {
  const grant = (grantee: string, permission: string) => `<Grant>${grantee}<Permission>${permission}</Permission></Grant>`;
  const owner = `<ID>${OWNER_UUID}</ID><DisplayName>${OWNER_UUID}</DisplayName>`;
  const user = `<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser">${owner}</Grantee>`;
  const group = (name: string) => `<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Group"><URI>${GRANTEE_GROUP}${name}</URI></Grantee>`;
  const grants = [grant(user, 'FULL_CONTROL')];
  if (acl === 'public-read' || acl === 'public-read-write') grants.push(grant(group('AllUsers'), 'READ'));
  if (acl === 'public-read-write') grants.push(grant(group('AllUsers'), 'WRITE'));
  if (acl === 'authenticated-read') grants.push(grant(group('AuthenticatedUsers'), 'READ'));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<AccessControlPolicy xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Owner>${owner}</Owner>` +
    `<AccessControlList>${grants.join('')}</AccessControlList></AccessControlPolicy>`
  );
}

/**
 * Validates a body and adds the checks that need the store, so every problem is
 * reported at once. `more` sees the accepted fields and the raw body (whose
 * well-formed parts can be checked even when a sibling is invalid).
 */
export function checkedBody(
  ctx: Ctx,
  schema: ResourceSchema,
  mode: Mode,
  more: (value: Record<string, unknown>, raw: Record<string, unknown>) => FieldError[],
): Record<string, unknown> {
  const raw = ctx.body ?? {};
  const { value, errors } = validate(schema, raw, readingOf(ctx, mode));
  if (typeof raw === 'object' && !Array.isArray(raw)) errors.push(...more(value, raw as Record<string, unknown>));
  assertValid(errors);
  return value;
}
