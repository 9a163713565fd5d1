import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, forbidden, notFound } from '../errors.js';
import { sendError } from '../route.js';
import type { Store } from '../store.js';
import type { Account } from '../accounts.js';
import { OBJECT_DATA_ROOT } from '../roots.js';
import { addTransfer, bucketId, deleteObject, getObject, putObject, readObject, presignKey, type BucketRecord } from './object-storage-shared.js';

/**
 * Pre-signed URLs point at this service: /__objects/<cluster>/<bucket>/<name>,
 * authorised by an HMAC over the method, object, expiry and content type, so
 * uploads and downloads through them act on real stored objects. An added
 * account's URL names it (`acct`, in the HMAC too) and is signed with that
 * account's own key: it opens that account's objects only.
 */

export const MAX_OBJECT_BYTES = 5 * 1024 * 1024;

export interface Presigned {
  cluster: string;
  bucket: string;
  name: string;
  method: string;
  /** Epoch seconds after which the URL stops working. */
  expires: number;
  /** The Content-Type the request must carry; '' when none was signed. */
  contentType: string;
  /** The account the URL opens, named for any but the primary (whose URLs keep the form they had before accounts). */
  account?: string;
}

function signature(store: Store, p: Presigned): string {
  const fields = [p.method, p.cluster, p.bucket, p.name, String(p.expires), p.contentType];
  if (p.account !== undefined) fields.push(p.account);
  return createHmac('sha256', presignKey(store)).update(fields.join('\n')).digest('hex');
}

/** How a URL names its account: nothing for the primary. */
const accountParam = (account: Account): string | undefined => (account.primary ? undefined : String(account.id));

const isDotSegment = (s: string) => s === '.' || s === '..';

/**
 * Object names keep their slashes in the URL, except that clients fold `.` and
 * `..` segments away (escaped or not); a name holding one travels as a single
 * segment with its slashes escaped.
 */
function encodeName(name: string): string {
  const segments = name.split('/');
  return segments.some(isDotSegment) ? encodeURIComponent(name) : segments.map(encodeURIComponent).join('/');
}

/** The URL for one signed request to the account's objects, on the given origin (e.g. http://127.0.0.1:8080). */
export function presignedUrl(account: Account, origin: string, request: Presigned): string {
  const p = { ...request, account: accountParam(account) };
  const path = `${encodeURIComponent(p.cluster)}/${encodeURIComponent(p.bucket)}/${encodeName(p.name)}`;
  const query = new URLSearchParams({ method: p.method, expires: String(p.expires) });
  if (p.contentType) query.set('ct', p.contentType);
  if (p.account !== undefined) query.set('acct', p.account);
  query.set('sig', signature(account.store, p));
  return `${origin}${OBJECT_DATA_ROOT}/${path}?${query}`;
}

/** Reads and checks the signed request; any mismatch is a 403, as S3 answers AccessDenied. */
function verify(store: Store, req: FastifyRequest, now: number): Presigned {
  const [rawPath = '', rawQuery = ''] = req.url.split('?', 2) as [string, string?];
  const parts = rawPath.slice(OBJECT_DATA_ROOT.length + 1).split('/');
  if (parts.length < 3 || parts[0] === '' || parts[1] === '') throw notFound('Not found');
  let segments: string[];
  try {
    segments = parts.map(decodeURIComponent);
  } catch {
    throw notFound('Not found');
  }
  const [cluster, bucket, ...name] = segments as [string, string, ...string[]];
  const query = new URLSearchParams(rawQuery);
  const sig = query.get('sig');
  const method = query.get('method');
  const expires = query.get('expires');
  if (!sig || !method || !expires || !/^\d+$/.test(expires)) throw forbidden('This URL is not a pre-signed object URL');
  // `acct` chose the account the request went to (src/server/accounts.ts): an `acct` naming no account went to the primary, and is refused here.
  const account = accountParam(req.account);
  if ((query.get('acct') ?? undefined) !== account) throw forbidden('The request signature does not match');
  const p: Presigned = { cluster, bucket, name: name.join('/'), method, expires: Number(expires), contentType: query.get('ct') ?? '', account };
  const expected = Buffer.from(signature(store, p), 'hex');
  const given = Buffer.from(sig, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden('The request signature does not match');
  if (req.method !== method) throw forbidden(`This URL was signed for ${method}, not ${req.method}`);
  if (p.expires * 1000 < now) throw forbidden('Request has expired');
  if (p.contentType && req.headers['content-type'] !== p.contentType) {
    throw forbidden(`The Content-Type header must be ${p.contentType}, the value signed into this URL`);
  }
  return p;
}

interface Outcome {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Carries out a verified request against the store; the reply is sent after the transaction commits. */
function serve(store: Store, req: FastifyRequest, p: Presigned): Outcome {
  const bucket = bucketId(p.cluster, p.bucket);
  if (!store.get<BucketRecord>('bucket', bucket)) throw notFound('Bucket not found');
  switch (p.method) {
    case 'GET': {
      const object = getObject(store, bucket, p.name);
      const body = object && readObject(store, bucket, p.name);
      if (!object || !body) throw notFound('Object not found');
      addTransfer(store, body.length);
      const headers = { 'content-type': object.content_type, etag: `"${object.etag}"`, 'last-modified': new Date(`${object.last_modified}Z`).toUTCString() };
      return { status: 200, headers, body };
    }
    case 'DELETE':
      deleteObject(store, bucket, p.name);
      return { status: 204, headers: {} };
    default: {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const object = putObject(store, bucket, p.name, body, p.contentType);
      return { status: 200, headers: { etag: `"${object.etag}"` } };
    }
  }
}

/** Raw routes for pre-signed URLs: no Bearer token (the signature is the authority), any body type, up to 5 MiB. */
export function mountObjectData(app: FastifyInstance): void {
  app.register(async (scope) => {
    // Only these routes take raw bodies; the API keeps its JSON parser.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((err: { code?: string }, _req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(reply, new ApiError(413, [{ reason: `Objects uploaded through a pre-signed URL may be at most ${MAX_OBJECT_BYTES / 1024 / 1024} MiB` }]));
      }
      throw err;
    });
    scope.route({
      method: ['GET', 'PUT', 'POST', 'DELETE'],
      url: `${OBJECT_DATA_ROOT}/*`,
      bodyLimit: MAX_OBJECT_BYTES,
      exposeHeadRoute: false,
      handler: async (req, reply) => {
        const { store, closed, services: { sim } } = req.account;
        try {
          if (closed) throw forbidden('The account this URL was signed for has been removed');
          sim.runDue();
          const outcome = store.tx(() => serve(store, req, verify(store, req, store.clock.now())));
          return reply.code(outcome.status).headers(outcome.headers).send(outcome.body);
        } catch (err) {
          if (err instanceof ApiError) return sendError(reply, err);
          throw err;
        }
      },
    });
  });
}
