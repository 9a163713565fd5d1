import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, errorFields, startTestService, RESTRICTED_TOKEN } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { issueToken, type User } from '../../src/server/auth.js';
import { deleteBucket, putObject, type BucketRecord } from '../../src/server/areas/object-storage-shared.js';
import type { KeyRecord } from '../../src/server/areas/object-storage-keys.js';
import { FORCE_DELETE_MAX_OBJECTS } from '../../src/server/areas/object-storage.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const B = '/object-storage/buckets';

/** Starts each test from an account without buckets or keys. */
beforeEach(() => {
  svc.store.tx(() => {
    for (const bucket of svc.store.all<BucketRecord>('bucket')) deleteBucket(svc.store, bucket);
    for (const key of svc.store.all<KeyRecord>('obj_key')) svc.store.delete('obj_key', key.id);
  });
});

async function makeBucket(label: string, cluster = 'us-east-1', extra: Record<string, unknown> = {}) {
  const r = await call(svc, 'POST', B, { body: { label, cluster, ...extra } });
  expect(r.status).toBe(200);
  return r.body;
}

/** Stores objects straight into the store (the pre-signed upload path has its own tests). */
function addObjects(cluster: string, label: string, names: string[]) {
  svc.store.tx(() => {
    for (const name of names) putObject(svc.store, `${cluster}/${label}`, name, Buffer.from(`body of ${name}`), 'text/plain');
  });
}

describe('clusters', () => {
  it('lists and shows clusters without a token, 404 for an unknown one', async () => {
    const list = await call(svc, 'GET', '/object-storage/clusters', { token: null });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 3 });
    expect(list.body.data[0]).toEqual({
      id: 'us-east-1',
      domain: 'us-east-1.objects.example.com',
      status: 'available',
      region: 'us-east',
      static_site_domain: 'website-us-east-1.objects.example.com',
    });
    expect((await call(svc, 'GET', '/object-storage/clusters/eu-central-1', { token: null })).body.region).toBe('eu-central');
    expect((await call(svc, 'GET', '/object-storage/clusters/mars-1')).status).toBe(404);
  });
});

describe('buckets', () => {
  it('creates a bucket and returns exactly the Bucket fields', async () => {
    const body = await makeBucket('media-files', 'us-east-1', { acl: 'public-read', cors_enabled: true });
    expect(body).toEqual({
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      cluster: 'us-east-1',
      label: 'media-files',
      hostname: 'media-files.us-east-1.objects.example.com',
      size: 0,
      objects: 0,
    });
    const stored = svc.store.get<Record<string, unknown>>('bucket', 'us-east-1/media-files')!;
    expect(stored).toMatchObject({ acl: 'public-read', cors_enabled: true });
    expect((await call(svc, 'GET', `${B}/us-east-1/media-files`)).body).toEqual(body);
  });

  it('defaults acl to private and cors_enabled to false', async () => {
    await makeBucket('plain-bucket');
    expect(svc.store.get('bucket', 'us-east-1/plain-bucket')).toMatchObject({ acl: 'private', cors_enabled: false });
  });

  it('answers 200 with the existing bucket when it is created again', async () => {
    const first = await makeBucket('again');
    addObjects('us-east-1', 'again', ['a.txt']);
    const second = await call(svc, 'POST', B, { body: { label: 'again', cluster: 'us-east-1', acl: 'public-read' } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ created: first.created, label: 'again', objects: 1 });
    expect(svc.store.get('bucket', 'us-east-1/again')).toMatchObject({ acl: 'private' });
    expect((await call(svc, 'GET', B)).body.results).toBe(1);
  });

  it('keeps labels unique per cluster only', async () => {
    await makeBucket('shared-name', 'us-east-1');
    const other = await makeBucket('shared-name', 'eu-central-1');
    expect(other.hostname).toBe('shared-name.eu-central-1.objects.example.com');
    expect((await call(svc, 'GET', B)).body.results).toBe(2);
    const inCluster = await call(svc, 'GET', `${B}/eu-central-1`);
    expect(inCluster.body).toMatchObject({ page: 1, pages: 1, results: 1 });
    expect(inCluster.body.data[0].cluster).toBe('eu-central-1');
  });

  it('reports every problem of a create at once', async () => {
    const none = await call(svc, 'POST', B, { body: {} });
    expect(none.status).toBe(400);
    expect(errorFields(none).sort()).toEqual(['cluster', 'label']);
    const bad = await call(svc, 'POST', B, { body: { label: 'Bad_Name', cluster: 'mars-1', acl: 'custom', cors_enabled: 'yes', color: 'red' } });
    expect(bad.status).toBe(400);
    expect(errorFields(bad).sort()).toEqual(['acl', 'cluster', 'cors_enabled', 'label']);
    expect(bad.headers['x-ignored-fields']).toBe('color');
  });

  it.each([
    ['ab', /3\.\.63/],
    ['a'.repeat(64), /3\.\.63/],
    ['Uppercase', /lowercase/],
    ['under_score', /lowercase/],
    ['-leading', /start and end/],
    ['trailing-', /start and end/],
  ])('rejects the bucket name %s', async (label, reason) => {
    const r = await call(svc, 'POST', B, { body: { label, cluster: 'us-east-1' } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'label', reason: expect.stringMatching(reason) }]);
  });

  it('accepts names at the length limits', async () => {
    await makeBucket('a1b');
    await makeBucket(`0${'x'.repeat(61)}9`);
  });

  it('answers 404 for unknown clusters and buckets', async () => {
    expect((await call(svc, 'GET', `${B}/mars-1`)).status).toBe(404);
    expect((await call(svc, 'GET', `${B}/us-east-1/nope`)).status).toBe(404);
    expect((await call(svc, 'DELETE', `${B}/us-east-1/nope`)).status).toBe(404);
    expect((await call(svc, 'GET', `${B}/us-east-1/nope/object-list`)).status).toBe(404);
  });

  it('computes size and objects from the stored objects', async () => {
    await makeBucket('counted');
    addObjects('us-east-1', 'counted', ['a', 'bb', 'ccc']);
    const r = await call(svc, 'GET', `${B}/us-east-1/counted`);
    expect(r.body).toMatchObject({ objects: 3, size: 'body of a'.length + 'body of bb'.length + 'body of ccc'.length });
  });
});

describe('bucket delete', () => {
  it('deletes an empty bucket', async () => {
    await makeBucket('empty-one');
    const r = await call(svc, 'DELETE', `${B}/us-east-1/empty-one`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect((await call(svc, 'GET', `${B}/us-east-1/empty-one`)).status).toBe(404);
  });

  it('refuses a non-empty bucket without force, then deletes it and its objects with ?force=true', async () => {
    await makeBucket('full-one');
    addObjects('us-east-1', 'full-one', ['x/1', 'x/2']);
    const refused = await call(svc, 'DELETE', `${B}/us-east-1/full-one`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].reason).toMatch(/not empty/);
    expect(svc.store.count('object', 'us-east-1/full-one')).toBe(2);
    const forced = await call(svc, 'DELETE', `${B}/us-east-1/full-one?force=true`);
    expect(forced.status).toBe(200);
    expect(svc.store.count('object', 'us-east-1/full-one')).toBe(0);
    expect(svc.store.getBlob('object:us-east-1/full-one/x/1')).toBeUndefined();
    expect((await call(svc, 'GET', `${B}/us-east-1/full-one`)).status).toBe(404);
  });

  it('takes force in the body too, and rejects a malformed force', async () => {
    await makeBucket('body-force');
    addObjects('us-east-1', 'body-force', ['a']);
    expect((await call(svc, 'DELETE', `${B}/us-east-1/body-force?force=maybe`)).status).toBe(400);
    expect(errorFields(await call(svc, 'DELETE', `${B}/us-east-1/body-force`, { body: { force: 'yes' } }))).toEqual(['force']);
    expect((await call(svc, 'DELETE', `${B}/us-east-1/body-force?force=false`)).status).toBe(400);
    expect((await call(svc, 'DELETE', `${B}/us-east-1/body-force`, { body: { force: true } })).status).toBe(200);
  });

  it('fails a forced delete when the bucket holds too many objects', async () => {
    await makeBucket('huge-one');
    addObjects('us-east-1', 'huge-one', Array.from({ length: FORCE_DELETE_MAX_OBJECTS + 1 }, (_, i) => `o/${i}`));
    const r = await call(svc, 'DELETE', `${B}/us-east-1/huge-one?force=true`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].reason).toMatch(/too many objects.*1000/);
    expect(svc.store.count('object', 'us-east-1/huge-one')).toBe(FORCE_DELETE_MAX_OBJECTS + 1);
  });
});

describe('bucket access', () => {
  it('changes acl and cors with POST and PUT, answering {}', async () => {
    await makeBucket('acl-bucket');
    const post = await call(svc, 'POST', `${B}/us-east-1/acl-bucket/access`, { body: { acl: 'public-read-write', cors_enabled: true } });
    expect(post.status).toBe(200);
    expect(post.body).toEqual({});
    expect(svc.store.get('bucket', 'us-east-1/acl-bucket')).toMatchObject({ acl: 'public-read-write', cors_enabled: true });
    const put = await call(svc, 'PUT', `${B}/us-east-1/acl-bucket/access`, { body: { acl: 'custom' } });
    expect(put.body).toEqual({});
    expect(svc.store.get('bucket', 'us-east-1/acl-bucket')).toMatchObject({ acl: 'custom', cors_enabled: true });
  });

  it('rejects bad values; ignores and names unknown fields', async () => {
    await makeBucket('acl-bad');
    const r = await call(svc, 'PUT', `${B}/us-east-1/acl-bad/access`, { body: { acl: 'everyone', cors_enabled: 1, owner: 'x' } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['acl', 'cors_enabled']);
    expect(r.headers['x-ignored-fields']).toBe('owner');
    expect((await call(svc, 'POST', `${B}/us-east-1/missing/access`, { body: { acl: 'private' } })).status).toBe(404);
  });
});

describe('object ACLs', () => {
  it('shows and changes the ACL of a real object', async () => {
    await makeBucket('acl-objects');
    addObjects('us-east-1', 'acl-objects', ['docs/readme.txt']);
    const path = `${B}/us-east-1/acl-objects/object-acl`;
    const view = await call(svc, 'GET', `${path}?name=${encodeURIComponent('docs/readme.txt')}`);
    expect(view.status).toBe(200);
    expect(view.body.acl).toBe('private');
    expect(view.body.acl_xml).toMatch(/^<\?xml.*<AccessControlPolicy .*<Permission>FULL_CONTROL<\/Permission>.*<\/AccessControlPolicy>$/);
    expect(view.body.acl_xml).not.toMatch(/AllUsers/);
    const put = await call(svc, 'PUT', path, { body: { name: 'docs/readme.txt', acl: 'public-read' } });
    expect(put.status).toBe(200);
    expect(put.body.acl).toBe('public-read');
    expect(put.body.acl_xml).toMatch(/AllUsers<\/URI><\/Grantee><Permission>READ</);
    expect((await call(svc, 'GET', `${path}?name=docs/readme.txt`)).body).toEqual(put.body);
    const auth = await call(svc, 'PUT', path, { body: { name: 'docs/readme.txt', acl: 'authenticated-read' } });
    expect(auth.body.acl_xml).toMatch(/AuthenticatedUsers/);
  });

  it('needs name, answers 404 for a missing object, validates the update', async () => {
    await makeBucket('acl-rules');
    const path = `${B}/us-east-1/acl-rules/object-acl`;
    const noName = await call(svc, 'GET', path);
    expect(noName.status).toBe(400);
    expect(errorFields(noName)).toEqual(['name']);
    expect((await call(svc, 'GET', `${path}?name=ghost.txt`)).status).toBe(404);
    const empty = await call(svc, 'PUT', path, { body: {} });
    expect(empty.status).toBe(400);
    expect(errorFields(empty).sort()).toEqual(['acl', 'name']);
    expect(errorFields(await call(svc, 'PUT', path, { body: { name: 'x', acl: 'world' } }))).toEqual(['acl']);
    expect((await call(svc, 'PUT', path, { body: { name: 'ghost.txt', acl: 'private' } })).status).toBe(404);
  });
});

describe('object list', () => {
  const names = [
    'index.html',
    'robots.txt',
    ...Array.from({ length: 40 }, (_, i) => `css/file-${String(i).padStart(2, '0')}.css`),
    ...Array.from({ length: 70 }, (_, i) => `img/${String(i).padStart(3, '0')}.png`),
    'img/products/a.png',
    'img/products/b.png',
    ...Array.from({ length: 30 }, (_, i) => `js/m${String(i).padStart(2, '0')}.js`),
  ];

  async function listAll(query: string) {
    const pages: any[][] = [];
    let marker: string | null = '';
    do {
      const url: string = `${B}/us-east-1/listing/object-list?${query}${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`;
      const r = await call<{ data: any[] }>(svc, 'GET', url);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['data']);
      pages.push(r.body.data);
      marker = r.body.data.length ? r.body.data[0].next_marker : null;
    } while (marker);
    return pages;
  }

  beforeEach(async () => {
    await makeBucket('listing');
    addObjects('us-east-1', 'listing', [...names].reverse());
  });

  it('pages by marker in name order, each entry carrying next_marker and is_truncated', async () => {
    const pages = await listAll('page_size=50');
    expect(pages.map((p) => p.length)).toEqual([50, 50, 44]);
    expect(pages.flat().map((e) => e.name)).toEqual([...names].sort());
    expect(pages[0]!.every((e) => e.is_truncated === true && e.next_marker === pages[0]![49].name)).toBe(true);
    expect(pages[2]!.every((e) => e.is_truncated === false && e.next_marker === null)).toBe(true);
    expect(pages[0]![0]).toEqual({
      name: 'css/file-00.css',
      etag: expect.stringMatching(/^[0-9a-f]{32}$/),
      last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      owner: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      size: 'body of css/file-00.css'.length,
      next_marker: [...names].sort()[49],
      is_truncated: true,
    });
  });

  it('defaults to 100 per page and checks page_size', async () => {
    const r = await call(svc, 'GET', `${B}/us-east-1/listing/object-list`);
    expect(r.body.data).toHaveLength(100);
    expect(errorFields(await call(svc, 'GET', `${B}/us-east-1/listing/object-list?page_size=24`))).toEqual(['page_size']);
    expect(errorFields(await call(svc, 'GET', `${B}/us-east-1/listing/object-list?page_size=101`))).toEqual(['page_size']);
  });

  it('groups names by delimiter into prefix entries', async () => {
    const [root] = await listAll('delimiter=/');
    expect(root!.map((e) => e.name)).toEqual(['css/', 'img/', 'index.html', 'js/', 'robots.txt']);
    expect(root![0]).toEqual({ name: 'css/', etag: null, last_modified: null, owner: null, size: null, next_marker: null, is_truncated: false });
    const [img] = await listAll('delimiter=/&prefix=img/products/');
    expect(img!.map((e) => e.name)).toEqual(['img/products/a.png', 'img/products/b.png']);
  });

  it('pages through a prefix with a delimiter without repeating a prefix entry across pages', async () => {
    const pages = await listAll('delimiter=/&prefix=img/&page_size=25');
    const all = pages.flat().map((e) => e.name);
    expect(pages.map((p) => p.length)).toEqual([25, 25, 21]);
    expect(all).toEqual([...Array.from({ length: 70 }, (_, i) => `img/${String(i).padStart(3, '0')}.png`), 'img/products/']);
    const root = await listAll('delimiter=/&page_size=25');
    expect(root.flat().map((e) => e.name)).toEqual(['css/', 'img/', 'index.html', 'js/', 'robots.txt']);
  });

  it('continues after a prefix entry used as the marker', async () => {
    const r = await call(svc, 'GET', `${B}/us-east-1/listing/object-list?delimiter=/&marker=css/`);
    expect(r.body.data.map((e: { name: string }) => e.name)).toEqual(['img/', 'index.html', 'js/', 'robots.txt']);
  });

  it('answers {data: []} for an empty result', async () => {
    const r = await call(svc, 'GET', `${B}/us-east-1/listing/object-list?prefix=nothing/`);
    expect(r.body).toEqual({ data: [] });
  });
});

describe('pre-signed URL requests', () => {
  it('signs a URL on this service with the default lifetime', async () => {
    await makeBucket('sign-me');
    const before = Math.floor(Date.now() / 1000);
    const r = await call(svc, 'POST', `${B}/us-east-1/sign-me/object-url`, { body: { name: 'does/not/exist.txt', method: 'GET' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['url']);
    const url = new URL(r.body.url);
    expect(url.origin).toBe(svc.origin);
    expect(url.pathname).toBe('/__objects/us-east-1/sign-me/does/not/exist.txt');
    expect(url.searchParams.get('method')).toBe('GET');
    const expires = Number(url.searchParams.get('expires'));
    expect(expires - before).toBeGreaterThanOrEqual(3600);
    expect(expires - before).toBeLessThanOrEqual(3602);
    expect(url.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('enforces name, method, content_type and the expires_in range', async () => {
    await makeBucket('sign-rules');
    const path = `${B}/us-east-1/sign-rules/object-url`;
    expect(errorFields(await call(svc, 'POST', path, { body: {} })).sort()).toEqual(['method', 'name']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: 'a', method: 'PUT' } }))).toEqual(['content_type']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: 'a', method: 'POST' } }))).toEqual(['content_type']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: 'a', method: 'PATCH' } }))).toEqual(['method']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: 'a', method: 'GET', expires_in: 359 } }))).toEqual(['expires_in']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: 'a', method: 'GET', expires_in: 68401 } }))).toEqual(['expires_in']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: '', method: 'DELETE' } }))).toEqual(['name']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: '..', method: 'GET' } }))).toEqual(['name']);
    expect(errorFields(await call(svc, 'POST', path, { body: { name: 'x'.repeat(1025), method: 'GET' } }))).toEqual(['name']);
    expect((await call(svc, 'POST', path, { body: { name: 'a', method: 'DELETE', expires_in: 68400 } })).status).toBe(200);
    expect((await call(svc, 'POST', path, { body: { name: 'a', method: 'PUT', content_type: 'text/plain', expires_in: 360 } })).status).toBe(200);
    expect((await call(svc, 'POST', `${B}/us-east-1/ghost/object-url`, { body: { name: 'a', method: 'GET' } })).status).toBe(404);
  });
});

describe('bucket certificates', () => {
  // Self-signed EC pair for test.objects.example.com, valid until 2036, plus an unrelated key.
  const CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUJQeIUYRCJrC2V0/ou6Ft4JANxqkwCgYIKoZIzj0EAwIw
IzEhMB8GA1UEAwwYdGVzdC5vYmplY3RzLmV4YW1wbGUuY29tMB4XDTI2MTEyMjA0
MjgwN1oXDTM2MTExOTA0MjgwN1owIzEhMB8GA1UEAwwYdGVzdC5vYmplY3RzLmV4
YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEs4tzi4riajVfQ6Si
88ZQwsAjqZYK3Rwh0vDaMqb40prOE6mI1XuB+iVoiIjTzlVHXt/vUwiWGFaYB/Af
kzxWfaNTMFEwHQYDVR0OBBYEFJqqx/T8CQJeRqB9NjO1zoiasHO/MB8GA1UdIwQY
MBaAFJqqx/T8CQJeRqB9NjO1zoiasHO/MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZI
zj0EAwIDSAAwRQIhAK7M5mVUtnuaOIPrHlZqSvJmkDRX3WfXacQ8pp6cN03eAiAk
iX/dcyGyeUVPoMq0IgCglOTpQKEtZcUpJdvPEvMZuw==
-----END CERTIFICATE-----
`;
  const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglF0uCrVY2+BWwt2X
oTxiOyVuxRhYv1pCngAJlv1eT/2hRANCAASzi3OLiuJqNV9DpKLzxlDCwCOplgrd
HCHS8NoypvjSms4TqYjVe4H6JWiIiNPOVUde3+9TCJYYVpgH8B+TPFZ9
-----END PRIVATE KEY-----
`;
  const OTHER_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmQdLXAeiTO0S9dH/
kU/AHQ5aV6kvTuFTA6aVeYFfOLuhRANCAATz6vOel90A9rU2YjHUDZiKhMyC08im
tBQhdsgXz8FJ8mEp75F5Y5eJkXo7Bg7boAZLxdG46OzlHk7OUQgajRsU
-----END PRIVATE KEY-----
`;
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const ssl = `${B}/us-east-1/tls-site/ssl`;

  beforeEach(() => makeBucket('tls-site'));

  it('uploads a Base64 PEM pair, refuses a second upload, deletes, then takes a raw PEM', async () => {
    expect((await call(svc, 'GET', ssl)).body).toEqual({ ssl: false });
    const up = await call(svc, 'POST', ssl, { body: { certificate: b64(CERT), private_key: KEY } });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ ssl: true });
    expect((await call(svc, 'GET', ssl)).body).toEqual({ ssl: true });
    const stored = JSON.stringify(svc.store.get('bucket', 'us-east-1/tls-site'));
    expect(stored).not.toMatch(/BEGIN|MIIBmzCCAUGgAwIBAgIU/);
    const again = await call(svc, 'POST', ssl, { body: { certificate: b64(CERT), private_key: KEY } });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].reason).toMatch(/delete it/);
    const del = await call(svc, 'DELETE', ssl);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await call(svc, 'GET', ssl)).body).toEqual({ ssl: false });
    expect((await call(svc, 'POST', ssl, { body: { certificate: CERT, private_key: b64(KEY) } })).body).toEqual({ ssl: true });
  });

  it('validates the pair', async () => {
    expect(errorFields(await call(svc, 'POST', ssl, { body: {} })).sort()).toEqual(['certificate', 'private_key']);
    const garbage = await call(svc, 'POST', ssl, { body: { certificate: b64('hello'), private_key: 'not a key' } });
    expect(garbage.status).toBe(400);
    expect(errorFields(garbage).sort()).toEqual(['certificate', 'private_key']);
    const broken = CERT.replace('MIIBmzCC', 'MIIBmzXX');
    expect(errorFields(await call(svc, 'POST', ssl, { body: { certificate: b64(broken), private_key: KEY } }))).toEqual(['certificate']);
    const mismatch = await call(svc, 'POST', ssl, { body: { certificate: b64(CERT), private_key: OTHER_KEY } });
    expect(mismatch.body.errors).toEqual([{ field: 'private_key', reason: 'private_key does not match the certificate' }]);
    expect((await call(svc, 'GET', ssl)).body).toEqual({ ssl: false });
    expect((await call(svc, 'GET', `${B}/us-east-1/ghost/ssl`)).status).toBe(404);
  });
});

describe('keys', () => {
  it('shows the secret only in the create response', async () => {
    const r = await call(svc, 'POST', '/object-storage/keys', { body: { label: 'ci' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(Number),
      label: 'ci',
      access_key: expect.stringMatching(/^[A-Z0-9]{20}$/),
      secret_key: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      limited: false,
      bucket_access: null,
    });
    const one = await call(svc, 'GET', `/object-storage/keys/${r.body.id}`);
    expect(one.body).toEqual({ id: r.body.id, label: 'ci', access_key: r.body.access_key, limited: false, bucket_access: null });
    const list = await call(svc, 'GET', '/object-storage/keys');
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 1 });
    expect(list.body.data[0]).not.toHaveProperty('secret_key');
    expect(JSON.stringify(svc.store.all('obj_key'))).not.toContain(r.body.secret_key);
  });

  it('defaults the label and limits access by bucket_access', async () => {
    await makeBucket('key-target', 'eu-central-1');
    const open = await call(svc, 'POST', '/object-storage/keys', {});
    expect(open.body.label).toBe(`key-${open.body.id}`);
    const none = await call(svc, 'POST', '/object-storage/keys', { body: { bucket_access: [] } });
    expect(none.body).toMatchObject({ limited: true, bucket_access: [] });
    const grant = { cluster: 'eu-central-1', bucket_name: 'key-target', permissions: 'read_only' };
    const some = await call(svc, 'POST', '/object-storage/keys', { body: { label: 'reader', bucket_access: [grant] } });
    expect(some.body).toMatchObject({ limited: true, bucket_access: [grant] });
    expect(open.body.access_key).not.toBe(none.body.access_key);
  });

  it('rejects bad labels and bucket grants, all at once', async () => {
    const r = await call(svc, 'POST', '/object-storage/keys', {
      body: {
        label: 'x'.repeat(51),
        bucket_access: [{ cluster: 'us-east-1', bucket_name: 'ghost', permissions: 'read_only' }, { cluster: 'us-east-1', permissions: 'admin' }],
      },
    });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['bucket_access.0.bucket_name', 'bucket_access.1.bucket_name', 'bucket_access.1.permissions', 'label']);
    await makeBucket('twice');
    const dup = { cluster: 'us-east-1', bucket_name: 'twice', permissions: 'read_only' };
    expect(errorFields(await call(svc, 'POST', '/object-storage/keys', { body: { bucket_access: [dup, dup] } }))).toEqual(['bucket_access.1.bucket_name']);
    expect(errorFields(await call(svc, 'POST', '/object-storage/keys', { body: { label: '' } }))).toEqual(['label']);
    expect(svc.store.count('obj_key')).toBe(0);
  });

  it('renames a key, refuses other changes, deletes it', async () => {
    const created = (await call(svc, 'POST', '/object-storage/keys', { body: { label: 'old', bucket_access: [] } })).body;
    const path = `/object-storage/keys/${created.id}`;
    const renamed = await call(svc, 'PUT', path, { body: { label: 'new' } });
    expect(renamed.body).toEqual({ id: created.id, label: 'new', access_key: created.access_key, limited: true, bucket_access: [] });
    const access = await call(svc, 'PUT', path, { body: { bucket_access: [{ cluster: 'us-east-1', bucket_name: 'x', permissions: 'read_only' }] } });
    expect(errorFields(access)).toEqual(['bucket_access']);
    const unknown = await call(svc, 'PUT', path, { body: { access_key: 'A', colour: 1 } });
    expect(unknown.status).toBe(200);
    expect(unknown.headers['x-ignored-fields']).toBe('colour');
    expect((await call(svc, 'DELETE', path)).body).toEqual({});
    expect((await call(svc, 'GET', path)).status).toBe(404);
    expect((await call(svc, 'PUT', path, { body: { label: 'z' } })).status).toBe(404);
    expect((await call(svc, 'GET', '/object-storage/keys/abc')).status).toBe(404);
  });
});

describe('cancel', () => {
  it('refuses while a bucket holds objects, then removes every bucket and key', async () => {
    await makeBucket('keep-a');
    await makeBucket('keep-b', 'ap-south-1');
    addObjects('ap-south-1', 'keep-b', ['still-here.txt']);
    await call(svc, 'POST', '/object-storage/keys', { body: { label: 'k' } });
    const refused = await call(svc, 'POST', '/object-storage/cancel');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].reason).toMatch(/must be empty.*ap-south-1\/keep-b/);
    expect((await call(svc, 'GET', B)).body.results).toBe(2);
    svc.store.tx(() => svc.store.deleteChildren('object', 'ap-south-1/keep-b'));
    const ok = await call(svc, 'POST', '/object-storage/cancel');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({});
    expect((await call(svc, 'GET', B)).body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    expect((await call(svc, 'GET', '/object-storage/keys')).body.results).toBe(0);
    await makeBucket('after-cancel');
  });
});

describe('transfer', () => {
  it('reports used bytes', async () => {
    const r = await call(svc, 'GET', '/object-storage/transfer');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ used: expect.any(Number) });
  });
});

describe('scopes and grants', () => {
  function tokenWith(scopes: string): string {
    const value = `os-token-${scopes.replace(/\W/g, '-')}-${Math.random().toString(36).slice(2)}`;
    svc.store.tx(() => issueToken(svc.store, value, { user_id: 1, label: 'scoped', scopes }));
    return value;
  }

  function setAccountAccess(level: 'read_only' | 'read_write' | null) {
    svc.store.tx(() => {
      const user = svc.store.get<User>('user', 2)!;
      user.grants!.global.account_access = level;
      svc.store.put('user', 2, user);
    });
  }

  it('needs object_storage scopes, read_write for changes', async () => {
    const ro = tokenWith('object_storage:read_only');
    expect((await call(svc, 'GET', B, { token: ro })).status).toBe(200);
    expect((await call(svc, 'GET', '/object-storage/transfer', { token: ro })).status).toBe(200);
    expect((await call(svc, 'POST', B, { token: ro, body: { label: 'nope', cluster: 'us-east-1' } })).status).toBe(403);
    expect((await call(svc, 'POST', '/object-storage/keys', { token: ro, body: {} })).status).toBe(403);
    const other = tokenWith('account:read_write');
    expect((await call(svc, 'GET', '/object-storage/keys', { token: other })).status).toBe(403);
    expect((await call(svc, 'GET', '/object-storage/clusters', { token: other })).status).toBe(200);
    expect((await call(svc, 'GET', B, { token: null })).status).toBe(401);
  });

  it('holds restricted users to their account access grant', async () => {
    await makeBucket('guarded');
    setAccountAccess(null);
    const denied = await call(svc, 'GET', B, { token: RESTRICTED_TOKEN });
    expect(denied.status).toBe(403);
    expect((await call(svc, 'GET', '/object-storage/clusters', { token: RESTRICTED_TOKEN })).status).toBe(200);
    setAccountAccess('read_only');
    expect((await call(svc, 'GET', `${B}/us-east-1/guarded`, { token: RESTRICTED_TOKEN })).status).toBe(200);
    expect((await call(svc, 'POST', `${B}/us-east-1/guarded/access`, { token: RESTRICTED_TOKEN, body: { acl: 'private' } })).status).toBe(403);
    expect((await call(svc, 'DELETE', `${B}/us-east-1/guarded`, { token: RESTRICTED_TOKEN })).status).toBe(403);
    setAccountAccess('read_write');
    expect((await call(svc, 'POST', '/object-storage/keys', { token: RESTRICTED_TOKEN, body: { label: 'ops' } })).status).toBe(200);
    expect((await call(svc, 'DELETE', `${B}/us-east-1/guarded`, { token: RESTRICTED_TOKEN })).status).toBe(200);
  });
});

describe('demo data', () => {
  it('seeds buckets, objects, keys, a certificate and transfer', async () => {
    const demo = await startTestService({ seed: 'demo' });
    try {
      const buckets = (await call(demo, 'GET', B)).body;
      expect(buckets.data.map((b: { label: string }) => b.label)).toEqual(['assets-prod', 'backups-db', 'logs-2026', 'scratch']);
      expect(buckets.data.find((b: { label: string }) => b.label === 'scratch')).toMatchObject({ size: 0, objects: 0 });
      const root = await call(demo, 'GET', `${B}/us-east-1/assets-prod/object-list?delimiter=/`);
      expect(root.body.data.map((e: { name: string }) => e.name)).toEqual(['css/', 'favicon.ico', 'img/', 'index.html', 'js/', 'robots.txt']);
      const logs = await call(demo, 'GET', `${B}/ap-south-1/logs-2026/object-list`);
      expect(logs.body.data[0].is_truncated).toBe(true);
      expect((await call(demo, 'GET', `${B}/us-east-1/assets-prod/ssl`)).body).toEqual({ ssl: true });
      const keys = (await call(demo, 'GET', '/object-storage/keys')).body.data;
      expect(keys.map((k: { limited: boolean }) => k.limited)).toEqual([false, true]);
      expect((await call(demo, 'GET', '/object-storage/transfer')).body.used).toBeGreaterThan(1e9);
      const backup = (await call(demo, 'GET', `${B}/eu-central-1/backups-db`)).body;
      expect(backup.objects).toBe(8);
    } finally {
      await demo.close();
    }
  });
});
