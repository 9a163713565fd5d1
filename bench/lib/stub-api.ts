import { createServer, type Server } from 'node:http';
import { syntheticInstances } from './synthetic.js';

export interface StubApi {
  baseUrl: string;
  close(): Promise<void>;
  stopOnRead(n: number): void;
}

/**
 * A minimal server speaking the API's list envelope, for benchmarks that need
 * more rows than the service holds: /v4/vm/instances pages through `rows`
 * synthetic instances; other lists are empty, other paths answer {}.
 * `suffix` is appended to every label and tag (text the gate must rewrite).
 * After `stopOnRead(n)`, each read of the list's first page stops n running
 * instances (the next ones in turn), as someone else would.
 */
export async function startStubApi(rows: number, suffix = ''): Promise<StubApi> {
  const instances = syntheticInstances(rows).map((r) => (suffix ? { ...r, label: r.label + suffix, tags: r.tags.map((t) => t + suffix) } : r));
  let next = 0;
  let stops = 0;
  const stopSome = () => {
    for (let n = 0; n < stops && next < instances.length; next++) {
      if (instances[next]!.status !== 'running') continue;
      instances[next] = { ...instances[next]!, status: 'offline' };
      n++;
    }
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const size = Math.min(100, Math.max(25, Number(url.searchParams.get('page_size') ?? 100)));
    let body: unknown = {};
    if (url.pathname === '/v4/profile') body = { username: 'bench', restricted: false };
    else if (url.pathname === '/v4/vm/instances') {
      if (page === 1) stopSome();
      const pages = Math.max(1, Math.ceil(instances.length / size));
      body = { data: instances.slice((page - 1) * size, page * size), page, pages, results: instances.length };
    } else if (url.searchParams.has('page') || /s$/.test(url.pathname)) body = { data: [], page: 1, pages: 1, results: 0 };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v4`,
    stopOnRead: (n) => {
      stops = n;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
