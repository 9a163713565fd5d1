import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, DOWN, ENTER, ESC, TIMEOUT_MS, type App } from '../../helpers/ink.js';
import { SLOW_TEST_MS, app, jump, press, select, wait } from './helpers.js';

let svc: RunningService;
let narrow: string;
let quiet: Server;
let quietOrigin: string;
/** The requests that reached the service through the quiet server: a refused key sends none. */
const writes: string[] = [];

/**
 * The service as a server that tells nothing of scopes: no X-OAuth-Scopes, no
 * X-Accepted-OAuth-Scopes, and a refusal in the provider's own words, which
 * name no scope. What the app learns, it learns from the endpoint refused.
 */
function quietServer(target: URL): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET') writes.push(`${req.method} ${req.url}`);
    const upstream = request(new URL(req.url!, target), { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      const headers = { ...answer.headers };
      delete headers['x-oauth-scopes'];
      delete headers['x-accepted-oauth-scopes'];
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        if (answer.statusCode === 403 && /OAuth/.test(body.toString())) body = Buffer.from(JSON.stringify({ errors: [{ reason: 'Your OAuth token is not authorized to use this endpoint.' }] }));
        headers['content-length'] = String(body.length);
        res.writeHead(answer.statusCode!, headers).end(body);
      });
    });
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  // The kind a careful operator makes for one job: it may not even list tokens.
  narrow = (await call(svc, 'POST', '/profile/tokens', { body: { label: 'vms only', scopes: 'vms:read_only' } })).body.token;
  quiet = quietServer(new URL(svc.origin));
  await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', resolve));
  quietOrigin = `http://127.0.0.1:${(quiet.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => quiet.close(resolve));
  await svc.close();
});

const NEEDS = 'needs vms:read_write';

/** c, e, Ctrl-D, the actions menu's writes and the bulk actions on marks: each refused at the key, naming the scope, nothing opened or sent. */
async function everyWriteRefused(r: App, label: string) {
  const sent = writes.length;
  const created = await press(r, 'c', `Cannot create: ${NEEDS}`);
  expect(created).not.toMatch(/New instance|Image/);
  await press(r, 'e', `Cannot edit ${label}: ${NEEDS}`);
  const deleted = await press(r, CTRL_D, `Cannot delete ${label}: ${NEEDS}`);
  expect(deleted).not.toContain('[ Cancel ]');
  const menu = await press(r, 'a', `Actions: ${label}`);
  expect(menu).toMatch(new RegExp(`r Reboot\\s+\\(${NEEDS}\\)`));
  expect(menu).toMatch(new RegExp(`c Clone…\\s+\\(${NEEDS}\\)`));
  const reboot = await press(r, 'r', `Reboot: ${NEEDS}`);
  expect(reboot).toContain(`Actions: ${label}`);
  expect(reboot).not.toContain('[ Cancel ]');
  await press(r, ESC, (f) => !f.includes(`Actions: ${label}`));

  // Two marked rows: the bulk delete and the bulk actions are refused the same way.
  await press(r, ' ', '1 marked');
  await press(r, ' ', '2 marked');
  const bulkDelete = await press(r, CTRL_D, `Delete: applies to none of the 2 marked items (${NEEDS})`);
  expect(bulkDelete).not.toContain('[ Cancel ]');
  expect(bulkDelete).not.toMatch(/Type \d+/);
  const bulkMenu = await press(r, 'a', 'Actions: 2 marked items');
  expect(bulkMenu).toMatch(/Reboot\s+\(applies to none of them\)/);
  const bulkReboot = await press(r, 'r', `Reboot: applies to none of the 2 marked items (${NEEDS})`);
  expect(bulkReboot).not.toContain('[ Cancel ]');
  await press(r, ESC, (f) => !f.includes('Actions: 2 marked items'));
  await press(r, '\x1c', (f) => !f.includes('marked'));
  expect(writes.length).toBe(sent);
}

describe('a vms:read_only token is known, and its writes are refused at the key', { timeout: SLOW_TEST_MS }, () => {
  it('from the service: the first answer tells the scopes', async () => {
    const label = (await call(svc, 'GET', '/vm/instances')).body.data[0].label as string;
    const r = app(svc, { token: narrow });
    await jump(r, 'instances', label);
    await wait(r, () => r.ctx.session.getState().scopes === 'vms:read_only');
    const frame = await wait(r, `c e ^D: ${NEEDS}`);
    expect(frame).not.toContain('scopes unknown');
    await everyWriteRefused(r, label);
  });

  it('from a server that tells nothing: "scopes unknown" until a refusal, which marks the scope missing for the session', async () => {
    const label = (await call(svc, 'GET', '/vm/instances')).body.data[0].label as string;
    const client = new ApiClient({ baseUrl: `${quietOrigin}/v4`, betaUrl: `${quietOrigin}/v4beta`, token: narrow, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
    const r = app(svc, { client, token: narrow });
    await jump(r, 'instances', label);
    // The token list is refused: nothing can be marked yet, and the header says why.
    await wait(r, 'scopes unknown');
    await select(r, label);
    expect(r.lastFrame()).not.toContain(NEEDS);
    // The first refusal: a reboot the server will not do.
    await press(r, 'a', `Actions: ${label}`);
    await press(r, 'r', `Reboot ${label}?`);
    r.stdin.write('\x1b[C');
    await wait(r, '[ Reboot ]');
    await press(r, ENTER, 'Not permitted');
    expect(writes.filter((w) => w.includes('/reboot'))).toHaveLength(1);
    await wait(r, () => r.ctx.session.getState().refusedScopes.includes('vms:read_write'));
    await wait(r, `c e ^D: ${NEEDS}`);
    await press(r, ESC, /^21 items/m);
    await everyWriteRefused(r, label);
    // Reading still works: the scope refused is the write one.
    await press(r, DOWN, (f) => !f.includes(`› ${label} `));
  });
});
