import type { ActionResult } from '../../app/screen.js';
import type { FormSpec } from '../../components/form/types.js';
import { presignUrl, type PresignRequest } from '../../api/object-storage.js';
import { EXPIRES_DEFAULT, ObjectUrlRequest } from '../../model/object-storage.js';

export interface BucketRef {
  cluster: string;
  bucket: string;
}

const until = (seconds: number) => `${new Date(Date.now() + seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** How to use a signed URL with curl, the content type it was signed for included. */
function usage(req: PresignRequest): string {
  const header = req.content_type ? ` -H 'Content-Type: ${req.content_type}'` : '';
  switch (req.method) {
    case 'GET':
      return `curl -o <file> '<URL>'`;
    case 'DELETE':
      return `curl -X DELETE '<URL>'`;
    default:
      return `curl -X ${req.method}${header} --data-binary @<file> '<URL>'`;
  }
}

/** The signed URL in full, once: it is a credential for that one request until it expires. */
export function presignResult(url: string, req: PresignRequest): ActionResult {
  const seconds = req.expires_in ?? EXPIRES_DEFAULT;
  const type = req.content_type ? ` The request must send Content-Type: ${req.content_type}.` : '';
  return {
    message: `Pre-signed ${req.method} URL for ${req.name}, valid until ${until(seconds)}`,
    secret: {
      title: `Pre-signed ${req.method} URL: ${req.name}`,
      value: url,
      note: `Anyone holding it can ${req.method} this object until ${until(seconds)}.${type} Use: ${usage(req)}`,
    },
  };
}

/**
 * The pre-signed URL request as a form, for an object (its name filled in)
 * or for a bucket (a name to upload to). content_type is required except for
 * GET and DELETE: the model's cross-field rule says so as the method changes.
 */
export function presignForm<R>(where: (row: R) => BucketRef, name: (row: R) => string): FormSpec<R> {
  return {
    title: 'Pre-signed URL',
    schema: ObjectUrlRequest,
    fields: ['name', 'method', 'content_type', 'expires_in'],
    overrides: { expires_in: { help: 'Seconds the URL works: 360..68400' } },
    initial: (row) => ({ name: row ? name(row) : '', method: 'GET', expires_in: EXPIRES_DEFAULT }),
    submit: async (body, ctx, row) => {
      const { cluster, bucket } = where(row!);
      const req = body as unknown as PresignRequest;
      return { url: (await presignUrl(ctx.client, cluster, bucket, req)).url, req };
    },
    done: (r) => {
      const { url, req } = r as { url: string; req: PresignRequest };
      return presignResult(url, req);
    },
  };
}
