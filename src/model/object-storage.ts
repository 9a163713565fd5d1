import { defineResource, type CrossRule, type FieldSpec } from './schema.js';

/** Canned ACLs a bucket can be created with; access and object ACL updates also take `custom`. */
export const BUCKET_ACLS = ['private', 'public-read', 'authenticated-read', 'public-read-write'] as const;
export const OBJECT_ACLS = [...BUCKET_ACLS, 'custom'] as const;
export type ObjectAcl = (typeof OBJECT_ACLS)[number];

export const PRESIGN_METHODS = ['GET', 'PUT', 'POST', 'DELETE'] as const;
/** Methods whose pre-signed request carries no body, so no content type has to be signed. */
const BODYLESS_METHODS: readonly string[] = ['GET', 'DELETE'];
export const KEY_PERMISSIONS = ['read_write', 'read_only'] as const;
export const CLUSTER_STATUSES = ['available', 'unavailable'] as const;

/** Seed limits table: pre-signed URL lifetime. */
export const EXPIRES_MIN = 360;
export const EXPIRES_MAX = 68400;
export const EXPIRES_DEFAULT = 3600;

/** S3 object keys are at most 1024 bytes. */
export const OBJECT_NAME_MAX = 1024;
export const KEY_LABEL_MAX = 50;

/** Bucket names: 3..63 characters, lowercase letters, digits and dashes, starting and ending with a letter or digit. */
export function bucketName(v: string): string | null {
  if (!/^[a-z0-9-]+$/.test(v)) return 'label may contain only lowercase letters, digits and dashes';
  if (!/^[a-z0-9]/.test(v) || !/[a-z0-9]$/.test(v)) return 'label must start and end with a lowercase letter or digit';
  return null;
}

function objectName(v: string): string | null {
  if (Buffer.byteLength(v) > OBJECT_NAME_MAX) return `name must be at most ${OBJECT_NAME_MAX} bytes`;
  // URL clients fold these away, so no URL could address such an object.
  if (v === '.' || v === '..') return 'name must not be . or ..';
  return null;
}

export const Cluster = defineResource('cluster', {
  id: { kind: 'string', readOnly: true, title: 'ID' },
  domain: { kind: 'string', readOnly: true, title: 'S3 endpoint' },
  status: { kind: 'enum', values: CLUSTER_STATUSES, readOnly: true },
  region: { kind: 'string', readOnly: true },
  static_site_domain: { kind: 'string', readOnly: true, title: 'Website domain' },
});

/** An entry of a bucket's listing (GET …/object-list): an object, or (size null) a prefix standing for the names under it. */
export const BucketObject = defineResource('object', {
  name: { kind: 'string', nullable: false, title: 'Name' },
  etag: { kind: 'string', nullable: true, title: 'ETag' },
  last_modified: { kind: 'datetime', nullable: true, title: 'Last modified' },
  owner: { kind: 'string', nullable: true },
  size: { kind: 'integer', nullable: true, title: 'Size (bytes)' },
  next_marker: { kind: 'string', nullable: true },
  is_truncated: { kind: 'boolean' },
});

/** A bucket as created and returned; acl and cors_enabled are accepted on create but not part of the response. */
export const Bucket = defineResource('bucket', {
  created: { kind: 'datetime', readOnly: true },
  cluster: { kind: 'string', required: true, title: 'Cluster', help: 'Object storage cluster ID, e.g. us-east-1' },
  label: {
    kind: 'string',
    required: true,
    minLength: 3,
    maxLength: 63,
    check: bucketName,
    title: 'Name',
    help: 'Unique in the cluster; lowercase letters, digits and dashes',
  },
  hostname: { kind: 'string', readOnly: true },
  size: { kind: 'integer', readOnly: true, title: 'Size (bytes)' },
  objects: { kind: 'integer', readOnly: true },
  acl: { kind: 'enum', values: BUCKET_ACLS, default: 'private', writeOnly: true, title: 'ACL' },
  cors_enabled: { kind: 'boolean', default: false, writeOnly: true, title: 'CORS', help: 'Allow cross-origin requests from all origins' },
});

export const BucketAccess = defineResource('bucket_access', {
  acl: { kind: 'enum', values: OBJECT_ACLS, title: 'ACL' },
  cors_enabled: { kind: 'boolean', title: 'CORS', help: 'Allow cross-origin requests from all origins' },
});

/** The force option of a bucket delete, when it comes in the body. */
export const BucketDelete = defineResource('bucket_delete', {
  force: { kind: 'boolean', title: 'Force', help: 'Delete the objects too' },
});

export const ObjectAclUpdate = defineResource('object_acl', {
  name: { kind: 'string', required: true, minLength: 1, check: objectName, title: 'Object name' },
  acl: { kind: 'enum', values: OBJECT_ACLS, required: true, title: 'ACL' },
});

const contentTypeNeeded: CrossRule = (body) => {
  const method = typeof body.method === 'string' ? body.method : 'GET';
  if ((PRESIGN_METHODS as readonly string[]).includes(method) && !BODYLESS_METHODS.includes(method) && body.content_type === undefined) {
    return [{ field: 'content_type', reason: `content_type is required for ${method}` }];
  }
  return [];
};

export const ObjectUrlRequest = defineResource(
  'object_url',
  {
    name: { kind: 'string', required: true, minLength: 1, check: objectName, title: 'Object name', help: 'Need not exist yet (for uploads)' },
    method: { kind: 'enum', values: PRESIGN_METHODS, required: true, default: 'GET', title: 'Method' },
    content_type: {
      kind: 'string',
      minLength: 1,
      maxLength: 255,
      title: 'Content type',
      help: 'Required except for GET and DELETE; the request using the URL must send the same Content-Type',
    },
    expires_in: { kind: 'integer', min: EXPIRES_MIN, max: EXPIRES_MAX, default: EXPIRES_DEFAULT, title: 'Expires in (s)' },
  },
  [contentTypeNeeded],
);

export const BucketCertificate = defineResource('bucket_ssl', {
  certificate: { kind: 'string', required: true, writeOnly: true, title: 'Certificate', help: 'PEM certificate, Base64-encoded (a raw PEM is accepted too)' },
  private_key: { kind: 'string', required: true, writeOnly: true, secret: true, title: 'Private key', help: 'PEM private key' },
});

const bucketAccessItem: FieldSpec = {
  kind: 'object',
  fields: {
    cluster: { kind: 'string', required: true, title: 'Cluster' },
    bucket_name: { kind: 'string', required: true, title: 'Bucket' },
    permissions: { kind: 'enum', values: KEY_PERMISSIONS, required: true, title: 'Permissions' },
  },
};

export const ObjKey = defineResource('obj_key', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  label: { kind: 'string', minLength: 1, maxLength: KEY_LABEL_MAX, title: 'Label', help: 'Display only; key-<id> when omitted' },
  access_key: { kind: 'string', readOnly: true, title: 'Access key' },
  limited: { kind: 'boolean', readOnly: true },
  bucket_access: {
    kind: 'array',
    createOnly: true,
    items: bucketAccessItem,
    title: 'Bucket access',
    help: 'Omit for access to every bucket; [] for none; else only the listed buckets',
  },
});
