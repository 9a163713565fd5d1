import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../src/api/client.js';

/**
 * A small server answering as today's release (4.176.0) does, from the
 * trimmed captures in test/fixtures/api-4.176: each list, each item of it by
 * id, a firewall's rules and devices. Any other list is an empty page and any
 * other item a 404, so the app's other requests (events, tokens) are answered.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/api-4.176/', import.meta.url));

type Page = { data: Record<string, unknown>[] };
const fixture = (name: string): Page => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8')) as Page;

const LISTS: Record<string, string> = {
  '/networking/firewalls': 'firewalls',
  '/profile/logins': 'logins',
  '/vm/types': 'types',
  '/regions': 'regions',
  '/images': 'images',
  '/networking/ips': 'ips',
};

const page = (data: unknown[]) => ({ data, page: 1, pages: 1, results: data.length });

function answer(path: string): { status: number; body: unknown } {
  const list = Object.hasOwn(LISTS, path) ? LISTS[path] : undefined;
  if (list) return { status: 200, body: fixture(list) };
  const fw = /^\/networking\/firewalls\/(\d+)(\/rules|\/devices)?$/.exec(path);
  if (fw) {
    const found = fixture('firewalls').data.find((f) => String(f.id) === fw[1]);
    if (!found) return { status: 404, body: { errors: [{ reason: 'Not found' }] } };
    if (fw[2] === '/rules') return { status: 200, body: found.rules };
    if (fw[2] === '/devices') return { status: 200, body: String(found.id) === '7001' ? fixture('firewall-devices') : page([]) };
    return { status: 200, body: found };
  }
  // An item of a listed collection: /images/private/4242 has a slash in its id.
  for (const [at, name] of Object.entries(LISTS)) {
    if (!path.startsWith(`${at}/`)) continue;
    const id = decodeURIComponent(path.slice(at.length + 1));
    const found = fixture(name).data.find((r) => String(r.id ?? r.address) === id);
    if (found) return { status: 200, body: found };
  }
  if (path === '/profile') return { status: 200, body: { username: 'alice', email: 'alice@example.com', restricted: false, referrals: {} } };
  if (/^\/[a-z/-]+s$/.test(path)) return { status: 200, body: page([]) };
  return { status: 404, body: { errors: [{ reason: 'Not found' }] } };
}

export interface TodayStub {
  client: ApiClient;
  /** What the app asked for, in order: `GET /regions`. */
  paths: string[];
  /** The bodies of the writes, by `PUT /path`; a write is answered with its body and changes nothing. */
  writes: Map<string, unknown>;
  close: () => Promise<void>;
}

export async function startTodayStub(): Promise<TodayStub> {
  const paths: string[] = [];
  const writes = new Map<string, unknown>();
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url!, 'http://x').pathname.replace(/^\/v4(beta)?/, '');
    paths.push(`${req.method} ${path}`);
    let reply = answer(path);
    if (req.method !== 'GET') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      writes.set(`${req.method} ${path}`, body);
      reply = { status: 200, body };
    }
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new ApiClient({ baseUrl: `${origin}/v4`, betaUrl: `${origin}/v4beta`, token: 'today-test-token-0123456789', retryDelaysMs: [], timeoutMs: 5000 });
  return {
    client,
    paths,
    writes,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
