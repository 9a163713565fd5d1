import { createDecipheriv, createHash } from 'node:crypto';
import type { ConfigRecord } from './areas/nodebalancers-records.js';
import type { BucketRecord } from './areas/object-storage-shared.js';
import type { TfaState } from './areas/profile-tfa.js';
import type { User } from './auth.js';
import { isSealed } from './sealing.js';
import type { Store } from './store.js';

/**
 * Data files written before secrets were sealed with the key file kept their
 * secrets in the clear (the two-factor secrets, the load balancers' TLS
 * private keys) or sealed with a key stored in the file itself (the bucket
 * certificates, under the pre-signed URLs' signing secret). Opening one seals
 * them all with the key file's key and drops the old key, once: a version
 * mark in the data says it is done. The plain text they replace is zeroed
 * (SQLite's secure_delete), and the WAL that held it emptied.
 */

const SEALED_VERSION_META = 'seal.version';
const SEALED_VERSION = '1';
/** Where earlier versions kept the secret that signed URLs and sealed bucket certificates. */
const LEGACY_SECRET_META = 'object_storage.secret';

interface LegacySealed {
  iv: string;
  tag: string;
  data: string;
}

/** Opens a bucket certificate as earlier versions sealed it: AES-256-GCM under sha256(secret ‖ "bucket-ssl"), base64 fields. */
function openLegacy(secretHex: string, sealed: LegacySealed): string {
  const key = createHash('sha256').update(Buffer.from(secretHex, 'hex')).update('bucket-ssl').digest();
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
}

/** The meta entry of a data file whose secrets are sealed as this version seals them. */
export const SEALED_MARK: readonly [key: string, value: string] = [SEALED_VERSION_META, SEALED_VERSION];

/** Marks a data file seeded by this version: what it holds was sealed as it was written. */
export function markSealed(store: Store): void {
  store.setMeta(...SEALED_MARK);
}

/** Seals what an earlier version left open in a data file seeded before. */
export function sealSecretsAtRest(store: Store): void {
  if (store.getMeta(SEALED_VERSION_META) === SEALED_VERSION) return;
  store.db.pragma('secure_delete = ON');
  try {
    store.tx(() => sealAll(store));
  } finally {
    store.db.pragma('secure_delete = OFF');
  }
  // Another process reading the file may keep the WAL from emptying: then it empties at a later checkpoint.
  store.db.pragma('wal_checkpoint(TRUNCATE)');
}

function sealAll(store: Store): void {
  if (store.getMeta(SEALED_VERSION_META) === SEALED_VERSION) return;
  const { sealer } = store;
  const legacySecret = store.getMeta(LEGACY_SECRET_META);
  for (const bucket of store.all<BucketRecord>('bucket')) {
    const ssl = bucket._ssl as unknown;
    if (legacySecret === undefined || typeof ssl !== 'object' || ssl === null) continue;
    store.put('bucket', `${bucket.cluster}/${bucket.label}`, { ...bucket, _ssl: sealer.seal(openLegacy(legacySecret, ssl as LegacySealed)) });
  }
  store.deleteMeta(LEGACY_SECRET_META);
  for (const user of store.all<User & TfaState>('user')) {
    const pending = user._tfa_pending;
    if ((user._tfa_secret === undefined || isSealed(user._tfa_secret)) && (!pending || isSealed(pending.secret))) continue;
    store.put('user', user.id, { ...user, _tfa_secret: sealer.sealed(user._tfa_secret), _tfa_pending: pending && { ...pending, secret: sealer.sealed(pending.secret) } });
  }
  for (const cfg of store.all<ConfigRecord>('nb_config')) {
    if (cfg.ssl_key !== null && !isSealed(cfg.ssl_key)) store.put('nb_config', cfg.id, { ...cfg, ssl_key: sealer.seal(cfg.ssl_key) });
  }
  // Earlier versions kept an unsalted digest of each managed credential's password, which nothing read.
  for (const { _password_sha256: digest, ...credential } of store.all<{ id: number; _password_sha256?: string }>('managed_credential')) {
    if (digest !== undefined) store.put('managed_credential', credential.id, credential);
  }
  markSealed(store);
}
