import { randomInt } from 'node:crypto';
import { ObjKey } from '../../model/object-storage.js';
import { present, type FieldError } from '../../model/schema.js';
import { bodyFor, listPage, mustGet, type Router } from '../route.js';
import type { Row, Store } from '../store.js';
import { bucketId, checkedBody, reading, RO, RW, writing } from './object-storage-shared.js';

export interface BucketGrant {
  cluster: string;
  bucket_name: string;
  permissions: 'read_write' | 'read_only';
}

export interface KeyRecord extends Row {
  id: number;
  label: string;
  access_key: string;
  limited: boolean;
  /** null: every bucket; []: none; items: only those. */
  bucket_access: BucketGrant[] | null;
}

const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const ALPHANUMERIC = `${UPPER_DIGITS}abcdefghijklmnopqrstuvwxyz`;

const randomString = (alphabet: string, length: number, pick: (n: number) => number) =>
  Array.from({ length }, () => alphabet[pick(alphabet.length)]).join('');

/** An S3 key pair: a 20-character access key and a 40-character secret. `pick` is seedable for the demo. */
export function newKeyPair(pick: (n: number) => number = randomInt): { access_key: string; secret_key: string } {
  return { access_key: randomString(UPPER_DIGITS, 20, pick), secret_key: randomString(ALPHANUMERIC, 40, pick) };
}

/** Stores a key; the secret is handed back once and never kept. */
export function insertKey(store: Store, label: string | undefined, access: BucketGrant[] | null, accessKey: string): KeyRecord {
  const id = store.nextId('obj_key');
  const record: KeyRecord = { id, label: label ?? `key-${id}`, access_key: accessKey, limited: access !== null, bucket_access: access };
  return store.insert('obj_key', id, record, { key: accessKey });
}

/** Each listed bucket must exist, and be listed once; items whose names are not strings already have their errors. */
function grantProblems(store: Store, grants: unknown): FieldError[] {
  if (!Array.isArray(grants)) return [];
  const seen = new Set<string>();
  return grants.flatMap((g: Partial<BucketGrant> | null, i) => {
    if (typeof g?.cluster !== 'string' || typeof g.bucket_name !== 'string') return [];
    const id = bucketId(g.cluster, g.bucket_name);
    if (seen.has(id)) return [{ field: `bucket_access.${i}.bucket_name`, reason: `Bucket ${id} is listed more than once` }];
    seen.add(id);
    return store.get('bucket', id) ? [] : [{ field: `bucket_access.${i}.bucket_name`, reason: `Bucket ${g.bucket_name} not found in cluster ${g.cluster}` }];
  });
}

const presentKey = (row: Row) => present(ObjKey, row);

export function keyRoutes(r: Router): void {
  r.get('/object-storage/keys', RO, reading((ctx) => listPage(ctx, 'obj_key', { present: presentKey })));

  r.post(
    '/object-storage/keys',
    RW,
    writing((ctx) => {
      const body = checkedBody(ctx, ObjKey, 'create', (_v, raw) => grantProblems(ctx.store, raw.bucket_access));
      const access = (body.bucket_access as BucketGrant[] | undefined) ?? null;
      let pair = newKeyPair();
      while (ctx.store.getByKey('obj_key', pair.access_key)) pair = newKeyPair();
      const record = insertKey(ctx.store, body.label as string | undefined, access, pair.access_key);
      return { ...presentKey(record), secret_key: pair.secret_key };
    }),
  );

  r.get('/object-storage/keys/{keyId}', RO, reading((ctx) => presentKey(mustGet(ctx, 'obj_key', ctx.params.keyId!, 'Key not found'))));

  r.put(
    '/object-storage/keys/{keyId}',
    RW,
    writing((ctx) => {
      const current = mustGet<KeyRecord>(ctx, 'obj_key', ctx.params.keyId!, 'Key not found');
      const body = bodyFor(ctx, ObjKey, 'update', current);
      return presentKey(ctx.store.put('obj_key', current.id, { ...current, ...body }));
    }),
  );

  r.delete(
    '/object-storage/keys/{keyId}',
    RW,
    writing((ctx) => {
      const current = mustGet<KeyRecord>(ctx, 'obj_key', ctx.params.keyId!, 'Key not found');
      ctx.store.delete('obj_key', current.id);
    }),
  );
}
