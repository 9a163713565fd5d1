import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/server/sqlite.js';
import { authenticator } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service.js';
import { keyFileOf } from '../../src/server/data-file.js';
import { DEMO_CERT, DEMO_KEY } from '../../src/server/seed/demo-nodebalancers.js';
import { call, OWNER_TOKEN } from '../helpers/service.js';

/** What someone holding only the data file finds in it: no secret in the clear, and no key that opens the sealed ones. */
const dir = mkdtempSync(join(tmpdir(), 'vmtui-secrets-'));
const running: RunningService[] = [];
afterAll(async () => {
  for (const svc of running) await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const start = async (data: string) => {
  const svc = await startService({ data, seed: 'demo', speed: 'instant', port: 0, token: OWNER_TOKEN });
  running.push(svc);
  return svc;
};
const stop = async (svc: RunningService) => {
  running.splice(running.indexOf(svc), 1);
  await svc.close();
};

/** Every byte on disk that belongs to the data file: the file, its WAL and SHM (not the key file beside them). */
const onDisk = (data: string) =>
  ['', '-wal', '-shm']
    .filter((suffix) => existsSync(data + suffix))
    .map((suffix) => readFileSync(data + suffix).toString('latin1'))
    .join('');

const pemBody = (pem: string) => pem.split('\n')[1]!;
const TFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const HTTPS_CONFIG = 52002;

describe('secrets at rest', () => {
  it('the demo’s TLS private keys and a two-factor secret are nowhere in the data file’s bytes, yet the service uses them', async () => {
    const data = join(dir, 'demo.sqlite');
    const svc = await start(data);
    const enabled = await call(svc, 'POST', '/profile/tfa-enable');
    expect(enabled.status).toBe(200);
    // The load balancer's key is checked against a new certificate: it opens.
    expect((await call(svc, 'PUT', `/nodebalancers/31001/configs/${HTTPS_CONFIG}`, { body: { ssl_cert: DEMO_CERT } })).status).toBe(200);
    await stop(svc);

    const bytes = onDisk(data);
    expect(bytes).not.toContain('PRIVATE KEY');
    expect(bytes).not.toContain(pemBody(DEMO_KEY));
    expect(bytes).not.toContain(enabled.body.secret);
    expect(bytes).toContain('sealed:v1:');
    const key = readFileSync(keyFileOf(data), 'utf8').trim();
    expect(bytes).not.toContain(key);

    const again = await start(data);
    const confirm = await call(again, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: authenticator.generate(enabled.body.secret) } });
    expect(confirm.status).toBe(200);
  });

  it('a data file of an earlier version (secrets in the clear, bucket certificates under a key kept in the file) is sealed on open, and still works', async () => {
    const data = join(dir, 'earlier.sqlite');
    await stop(await start(data));

    // Back to how an earlier version stored it.
    const legacySecret = randomBytes(32).toString('hex');
    const certificate = JSON.stringify({ certificate: DEMO_CERT, private_key: DEMO_KEY });
    const legacyKey = createHash('sha256').update(Buffer.from(legacySecret, 'hex')).update('bucket-ssl').digest();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', legacyKey, iv);
    const sealedData = Buffer.concat([cipher.update(certificate, 'utf8'), cipher.final()]);
    const legacySsl = { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: sealedData.toString('base64') };
    const db = new Database(data);
    const row = (kind: string, id: string) => JSON.parse((db.prepare('SELECT data FROM rows WHERE kind = ? AND id = ?').get(kind, id) as { data: string }).data);
    const put = (kind: string, id: string, value: unknown) => db.prepare('UPDATE rows SET data = ? WHERE kind = ? AND id = ?').run(JSON.stringify(value), kind, id);
    const bucketId = (db.prepare("SELECT id FROM rows WHERE kind = 'bucket' AND data LIKE '%sealed:v1:%'").pluck().get() as string) ?? '';
    expect(bucketId).not.toBe('');
    put('bucket', bucketId, { ...row('bucket', bucketId), _ssl: legacySsl });
    put('nb_config', String(HTTPS_CONFIG), { ...row('nb_config', String(HTTPS_CONFIG)), ssl_key: DEMO_KEY });
    put('user', '1', { ...row('user', '1'), two_factor_auth: false, _tfa_pending: { secret: TFA_SECRET, expiry: '2999-01-01T00:00:00' } });
    const credentialId = db.prepare("SELECT id FROM rows WHERE kind = 'managed_credential' LIMIT 1").pluck().get() as string;
    const passwordDigest = 'ab'.repeat(32);
    put('managed_credential', credentialId, { ...row('managed_credential', credentialId), _password_sha256: passwordDigest });
    db.prepare("DELETE FROM meta WHERE key IN ('seal.version', 'seal.key_fingerprint')").run();
    db.prepare("INSERT INTO meta (key, value) VALUES ('object_storage.secret', ?)").run(legacySecret);
    db.close();
    rmSync(keyFileOf(data));
    expect(onDisk(data)).toContain(pemBody(DEMO_KEY));

    const svc = await start(data);
    expect(svc.store.getMeta('object_storage.secret')).toBeUndefined();
    const bucket = svc.store.get<{ _ssl: string }>('bucket', bucketId)!;
    expect(svc.store.sealer.unseal(bucket._ssl)).toBe(certificate);
    const confirm = await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: authenticator.generate(TFA_SECRET) } });
    expect(confirm.status).toBe(200);
    expect((await call(svc, 'PUT', `/nodebalancers/31001/configs/${HTTPS_CONFIG}`, { body: { ssl_cert: DEMO_CERT } })).status).toBe(200);
    await stop(svc);

    const bytes = onDisk(data);
    expect(bytes).not.toContain('PRIVATE KEY');
    expect(bytes).not.toContain(pemBody(DEMO_KEY));
    expect(bytes).not.toContain(TFA_SECRET);
    expect(bytes).not.toContain(legacySecret);
    expect(bytes).not.toContain(passwordDigest);
  });
});
