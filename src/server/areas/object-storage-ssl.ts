import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { BucketCertificate } from '../../model/object-storage.js';
import { pemCertificate, pemPrivateKey } from '../../model/formats.js';
import type { FieldError } from '../../model/schema.js';
import { badRequest } from '../errors.js';
import type { Router } from '../route.js';
import { checkedBody, mustBucket, reading, RO, RW, saveBucket, writing } from './object-storage-shared.js';

/** The seed asks for a Base64-encoded PEM; a raw PEM is taken as it is. */
function pemText(value: string): string {
  if (value.includes('-----BEGIN')) return value;
  const compact = value.replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(compact) ? Buffer.from(compact, 'base64').toString('utf8') : value;
}

/** Parses the pair the way a TLS server would load it: a current certificate and the private key that belongs to it. */
function certificateProblems(body: Record<string, unknown>, now: number): FieldError[] {
  const errors: FieldError[] = [];
  let cert: X509Certificate | undefined;
  let key: KeyObject | undefined;
  if (typeof body.certificate === 'string') {
    const pem = pemText(body.certificate);
    const shape = pemCertificate(pem);
    try {
      if (shape) throw new Error(shape);
      cert = new X509Certificate(pem);
      if (Date.parse(cert.validTo) < now) {
        errors.push({ field: 'certificate', reason: `certificate expired on ${cert.validTo}` });
        cert = undefined;
      }
    } catch {
      errors.push({ field: 'certificate', reason: 'certificate must be a Base64-encoded PEM X.509 certificate' });
    }
  }
  if (typeof body.private_key === 'string') {
    const pem = pemText(body.private_key);
    try {
      if (pemPrivateKey(pem)) throw new Error('not PEM');
      key = createPrivateKey(pem);
    } catch {
      errors.push({ field: 'private_key', reason: 'private_key must be a PEM private key' });
    }
  }
  if (cert && key && !cert.checkPrivateKey(key)) errors.push({ field: 'private_key', reason: 'private_key does not match the certificate' });
  return errors;
}

/** TLS certificates served for a bucket's hostname: GET, upload, delete. */
export function sslRoutes(r: Router): void {
  const path = '/object-storage/buckets/{clusterId}/{bucket}/ssl';

  r.get(path, RO, reading((ctx) => ({ ssl: Boolean(mustBucket(ctx)._ssl) })));

  r.post(
    path,
    RW,
    writing((ctx) => {
      const bucket = mustBucket(ctx);
      const body = checkedBody(ctx, BucketCertificate, 'create', (value) => certificateProblems(value, ctx.store.clock.now()));
      if (bucket._ssl) throw badRequest('This bucket already has a certificate; delete it, then upload the new one');
      const pair = JSON.stringify({ certificate: pemText(body.certificate as string), private_key: pemText(body.private_key as string) });
      saveBucket(ctx.store, { ...bucket, _ssl: ctx.store.sealer.seal(pair) });
      return { ssl: true };
    }),
  );

  r.delete(
    path,
    RW,
    writing((ctx) => {
      const bucket = mustBucket(ctx);
      saveBucket(ctx.store, { ...bucket, _ssl: null });
    }),
  );
}
