import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** How long a stopping service lets answers in progress (and event streams) finish. */
const CLOSE_GRACE_MS = 3000;

/** The service's listening socket, opened before the service is ready to answer. */
export interface Port {
  server: Server;
  /** http://host:port, as a client reaches it. */
  origin: string;
  /** From now on requests go to `handler`; the ones that arrived before are handed to it first, in order. */
  serve(handler: Handler): void;
  close(): Promise<void>;
}

/**
 * Listens at once, holding the requests that arrive until `serve` is called:
 * the address can be given out (and the embedded demo's client can send its
 * first requests) while the service still loads its data and routes.
 */
export function openPort(host: string, port: number): Promise<Port> {
  const server = createServer();
  // As Fastify's own server: a client's keep-alive connection is not closed under it mid-reuse.
  server.keepAliveTimeout = 72_000;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const hold: Handler = (req, res) => void waiting.push([req, res]);
  server.on('request', hold);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      const shown = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      resolve({
        server,
        origin: `http://${shown}:${bound}`,
        serve(handler) {
          server.off('request', hold);
          server.on('request', handler);
          for (const [req, res] of waiting.splice(0)) handler(req, res);
        },
        close: () =>
          new Promise<void>((done) => {
            // A keep-alive connection whose answer ends after close() goes idle, not closed: Node would wait out
            // keepAliveTimeout (72 s) for it. Idle ones are swept as they appear; a stream still open after the grace is cut.
            const sweep = setInterval(() => server.closeIdleConnections(), 20);
            const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            server.close(() => {
              clearInterval(sweep);
              clearTimeout(cut);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
