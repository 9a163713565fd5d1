import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { ScreenDef } from '../../../src/app/screen.js';
import { pageShape, itemShape } from '../../../src/model/response.js';
import { screens } from '../../../src/screens/index.js';
import { nullItem, wrongItem } from '../../helpers/bad-shapes.js';
import { renderApp, waitForContent, type App } from '../../helpers/ink.js';

/**
 * Every view of the app fed each malformed response a server, a proxy or
 * another release may send, through the real client: no view may crash,
 * and a list says what is wrong.
 */

type Body = { status?: number; type?: string; text: string };
/** `marked`: every item it sends is unreadable, so a list that shows rows must mark them. */
type Shape = { name: string; page: (path: string) => Body; item: (path: string) => Body; marked?: boolean };

const json = (v: unknown): Body => ({ text: JSON.stringify(v) });
const same = (name: string, b: Body): Shape => ({ name, page: () => b, item: () => b });

const page = (data: unknown[]) => json({ data, page: 1, pages: 1, results: data.length });

const SHAPES: Shape[] = [
  same('an HTML page', { type: 'text/html', text: '<!doctype html><html><head><title>Gateway</title></head><body><h1>Service unavailable</h1></body></html>' }),
  same('data null', json({ data: null })),
  same('JSON null', json(null)),
  { name: 'null items and an item without its id', page: () => page([null, { label: 'no id' }, 'text']), item: () => json({ label: 'no id' }) },
  { name: 'items of the wrong types', page: (p) => page([wrongItem(p)]), item: (p) => json(wrongItem(p)), marked: true },
  // Each field may be null (the API presents unset fields so), but a record of nothing but its id says nothing.
  { name: 'items all null', page: (p) => page([nullItem(p)]), item: (p) => json(nullItem(p)), marked: true },
  same('no page, pages or results', json({ data: [] })),
  same('truncated JSON', { text: '{"data":[{"id":1,"label":"web-1","sta' }),
  same('an empty 200', { text: '' }),
  same('an empty object', json({})),
];

let server: Server;
let shape: Shape = SHAPES[0]!;
let client: ApiClient;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/v4(beta)?/, '');
    const body = url.searchParams.has('page') || pageShape(path) ? shape.page(path) : shape.item(path);
    res.writeHead(body.status ?? 200, { 'content-type': body.type ?? 'application/json' });
    res.end(body.text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new ApiClient({ baseUrl: `${origin}/v4`, betaUrl: `${origin}/v4beta`, token: 'malformed-test-token-0123456789', retryDelaysMs: [], timeoutMs: 5000 });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** Params for a drilled-in screen: any id will do, the server answers every path alike. */
const paramsOf = (def: ScreenDef) => Object.fromEntries((def.params ?? []).map((p) => [p, p === 'cluster' ? 'us-east-1' : p === 'bucket' ? 'b' : '1']));

const CRASH = /ERROR|TypeError|Cannot read prop|is not a function|is not iterable|undefined is not|\bat .*\.(ts|js|tsx):\d+/;
const MESSAGE = /Could not load|unreadable|not (JSON|a page|readable)|Cannot|could not|failed/i;
/**
 * Each view is opened from a blank root, not from home: home counts every
 * area as it shows (twenty requests and a redraw per view opened). Home is
 * fed the shapes as a view of its own.
 */
const BLANK_ROOT: ScreenDef = { id: 'home', title: 'home', component: () => null };
const views = [BLANK_ROOT, ...screens.map((d) => (d.id === 'home' ? { ...d, id: 'home-view', aliases: [] } : d))];
const lists = views.filter((d) => d.list);
const components = views.filter((d) => d.component && d !== BLANK_ROOT);

const crumbs = (frame: string) => frame.split('\n')[1] ?? '';

/** Opens a screen from the root, as drilling in would, and waits for it to show more than a spinner (a screen that only redirects may never show). */
async function open(app: App, def: ScreenDef) {
  const [first] = app.ctx.nav.getState().stack;
  app.ctx.nav.setState({ stack: [first!] });
  app.ctx.views.setState({ views: {} });
  const root = await waitForContent(app.lastFrame, (f) => crumbs(f) === 'home' || CRASH.test(f));
  // A crash ends the app: nothing after it could be opened.
  if (CRASH.test(root)) throw new Error(`The app crashed on the view before ${def.id}: ${crashOf(root)}`);
  app.ctx.data.setState({ lists: {}, counts: {} });
  app.ctx.nav.getState().push(def.id, paramsOf(def));
  const pushed = app.ctx.nav.getState().stack.at(-1)!.key;
  // Shown, or gone: a screen that only redirects takes its own place on the stack or leaves it.
  await waitForContent(app.lastFrame, (f) => crumbs(f) !== 'home' || !app.ctx.nav.getState().stack.some((e) => e.key === pushed), 3000).catch(() => '');
  await waitForContent(app.lastFrame, (f) => !/loading/.test(f) || CRASH.test(f), 10_000).catch(() => '');
}

/** The first lines of a frame that shows a crash: enough to find it, not the whole stack. */
const crashOf = (frame: string) => (CRASH.test(frame) ? frame.split('\n').filter((l) => CRASH.test(l)).slice(0, 3).join(' | ') : undefined);

describe.each(SHAPES)('every view, given $name', (s) => {
  it('lists say what is wrong; d on a row shows it or says why not; nothing crashes', async () => {
    shape = s;
    const problems: string[] = [];
    const app = renderApp({ client, screens: views, rows: 24, cols: 100 });
    try {
      for (const def of lists) {
        await open(app, def);
        const frame = await waitForContent(app.lastFrame, (f) => MESSAGE.test(f) || /items?\b/.test(f) || CRASH.test(f), 10_000).catch(() => app.lastFrame());
        const crash = crashOf(frame);
        if (crash) {
          problems.push(`${def.id}: ${crash}`);
          continue;
        }
        const rows = /unreadable|\b[1-9]\d* items?\b/.test(frame) && !/Could not load/.test(frame);
        // A row drawn from an unreadable item is marked, never blank.
        if (rows && s.marked && !/unreadable/.test(frame)) problems.push(`${def.id} shows rows it could not read unmarked: ${frame}`);
        if (!rows) {
          // An empty list is a readable answer; anything else must say what is wrong.
          if (!MESSAGE.test(frame) && !/\b0 items\b/.test(frame)) problems.push(`${def.id} shows no reason: ${frame}`);
          continue;
        }
        // d on the first row: its own endpoint answers malformed too.
        // The list binds its keys in a layout effect: wait for `d` to be bound (the footer may have no room to show it).
        await waitForContent(app.lastFrame, () => app.ctx.ui.getState().layers.some((l) => l.commands.includes('detail')), 3000).catch(() => '');
        app.stdin.write('d');
        // The record view (an unreadable item's raw JSON, the record, or why it could not load) replaces the list.
        const detail = await waitForContent(app.lastFrame, (f) => (f !== frame && !/loading/.test(f)) || CRASH.test(f), 10_000).catch(() => app.lastFrame());
        const detailCrash = crashOf(detail);
        if (detailCrash) problems.push(`${def.id} d: ${detailCrash}`);
        else if (detail === frame) problems.push(`${def.id} d: nothing opened`);
      }
      for (const def of components) {
        await open(app, def);
        const crash = crashOf(app.lastFrame());
        if (crash) problems.push(`${def.id}: ${crash}`);
      }
    } finally {
      app.unmount();
    }
    expect(problems.join('\n')).toBe('');
  }, 180_000);
});
