import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { ApiClient } from '../../../src/api/client.js';
import { ListStatus } from '../../../src/components/list/ListStatus.js';
import { DEFAULT_VIEW } from '../../../src/store/views.js';
import type { RunningService } from '../../../src/server/service.js';
import { OWNER_TOKEN, startTestService } from '../../helpers/service.js';
import { TIMEOUT_MS, jumpTo, renderApp, wait } from '../../helpers/ink.js';

/** What the server of the issue claimed, for every list: its pages past the real end empty. */
const CLAIMED = 66_837_935;

let svc: RunningService;
let liar: Server;
let liarOrigin: string;
/** Every request that reached the server, by path. */
const asked = new Map<string, number>();

/** The service behind a proxy that overstates every page count, as a server of today was found to. */
function overstating(target: URL): Server {
  return createServer((req, res) => {
    const path = new URL(req.url!, target).pathname;
    asked.set(path, (asked.get(path) ?? 0) + 1);
    const upstream = request(new URL(req.url!, target), { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let text = Buffer.concat(chunks).toString();
        if (/"pages":\d+/.test(text)) {
          // Pages and results both overstated, every page past the first empty.
          const page = JSON.parse(text) as { data: unknown[]; page: number; pages: number; results: number };
          const asked = Number(new URL(req.url!, target).searchParams.get('page') ?? '1');
          text = JSON.stringify({ ...page, data: asked > 1 ? [] : page.data, page: asked, pages: CLAIMED, results: CLAIMED * 100 });
        }
        res.writeHead(answer.statusCode!, { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) }).end(text);
      });
    });
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  liar = overstating(new URL(svc.origin));
  await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
  liarOrigin = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
});
afterAll(async () => {
  liar.closeAllConnections();
  await new Promise((resolve) => liar.close(resolve));
  await svc.close();
});

const total = () => [...asked.values()].reduce((a, b) => a + b, 0);

describe('a server that overstates its page count is not flooded', { timeout: 60_000 }, () => {
  it('the home view, then the instances list for 25 s at the default refresh: at most 60 requests, every real row and count shown', async () => {
    const client = new ApiClient({ baseUrl: `${liarOrigin}/v4`, betaUrl: `${liarOrigin}/v4beta`, token: OWNER_TOKEN, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
    const began = Date.now();
    const r = renderApp({ svc, client, session: { refreshSeconds: 5 } });
    // The count is the short first page's length, not the results claimed.
    await wait(r, /Instances\s+21\s/);
    await jumpTo(r, 'instances', /^21 items/m);
    // The window: 1,490 requests in 25 s, about 200 a read.
    await new Promise((resolve) => setTimeout(resolve, 25_000 - (Date.now() - began)));
    const seen = JSON.stringify(Object.fromEntries(asked));
    console.log(`25 s, home then instances: ${total()} requests ${seen}`);
    expect(total(), seen).toBeLessThanOrEqual(60);
    expect(asked.get('/v4/managed/services') ?? 0, seen).toBeLessThanOrEqual(6);
    expect(asked.get('/v4/profile/tokens') ?? 0, seen).toBeLessThanOrEqual(4);
    r.unmount();
  });

  it('a list cut at the most pages one list reads says so on its status line', () => {
    const list = { status: 'ready' as const, rows: Array.from({ length: 3 }, (_, i) => ({ id: i })), refreshing: false, cut: { rows: 20_000, pages: CLAIMED } };
    const { lastFrame } = render(<ListStatus list={list} view={DEFAULT_VIEW} shown={3} columns={[]} width={120} />);
    expect(lastFrame()).toContain('cut: the first 20,000 rows of 66,837,935 pages claimed');
  });
});
