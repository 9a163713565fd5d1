import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';
import type { ObjectAcl } from '../../model/object-storage.js';
import {
  addTransfer,
  bucketId,
  getObject,
  insertBucket,
  putObject,
  saveBucket,
  setObjectAcl,
  type BucketRecord,
  type ClusterRecord,
} from '../areas/object-storage-shared.js';
import { insertKey, newKeyPair } from '../areas/object-storage-keys.js';

/** Self-signed for the assets bucket's hostname, valid until 2036. */
const ASSETS_CERT = `-----BEGIN CERTIFICATE-----
MIIBvjCCAWOgAwIBAgIUGsxKMOaw4vu2PTLJeeuONauN/0wwCgYIKoZIzj0EAwIw
NDEyMDAGA1UEAwwpYXNzZXRzLXByb2QudXMtZWFzdC0xLm9iamVjdHMuZXhhbXBs
ZS5jb20wHhcNMjYxMTIyMDQyODEzWhcNMzYxMTE5MDQyODEzWjA0MTIwMAYDVQQD
DClhc3NldHMtcHJvZC51cy1lYXN0LTEub2JqZWN0cy5leGFtcGxlLmNvbTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABPwYbpF0gziHoQcuhlkUpmzJ9ZFjY3ybmixK
aNy6Ea4+xM1/1HG9zc2RRmCgbWDX+zr8+8+l5JzOTnRqzErWBIejUzBRMB0GA1Ud
DgQWBBRfHuC2S3Ce8sMeskvSXkyQS0tYkzAfBgNVHSMEGDAWgBRfHuC2S3Ce8sMe
skvSXkyQS0tYkzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDo
K5N/p9XyTJhp78QQ1HzxlF5uwG4Z90KlbmhGa16p7AIhAIx49nZwHSssEZUmF/Ow
jgURVRbzpWGKwYsa48jQLK1K
-----END CERTIFICATE-----
`;
const ASSETS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgo68kWnBC3hqz46bl
uh2HxMiNDYklQp0XbFxsQsEpn4uhRANCAAT8GG6RdIM4h6EHLoZZFKZsyfWRY2N8
m5osSmjcuhGuPsTNf9Rxvc3NkUZgoG1g1/s6/PvPpeSczk50asxK1gSH
-----END PRIVATE KEY-----
`;

/** Outbound transfer already used this month before the service started. */
const TRANSFER_BASELINE = 12_956_600_198;

/** mulberry32: a small seeded PRNG, so every demo store holds the same bytes and keys. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const day = (y: number, m: number, d: number, h = 9) => Date.UTC(y, m - 1, d, h);
const text = (s: string) => Buffer.from(s, 'utf8');

function bucket(store: Store, clusterId: string, label: string, acl: ObjectAcl, cors: boolean, created: number): string {
  const cluster = store.get<ClusterRecord>('cluster', clusterId)!;
  insertBucket(store, cluster, label, acl, cors, created);
  return bucketId(clusterId, label);
}

function seedAssets(store: Store, rand: () => number): void {
  const id = bucket(store, 'us-east-1', 'assets-prod', 'public-read', true, day(2026, 1, 6));
  let t = day(2026, 1, 6, 10);
  const put = (name: string, body: Buffer, type: string) => putObject(store, id, name, body, type, (t += 3_600_000 * (1 + Math.floor(rand() * 20))));
  put('index.html', text('<!doctype html>\n<html><head><link rel="stylesheet" href="/css/site.css"></head><body><h1>Example shop</h1><script src="/js/app.js"></script></body></html>\n'), 'text/html');
  put('robots.txt', text('User-agent: *\nDisallow: /admin/\n'), 'text/plain');
  put('favicon.ico', Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0x68, 4, 0, 0, 0x16, 0, 0, 0]), 'image/x-icon');
  const css = ['site', 'reset', 'grid', 'forms', 'buttons', 'typography', 'checkout', 'cart', 'product', 'print', 'dark', 'vendor/normalize'];
  for (const name of css) put(`css/${name}.css`, text(`/* ${name} */\n.${name.replace('/', '-')} { margin: 0; padding: ${Math.floor(rand() * 24)}px; }\n`.repeat(3 + Math.floor(rand() * 40))), 'text/css');
  const js = ['app', 'cart', 'checkout', 'search', 'analytics', 'carousel', 'modal', 'lazyload', 'i18n', 'forms', 'router', 'store', 'api', 'vendor/react', 'vendor/react-dom', 'vendor/lodash', 'vendor/dayjs', 'sw'];
  for (const name of js) put(`js/${name}.js`, text(`// ${name}.js\nexport function init${name.length}() { return ${Math.floor(rand() * 1000)}; }\n`.repeat(5 + Math.floor(rand() * 60))), 'application/javascript');
  const images = ['logo', 'hero', 'banner-spring', 'banner-summer', 'icon-cart', 'icon-user', 'icon-search', 'placeholder'];
  for (const name of images) put(`img/${name}.svg`, text(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><title>${name}</title><rect width="64" height="64" fill="#${Math.floor(rand() * 0xffffff).toString(16).padStart(6, '0')}"/></svg>\n`), 'image/svg+xml');
  for (let i = 1; i <= 20; i++) {
    const body = Buffer.alloc(512 + Math.floor(rand() * 4096));
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(body);
    for (let j = 8; j < body.length; j++) body[j] = Math.floor(rand() * 256);
    put(`img/products/sku-${String(1000 + i * 7)}.png`, body, 'image/png');
  }
  const row = store.get<BucketRecord>('bucket', id)!;
  saveBucket(store, { ...row, _ssl: store.sealer.seal(JSON.stringify({ certificate: ASSETS_CERT, private_key: ASSETS_KEY })) });
  setObjectAcl(store, id, getObject(store, id, 'robots.txt')!, 'public-read');
}

function seedBackups(store: Store): void {
  // zlib loads here, when the demo account is first made, not with the service at every start.
  const { gzipSync } = process.getBuiltinModule('node:zlib');
  const id = bucket(store, 'eu-central-1', 'backups-db', 'private', false, day(2026, 2, 1));
  for (let d = 1; d <= 6; d++) {
    const date = `2026-11-${String(10 + d).padStart(2, '0')}`;
    const dump = `-- PostgreSQL dump ${date}\n` + Array.from({ length: 200 + d * 40 }, (_, i) => `INSERT INTO orders VALUES (${i + d * 1000}, 'sku-${1000 + (i % 140)}', ${(i * 37) % 500});\n`).join('');
    putObject(store, id, `postgres/shop-${date}.sql.gz`, gzipSync(dump, { level: 9 }), 'application/gzip', day(2026, 11, 10 + d, 3));
  }
  putObject(store, id, 'postgres/README.txt', text('Nightly dumps of the shop database, kept for 30 days.\nRestore: gunzip -c file | psql shop\n'), 'text/plain', day(2026, 2, 1, 12));
  const retention = putObject(store, id, 'retention-policy.json', text('{"keep_days": 30, "owner": "ops"}\n'), 'application/json', day(2026, 2, 2));
  setObjectAcl(store, id, retention, 'authenticated-read');
}

function seedLogs(store: Store, rand: () => number): void {
  const id = bucket(store, 'ap-south-1', 'logs-2026', 'private', false, day(2026, 1, 1, 0));
  const levels = ['INFO', 'INFO', 'INFO', 'WARN', 'ERROR'];
  for (let d = 0; d < 75; d++) {
    const date = new Date(day(2026, 9, 1, 0) + d * 86_400_000).toISOString().slice(0, 10);
    const lines = Array.from({ length: 3 + Math.floor(rand() * 12) }, (_, i) => `${date}T${String(i).padStart(2, '0')}:00:00Z ${levels[Math.floor(rand() * levels.length)]} request served in ${Math.floor(rand() * 900)}ms\n`);
    putObject(store, id, `app/${date}.log`, text(lines.join('')), 'text/plain', day(2026, 9, 1, 23) + d * 86_400_000);
  }
  for (let w = 0; w < 30; w++) {
    const date = new Date(day(2026, 6, 1, 0) + w * 7 * 86_400_000).toISOString().slice(0, 10);
    putObject(store, id, `nginx/access-${date}.log`, text(`203.0.113.${w + 1} - - [${date}] "GET / HTTP/1.1" 200 ${Math.floor(rand() * 9000)}\n`.repeat(2 + (w % 5))), 'text/plain', day(2026, 6, 1, 23) + w * 7 * 86_400_000);
  }
}

/** Four buckets across the clusters (a public site, database dumps, logs, an empty scratch area), two access keys and a certificate. */
export function seedObjectStorageDemo(store: Store, _sim: Simulation): void {
  const rand = prng(20260301);
  seedAssets(store, rand);
  seedBackups(store);
  seedLogs(store, rand);
  bucket(store, 'us-east-1', 'scratch', 'private', false, day(2026, 11, 20));
  const pick = (n: number) => Math.floor(rand() * n);
  insertKey(store, 'deploy-ci', null, newKeyPair(pick).access_key);
  insertKey(
    store,
    'backup-agent',
    [
      { cluster: 'eu-central-1', bucket_name: 'backups-db', permissions: 'read_write' },
      { cluster: 'ap-south-1', bucket_name: 'logs-2026', permissions: 'read_only' },
    ],
    newKeyPair(pick).access_key,
  );
  addTransfer(store, TRANSFER_BASELINE);
}
