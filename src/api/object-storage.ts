// fs.promises, not node:fs/promises: Node loads it on first use, not with the app (~2 ms of every start).
import { createReadStream, createWriteStream, promises as fsPromises } from 'node:fs';
import { createRequire } from 'node:module';
import { pipeline } from 'node:stream/promises';
import type { request } from 'undici';
import type { ApiClient } from './client.js';
import { ApiError, httpError } from './errors.js';
import { fetchAllPages } from './pages.js';
import { BucketObject } from '../model/object-storage.js';
import { checkRow } from '../model/response.js';

/** Typed endpoint functions of object storage: buckets, objects, certificates, keys, clusters, transfer. */

export type ObjectAcl = 'private' | 'public-read' | 'authenticated-read' | 'public-read-write' | 'custom';

export interface Bucket {
  created: string;
  cluster: string;
  label: string;
  hostname: string;
  size: number;
  objects: number;
}

export interface Cluster {
  id: string;
  domain: string;
  status: 'available' | 'unavailable';
  region: string;
  static_site_domain: string;
}

export interface BucketGrant {
  cluster: string;
  bucket_name: string;
  permissions: 'read_write' | 'read_only';
}

export interface ObjKey {
  id: number;
  label: string;
  access_key: string;
  limited: boolean;
  /** null: every bucket; []: none; items: only those. */
  bucket_access: BucketGrant[] | null;
}

/** An entry of a bucket listing: an object, or (size null) a prefix standing for the names under it. */
export interface ObjectEntry {
  name: string;
  etag: string | null;
  last_modified: string | null;
  owner: string | null;
  size: number | null;
  next_marker: string | null;
  is_truncated: boolean;
}

export interface ObjectAclInfo {
  acl: ObjectAcl;
  acl_xml: string;
}

export interface PresignRequest {
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  content_type?: string;
  expires_in?: number;
}

export const OBJ_RO = 'object_storage:read_only';
export const OBJ_RW = 'object_storage:read_write';

export const BUCKETS_PATH = '/object-storage/buckets';
export const CLUSTERS_PATH = '/object-storage/clusters';
export const KEYS_PATH = '/object-storage/keys';
export const TRANSFER_PATH = '/object-storage/transfer';
export const CANCEL_PATH = '/object-storage/cancel';

const seg = encodeURIComponent;
export const bucketPath = (cluster: string, bucket: string) => `${BUCKETS_PATH}/${seg(cluster)}/${seg(bucket)}`;
export const keyPath = (id: number) => `${KEYS_PATH}/${id}`;

export const listBuckets = (client: ApiClient) => fetchAllPages<Bucket>(client, BUCKETS_PATH);
export const listClusterBuckets = (client: ApiClient, cluster: string) => fetchAllPages<Bucket>(client, `${BUCKETS_PATH}/${seg(cluster)}`);
export const getBucket = (client: ApiClient, cluster: string, bucket: string) => client.get<Bucket>(bucketPath(cluster, bucket));
export const createBucket = (client: ApiClient, body: Record<string, unknown>) => client.post<Bucket>(BUCKETS_PATH, body);

/** Plain delete refuses a bucket with objects; `force` empties it first (up to the service's limit). */
export const deleteBucket = (client: ApiClient, cluster: string, bucket: string, force = false) =>
  client.delete<unknown>(bucketPath(cluster, bucket), force ? { query: { force: 'true' } } : {});

/** POST changes only the fields sent; PUT is the same call upstream names "update". */
export const modifyAccess = (client: ApiClient, cluster: string, bucket: string, body: { acl?: ObjectAcl; cors_enabled?: boolean }) =>
  client.post<unknown>(`${bucketPath(cluster, bucket)}/access`, body);
export const updateAccess = (client: ApiClient, cluster: string, bucket: string, body: { acl?: ObjectAcl; cors_enabled?: boolean }) =>
  client.put<unknown>(`${bucketPath(cluster, bucket)}/access`, body);

export const getObjectAcl = (client: ApiClient, cluster: string, bucket: string, name: string) =>
  client.get<ObjectAclInfo>(`${bucketPath(cluster, bucket)}/object-acl`, { query: { name } });
export const putObjectAcl = (client: ApiClient, cluster: string, bucket: string, name: string, acl: ObjectAcl) =>
  client.put<ObjectAclInfo>(`${bucketPath(cluster, bucket)}/object-acl`, { name, acl });

export interface ObjectPage {
  entries: ObjectEntry[];
  /** Where the next page starts; null on the last page. */
  nextMarker: string | null;
}

/** A listing entry has no id: a prefix entry is a name and nothing else. */
const LISTED_OBJECT = { schema: BucketObject };

/** One page of a bucket listing, by marker (no page numbers): prefix filters names, delimiter groups them into prefixes. */
export async function listObjects(
  client: ApiClient,
  cluster: string,
  bucket: string,
  opts: { prefix?: string; delimiter?: string; marker?: string; pageSize?: number } = {},
): Promise<ObjectPage> {
  const query = { prefix: opts.prefix || undefined, delimiter: opts.delimiter || undefined, marker: opts.marker || undefined, page_size: opts.pageSize };
  const what = `GET ${bucketPath(cluster, bucket)}/object-list`;
  const body = await client.get<{ data?: unknown }>(`${bucketPath(cluster, bucket)}/object-list`, { query });
  if (!body || !Array.isArray(body.data)) throw new ApiError('shape', `The response to ${what} has no data list`);
  // An entry the app cannot read stays in the listing, marked, as in every list; keyed by its page and place.
  const entries = body.data.map((item, i) => checkRow(LISTED_OBJECT, item, `!${opts.marker ?? ''}.${i}`)) as ObjectEntry[];
  const last = entries[entries.length - 1];
  const marker = last?.next_marker ?? last?.name;
  return { entries, nextMarker: last?.is_truncated === true && typeof marker === 'string' ? marker : null };
}

export const presignUrl = (client: ApiClient, cluster: string, bucket: string, body: PresignRequest) =>
  client.post<{ url: string }>(`${bucketPath(cluster, bucket)}/object-url`, body);

export const getSsl = (client: ApiClient, cluster: string, bucket: string) => client.get<{ ssl: boolean }>(`${bucketPath(cluster, bucket)}/ssl`);
export const uploadSsl = (client: ApiClient, cluster: string, bucket: string, body: { certificate: string; private_key: string }) =>
  client.post<{ ssl: boolean }>(`${bucketPath(cluster, bucket)}/ssl`, body);
export const deleteSsl = (client: ApiClient, cluster: string, bucket: string) => client.delete<unknown>(`${bucketPath(cluster, bucket)}/ssl`);

export const listClusters = (client: ApiClient) => fetchAllPages<Cluster>(client, CLUSTERS_PATH);
export const getCluster = (client: ApiClient, id: string) => client.get<Cluster>(`${CLUSTERS_PATH}/${seg(id)}`);

export const getKey = (client: ApiClient, id: number) => client.get<ObjKey>(keyPath(id));
/** The response carries secret_key: the only time it is ever shown. */
export const createKey = (client: ApiClient, body: { label?: string; bucket_access?: BucketGrant[] }) =>
  client.post<ObjKey & { secret_key: string }>(KEYS_PATH, body);
export const updateKey = (client: ApiClient, id: number, body: { label: string }) => client.put<ObjKey>(keyPath(id), body);
export const deleteKey = (client: ApiClient, id: number) => client.delete<unknown>(keyPath(id));

/** Outbound transfer used by the account's buckets this month, in bytes. */
export const getTransfer = (client: ApiClient) => client.get<{ used: number }>(TRANSFER_PATH);
/** Cancels object storage on the account: refused while any bucket holds objects; deletes the (empty) buckets and the keys. */
export const cancelObjectStorage = (client: ApiClient) => client.post<unknown>(CANCEL_PATH, {});

/** Cluster choices for forms: every cluster, unavailable ones marked. */
export async function clusterChoices(client: ApiClient) {
  return (await listClusters(client)).map((c) => ({ value: c.id, label: `${c.id} (${c.region})${c.status === 'available' ? '' : ` ${c.status}`}` }));
}

/**
 * Pre-signed URLs are used without the API token: the signature is the
 * authority. These move object data through them.
 */
async function signedRequest(url: string, init: Parameters<typeof request>[1]) {
  // Required from node_modules on first use, which keeps it out of the UI's bundle (it was half of it, read at every start):
  // the undici package costs ~100 ms to load. Required, not imported: see src/api/http.ts.
  const { request: send } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const res = await send(url, init);
  if (res.statusCode >= 400) {
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    throw httpError(res.statusCode, `${init?.method ?? 'GET'} pre-signed URL`, parsed);
  }
  return res;
}

/** GET through a pre-signed URL into a local file; the bytes written. */
export async function downloadToFile(url: string, path: string): Promise<number> {
  const res = await signedRequest(url, { method: 'GET' });
  let bytes = 0;
  res.body.on('data', (chunk: Buffer) => (bytes += chunk.length));
  await pipeline(res.body, createWriteStream(path));
  return bytes;
}

/** PUT a local file through a pre-signed URL, with the content type the URL was signed for; the bytes sent. */
export async function uploadFile(url: string, path: string, contentType: string): Promise<number> {
  const { size } = await fsPromises.stat(path);
  await (await signedRequest(url, { method: 'PUT', body: createReadStream(path), headers: { 'content-type': contentType, 'content-length': String(size) } })).body.text();
  return size;
}

/** DELETE an object through a pre-signed URL (the API has no delete of its own for objects). */
export async function deleteThroughUrl(url: string): Promise<void> {
  await (await signedRequest(url, { method: 'DELETE' })).body.text();
}
