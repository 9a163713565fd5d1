import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/**
 * An HTTP server in front of a real service that records every request it
 * gets and passes it on, so a test sees what a client sent (the import's
 * GET-only promise); `change` rewrites a JSON answer (a later release's
 * shapes), `fail` answers a request itself (a dropped connection, a 429).
 */
export interface RecordingProxy {
  base: string;
  beta: string;
  seen: { method: string; url: string }[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  change?: (path: string, body: any) => any;
  /** Return true when the request was answered (or its socket destroyed) here. */
  fail?: (path: string, res: import('node:http').ServerResponse) => boolean;
}

export async function startRecordingProxy(origin: string, opts: ProxyOptions = {}): Promise<RecordingProxy> {
  const seen: { method: string; url: string }[] = [];
  const server: Server = createServer(async (req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    const path = req.url!.split('?')[0]!;
    if (opts.fail?.(path, res)) return;
    const upstream = await request(origin + req.url, {
      method: req.method as 'GET',
      headers: { authorization: req.headers.authorization ?? '', ...(req.headers['x-filter'] ? { 'x-filter': String(req.headers['x-filter']) } : {}) },
    });
    let text = await upstream.body.text();
    if (opts.change && upstream.statusCode === 200 && text) text = JSON.stringify(opts.change(path, JSON.parse(text)));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (upstream.headers.date) headers.date = String(upstream.headers.date);
    if (upstream.headers['retry-after']) headers['retry-after'] = String(upstream.headers['retry-after']);
    res.writeHead(upstream.statusCode, headers).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${url}/v4`,
    beta: `${url}/v4beta`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
