import * as http from 'node:http';
import type { Agent, IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Why a request got no reply: a timeout, or the network's error code (ECONNREFUSED, …) when there is one. */
export class NoReply extends Error {
  constructor(
    readonly timedOut: boolean,
    readonly code?: string,
  ) {
    super(timedOut ? 'timed out' : (code ?? 'no reply'));
  }
}

type Transport = { request: typeof http.request; agent: Agent };
const transports = new Map<string, Transport>();

/**
 * Connections at once to one API. A service on this machine (the embedded
 * demo, a local `vmtui serve`) shares the CPUs with the app and answers one
 * request at a time: a few connections keep it busy, and every extra one
 * costs it a connection set-up before its first answer (the app's first
 * screen sends some twenty requests at once). A remote API is far away:
 * more requests in flight hide the round trips.
 */
export function maxConnections(hostname: string): number {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const local = host === 'localhost' || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
  return local ? 6 : 16;
}

/**
 * Node's own http and https modules, with keep-alive agents: the first
 * request costs ~10 ms, where the first fetch compiles Node's built-in
 * undici (~55 ms) and the undici package loads in ~80 ms, on every start.
 * https (and TLS with it) loads only for an https API; required, not
 * imported, because a script started from a V8 code cache cannot import()
 * (src/boot/code-cache.ts).
 */
function transport(url: URL): Transport {
  // One per API (the app talks to one or two): the first screen's twenty requests look it up, not work it out.
  const key = `${url.protocol}//${url.host}`;
  let t = transports.get(key);
  if (!t) {
    const m: typeof http = url.protocol === 'https:' ? createRequire(import.meta.url)('node:https') : http;
    t = { request: m.request, agent: new m.Agent({ keepAlive: true, maxSockets: maxConnections(url.hostname) }) };
    transports.set(key, t);
  }
  return t;
}

/**
 * One HTTP exchange, the whole reply read as text. Rejects with NoReply when
 * none came within `timeoutMs` of the request leaving: the clock starts when
 * it gets a connection, not while it waits for one behind other requests (a
 * write queued behind slow reads is not "timed out" before the server saw it).
 * `signal` abandons it at once (the app quitting).
 */
export async function send(method: string, url: URL, headers: Record<string, string>, body: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<HttpReply> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NoReply(false, `unsupported protocol ${url.protocol}`);
  for (;;) {
    try {
      return await exchange(method, url, headers, body, timeoutMs, signal);
    } catch (err) {
      // A kept-alive connection the server closed while it lay idle (the app asleep, the server's keep-alive timeout)
      // fails the moment it is used: a read goes again on the next connection, down to a new one. Each attempt uses
      // up one stale connection, so this ends within the pool's size. A write is not sent twice.
      if (!(err instanceof StaleConnection) || method !== 'GET') throw err instanceof StaleConnection ? err.cause : err;
    }
  }
}

/** A request that failed on a kept-alive connection before any answer: the server had closed it. */
class StaleConnection extends Error {
  constructor(override readonly cause: NoReply) {
    super(cause.message);
  }
}

function exchange(method: string, url: URL, headers: Record<string, string>, body: string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<HttpReply> {
  if (signal?.aborted) throw new NoReply(false, 'ABORTED');
  const { request, agent } = transport(url);
  return new Promise<HttpReply>((resolve, reject) => {
    let answered = false;
    const req = request(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        done();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    let timer: NodeJS.Timeout | undefined;
    let late: NodeJS.Immediate | undefined;
    // Timers run before the network is read: after a stall (the process stopped, a slow frame) an answer already
    // waiting on the socket is read first, and only then is it too late.
    req.once('socket', () => (timer = setTimeout(() => (late = setImmediate(() => req.destroy(new NoReply(true)))), timeoutMs)));
    const abort = () => req.destroy(new NoReply(false, 'ABORTED'));
    signal?.addEventListener('abort', abort, { once: true });
    function done() {
      clearTimeout(timer);
      clearImmediate(late);
      signal?.removeEventListener('abort', abort);
    }
    function fail(err: Error) {
      done();
      const noReply = err instanceof NoReply ? err : new NoReply(false, (err as { code?: string }).code);
      const stale = req.reusedSocket && !answered && (noReply.code === 'ECONNRESET' || noReply.code === 'EPIPE');
      reject(stale ? new StaleConnection(noReply) : noReply);
    }
    req.on('error', fail);
    req.end(body);
  });
}
