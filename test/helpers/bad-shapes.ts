import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { itemShape, pageShape } from '../../src/model/response.js';
import type { FieldSpec } from '../../src/model/schema.js';

/**
 * Well-formed JSON of the wrong shape, built from each path's schema: what a
 * server of another release, or a broken one, answers with status 200. The
 * malformed-response suite feeds these to every view through a stub; the
 * shape proxy puts them between the built app and a real service.
 */

/** A value of the wrong type for a field, so every field of an item is wrong at once. */
export function wrong(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'string':
    case 'enum':
    case 'datetime':
      return 42;
    case 'integer':
    case 'number':
      return 'seven';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'a list' };
    default:
      return 'not an object';
  }
}

const fieldsOf = (path: string) => (pageShape(path) ?? itemShape(path))?.schema.fields ?? { label: { kind: 'string' } as FieldSpec };
/** Every field of the path's resource of the wrong type; the id kept, so the item can still be named. */
export const wrongItem = (path: string, id: unknown = 1) => ({ ...Object.fromEntries(Object.entries(fieldsOf(path)).map(([k, s]) => [k, wrong(s)])), id });
/** Every field of the path's resource null but the id. */
export const nullItem = (path: string, id: unknown = 2) => ({ ...Object.fromEntries(Object.keys(fieldsOf(path)).map((k) => [k, null])), id });

export type BadShape = 'wrong-types' | 'all-null' | 'null-items';

/** An answer's body in the bad shape: each item of a page, or the record itself. `null-items` replaces each item by null. */
export function spoil(shape: BadShape, path: string, body: unknown): unknown {
  const one = (item: unknown) => {
    const id = typeof item === 'object' && item !== null && 'id' in item ? (item as { id: unknown }).id : undefined;
    if (shape === 'null-items') return null;
    return shape === 'wrong-types' ? wrongItem(path, id) : nullItem(path, id);
  };
  if (typeof body !== 'object' || body === null) return body;
  const b = body as Record<string, unknown>;
  // A page, or a list paged otherwise (an object listing's markers).
  if (Array.isArray(b.data)) return { ...b, data: b.data.map(one) };
  return one(body);
}

export interface ShapeProxy {
  /** The proxy's API root, in place of the service's. */
  baseUrl: string;
  /** Answers to requests of this method whose path (under the API root, e.g. `/managed/contacts*`) matches come in the bad shape, until cleared. */
  spoil(method: string, glob: string, shape: BadShape): void;
  clear(): void;
  close(): Promise<void>;
}

const globRe = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** A proxy in front of a service at `origin` that answers as the service does, or spoiled as told. */
export async function startShapeProxy(origin: string): Promise<ShapeProxy> {
  let rules: { method: string; re: RegExp; shape: BadShape }[] = [];
  const target = new URL(origin);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/v4(beta)?/, '');
    const rule = rules.find((r) => (r.method === '*' || r.method === req.method) && r.re.test(path));
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        let text = Buffer.concat(chunks).toString();
        if (rule && (up.statusCode ?? 500) < 300 && text) {
          try {
            text = JSON.stringify(spoil(rule.shape, path, JSON.parse(text)));
          } catch {
            // not JSON: passed on as it came
          }
        }
        const headers = { ...up.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        res.writeHead(up.statusCode ?? 502, headers);
        res.end(text);
      });
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v4`,
    spoil: (method, glob, shape) => void rules.push({ method, re: globRe(glob), shape }),
    clear: () => void (rules = []),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
