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
        const text = Buffer.concat(chunks).toString().replace(/"pages":\d+/, `"pages":${CLAIMED}`);
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
  it('the home view and the instances list ask each path a few times, and show every real row', async () => {
    const client = new ApiClient({ baseUrl: `${liarOrigin}/v4`, betaUrl: `${liarOrigin}/v4beta`, token: OWNER_TOKEN, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
    const r = renderApp({ svc, client });
    await wait(r, /Instances\s+21\s/);
    await jumpTo(r, 'instances', /^21 items/m);
    // Time for anything still paging to show itself: the issue saw thousands of requests a second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const worst = Math.max(...asked.values());
    expect(worst, JSON.stringify(Object.fromEntries(asked))).toBeLessThanOrEqual(8);
    expect(asked.get('/v4/managed/services') ?? 0).toBeLessThanOrEqual(4);
    expect(asked.get('/v4/profile/tokens') ?? 0).toBeLessThanOrEqual(4);
    expect(total()).toBeLessThan(80);
    r.unmount();
  });

  it('a list cut at the most pages one list reads says so on its status line', () => {
    const list = { status: 'ready' as const, rows: Array.from({ length: 3 }, (_, i) => ({ id: i })), refreshing: false, cut: { rows: 20_000, pages: CLAIMED } };
    const { lastFrame } = render(<ListStatus list={list} view={DEFAULT_VIEW} shown={3} columns={[]} width={120} />);
    expect(lastFrame()).toContain('cut: the first 20,000 rows of 66,837,935 pages claimed');
  });
});
