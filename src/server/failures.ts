import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from './errors.js';

/** Request bodies over this are refused with 413. */
export const BODY_LIMIT = 1024 * 1024;
/** Node's own limit on a request's line and headers together (its default --max-http-header-size). */
export const HEADER_LIMIT = 16 * 1024;

interface FrameworkError {
  statusCode?: number;
  code?: string;
}

/** Fastify's and Node's own refusals of a request, in the seed's error shape: what went wrong, and never how Fastify calls it. */
export function frameworkRefusal(err: FrameworkError): ApiError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, [{ reason: 'The request body is not valid JSON' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, [{ reason: `The request body is larger than ${BODY_LIMIT / 1024} KiB` }]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, [{ reason: 'Send the request body as application/json' }]);
    case 'FST_ERR_BAD_URL':
      return new ApiError(400, [{ reason: 'The URL is not valid: a percent sign must start a %XX escape of UTF-8' }]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(414, [{ reason: 'A part of the URL path is longer than 2048 characters' }]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, [{ reason: 'The Content-Length header does not match the body' }]);
  }
  const status = err.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return new ApiError(status, [{ reason: `The request could not be read (${STATUS_CODES[status] ?? status})` }]);
  return undefined;
}

/** A whole HTTP/1.1 answer in the seed's error shape, for a socket that has no request object to answer through. */
function rawAnswer(status: number, reason: string, extraHeaders = ''): string {
  const body = JSON.stringify({ errors: [{ reason }] });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}Connection: close\r\n\r\n${body}`
  );
}

/**
 * Answers what Node's HTTP parser refused before any request existed: headers
 * over the limit (431), a slow request (408), anything that is not HTTP/1.1
 * (400). The connection cannot be reused after a parse error, so it is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let answer: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') answer = rawAnswer(431, `The request line and headers are larger than ${HEADER_LIMIT / 1024} KiB`);
  else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') answer = rawAnswer(408, 'The request did not arrive in time');
  else if (err.code === 'HPE_INVALID_METHOD') answer = rawAnswer(405, 'Unknown HTTP method; the API takes GET, POST, PUT and DELETE', 'Allow: GET, POST, PUT, DELETE\r\n');
  else answer = rawAnswer(400, 'The request is not valid HTTP/1.1');
  socket.end(answer);
}

/** CONNECT asks for a tunnel, which Node hands over as a bare socket: this is an API, not a proxy. */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.end(rawAnswer(405, 'CONNECT is not served: this is an HTTP API, not a proxy', 'Allow: GET, POST, PUT, DELETE\r\n'));
}

/** Quoted text in an error's message may be a piece of the request (JSON.parse and SQLite quote their input): only its shape is logged. */
const maskQuoted = (text: string) => text.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, (q) => `${q[0]}…${q[0]}`);

function describe(err: unknown): string {
  if (!(err instanceof Error)) return `non-error thrown (${typeof err})`;
  const code = (err as { code?: unknown }).code;
  const head = `${err.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${maskQuoted(err.message.split('\n', 1)[0]!).slice(0, 300)}`;
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 12);
  return [head, ...frames].join('\n');
}

/**
 * A failure of the service itself (a 500): logged to stderr with an id that the answer
 * carries too (in the reason and X-Request-Id), so a user can report it. The
 * log holds the method, the path without its query (a pre-signed URL's query
 * is its signature), the error and its stack; never headers or the body.
 */
export function internalError(err: unknown, req: { method: string; url: string }): { id: string; error: ApiError } {
  const id = randomBytes(6).toString('hex');
  const path = req.url.split('?', 1)[0]!.slice(0, 300);
  process.stderr.write(`vmtui service: internal error ${id} on ${req.method} ${path}\n${describe(err)}\n`);
  return { id, error: new ApiError(500, [{ reason: `Internal error (id ${id}); please report it with this id` }]) };
}
