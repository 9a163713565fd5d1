import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShapeProxy, type ShapeProxy } from '../helpers/bad-shapes.js';
import { KEYS, jump, type PtyApp } from '../helpers/pty.js';
import { OWNER_TOKEN, call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * Server faults as a user meets them, in the built app: answers of the wrong
 * shape (through a proxy that spoils the real service's answers) and answers
 * 10 s slow (the service's own fault rules). Each must leave a message that
 * says what happened, recover without a key once the fault is gone, and send
 * no write twice.
 */

const built = useBuiltApp();
let proxy: ShapeProxy;
// A Ctrl-S that reaches a list saves it: into a folder of the test's own, not the repository.
const cwd = mkdtempSync(join(tmpdir(), 'vmtui-e2e-faults-'));
const start = (args?: string[]) => built.start(args, { cwd });

beforeAll(async () => {
  proxy = await startShapeProxy(built.svc.origin);
});

afterAll(async () => {
  built.killAll();
  await proxy?.close();
  rmSync(cwd, { recursive: true, force: true });
});


/** The writes the service received to paths under `prefix`, as `METHOD path`. */
async function writes(prefix: string): Promise<string[]> {
  const journal = (await call(built.svc, 'GET', '/__control/requests?limit=1000')).body.data as { method: string; path: string }[];
  return journal.filter((r) => r.method !== 'GET' && r.path.startsWith(prefix)).map((r) => `${r.method} ${r.path}`);
}

/** A message as it reads on screen, wherever the message line wraps it; `…` stands for any run of characters. */
const said = (text: string) => new RegExp(text.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.*?').replace(/\s+/g, '\\s+'));

const rows = (screen: string, match: RegExp) => screen.split('\n').filter((l) => match.test(l)).length;

describe('server faults in a terminal', { timeout: 150_000 }, () => {
  it('answers of the wrong shape: every list marks the rows it cannot read, every key says why, a write is reported once and the view recovers by itself', async () => {
    const app = start(['--api-url', proxy.baseUrl, '--token', OWNER_TOKEN]);
    await app.waitForScreen(/Load balancers\s+3/);

    // A port's nodes, every field but the id null: the ports still list, the nodes are marked.
    proxy.spoil('GET', '/nodebalancers/*/configs/*/nodes*', 'all-null');
    await jump(app, 'lb');
    await app.waitForScreen(/^› web-lb/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^›\s+80 http .*3 up, unreadable/m);
    // A rebuild would start from the nodes it could not read: refused, with the reason.
    app.press('a');
    await app.waitForScreen(/Rebuild nodes \(replace the node list\)\s+\(its nodes could not/);
    app.press(KEYS.enter);
    await app.waitForScreen(said('Rebuild nodes (replace the node list): its nodes could not be read (Enter shows them, marked)'));
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › load balancers › web-lb › configs$/m);
    app.press(KEYS.enter);
    const nodes = await app.waitForScreen(/unreadable: every field but its id is null/);
    expect(rows(nodes, /⚠ unreadable: every field but its id is null/)).toBe(3);
    app.press(KEYS.ctrlD);
    await app.waitForScreen(said('in a form the app cannot read (every field but its id is null)'));

    // The bucket list, of the wrong types.
    proxy.spoil('GET', '/object-storage/buckets*', 'wrong-types');
    await jump(app, 'buckets');
    const buckets = await app.waitForScreen(/^home › load balancers › web-lb › configs › port 80 \(http\) › nodes › buckets$(.|\n)*⚠ unreadable: created is 42, not a date-time string/m);
    expect(rows(buckets, /⚠ unreadable/)).toBe(rows(buckets, /^[› ] /m) - 1);

    // Enter on an unreadable bucket shows what was sent; a readable bucket whose listing is unreadable marks its entries.
    app.press(KEYS.enter);
    await app.waitForScreen(/^Unreadable item: created is 42/m);
    app.press(KEYS.esc);
    proxy.clear();
    proxy.spoil('GET', '/object-storage/buckets/*/*/object-list', 'null-items');
    app.press('r');
    await app.waitForScreen(/^› assets-prod/m);
    app.press(KEYS.enter);
    const objects = await app.waitForScreen(/^home › load balancers › web-lb › configs › port 80 \(http\) › nodes › buckets › assets-prod › objects$(.|\n)*⚠ unreadable: it is null, not an object/m);
    expect(rows(objects, /⚠ unreadable: it is null, not an object/)).toBe(rows(objects, /^[› ] /m) - 1);
    app.press(KEYS.ctrlD);
    await app.waitForScreen(said('in a form the app cannot read (it is null, not an object); d or y shows what it sent'));
    app.press(KEYS.esc);

    // Contacts whose items are null: marked; Ctrl-D says why it cannot act.
    proxy.spoil('*', '/managed/contacts*', 'null-items');
    await jump(app, 'contacts');
    await app.waitForScreen(/^› ⚠ unreadable: it is null, not an object/m);
    // A read of the contacts sent before the proxy spoiled them (the home view's count, a refresh) may still
    // answer with readable rows: r starts a read whose answer supersedes any older one, then the rows are
    // the spoiled ones for good.
    app.press('r');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await app.waitForScreen(/^› ⚠ unreadable: it is null, not an object/m);
    app.press(KEYS.ctrlD);
    await app.waitForScreen(said('in a form the app cannot read (it is null, not an object); d or y shows what it sent'));

    // The New-contact form's answer is null: the write is done, said so, and the form closes (a second submit would send it twice).
    const before = await writes('/v4/managed/contacts');
    app.press('c');
    await app.waitForScreen('New: Contacts');
    app.press('ftd-shape');
    await app.waitForScreen(/Name\s+ftd-shape/);
    app.press(KEYS.ctrlS);
    const sent = await app.waitForScreen(said('POST /managed/contacts was sent, but its answer is not a readable managed contact (it is null, not an object); refresh to see'));
    // Still the contacts (the crumbs before it depend on whether Esc above left the objects or only the message).
    expect(sent).toMatch(/^(home|…).* › contacts$/m);
    expect(sent).not.toContain('New: Contacts');
    expect((await writes('/v4/managed/contacts')).slice(before.length)).toEqual(['POST /v4/managed/contacts']);

    // The fault gone, the list comes back by itself (its background refresh), the new contact in it.
    proxy.clear();
    await app.waitForScreen(/^  ftd-shape/m, 15_000);
    expect(await app.screen()).not.toContain('unreadable');
    app.kill();
  });

  it('answers 10 s slow: a contact created and deleted says it is waiting, sends each write once, and the list comes back by itself within 15 s of the fault going', async () => {
    const app = start();
    await app.waitForScreen(/Load balancers\s+3/);
    await jump(app, 'contacts');
    await app.waitForScreen(/^home › contacts$(.|\n)*\d+ items/m);
    const before = await writes('/v4/managed/contacts');
    await call(built.svc, 'POST', '/__control/faults', { body: { path: '/v4/*', action: 'latency', latency_ms: 10_000 } });
    try {
      app.press('c');
      await app.waitForScreen('New: Contacts');
      app.press('ftd-slow');
      await app.waitForScreen(/Name\s+ftd-slow/);
      app.press(KEYS.ctrlS);
      await app.waitForScreen(said('Still waiting for the server: POST /managed/contacts was sent … ago and has no answer yet; it is sent once, never again'), 6000);
      // Keys still work meanwhile: the second Ctrl-S sends nothing.
      app.press(KEYS.ctrlS);
      await app.waitForScreen('Created contact ftd-slow', 20_000);
      await app.waitForScreen(/^. ftd-slow/m, 25_000);

      app.press('/');
      await app.waitForScreen('Enter keep');
      app.press('ftd-slow');
      app.press(KEYS.enter);
      await app.waitForScreen(/1 of \d+/);
      app.press(KEYS.ctrlD);
      await app.waitForScreen('[ Delete ]');
      app.press(KEYS.right);
      app.press(KEYS.enter);
      await app.waitForScreen(said('Still waiting for the server: DELETE /managed/contacts/… was sent … ago'), 6000);
      await app.waitForScreen('Delete ftd-slow: done', 20_000);
      // The deleted row leaves the list at once, while the refetch that confirms it is still slow.
      await app.waitForScreen(/\/ftd-slow\s+0 of \d+/, 2000);
    } finally {
      await call(built.svc, 'DELETE', '/__control/faults');
    }
    // Fast again: without a key, the list is read again within 15 s and settles.
    const cleared = (await call(built.svc, 'GET', '/__control/requests?limit=1')).body.latest as number;
    const deadline = Date.now() + 15_000;
    const readAgain = async () => {
      const after = (await call(built.svc, 'GET', `/__control/requests?since=${cleared}`)).body.data as { method: string; path: string; status: number }[];
      return after.some((r) => r.method === 'GET' && r.path === '/v4/managed/contacts' && r.status === 200);
    };
    while (!(await readAgain())) {
      expect(Date.now(), 'the contacts list read again within 15 s of the fault going').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const back = await app.waitForScreen(/\/ftd-slow\s+0 of \d+$/m, Math.max(1000, deadline - Date.now()));
    expect(back).toContain('Nothing matches "ftd-slow". Esc clears the filter.');
    // A key that acts on a row, with none shown, says why.
    app.press(KEYS.ctrlD);
    await app.waitForScreen('✗ Nothing matches "ftd-slow": Esc clears the filter');
    app.press(KEYS.esc);
    const all = await app.waitForScreen(/^\d+ items/m);
    expect(all).not.toMatch(/^[› ] ftd-slow/m);
    expect(all).not.toMatch(/^\/ftd/m);
    const sent = (await writes('/v4/managed/contacts')).slice(before.length);
    expect(sent).toEqual(['POST /v4/managed/contacts', expect.stringMatching(/^DELETE \/v4\/managed\/contacts\/\d+$/)]);
    app.kill();
  });
});
