import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { OWNER_TOKEN, call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * Tabs in the built app, in a real terminal at 80×24 without colour: each
 * keeps its stack, cursor, marks and sort; Alt-1…9 and gt/gT switch; :tabs
 * lists and closes them; a tab on another account reads through that
 * account's client only; a tab with an alert while hidden is flagged.
 */

const built = useBuiltApp();
const home = mkdtempSync(join(tmpdir(), 'vmtui-tabs-'));

afterEach(() => built.killAll());
afterAll(() => rmSync(home, { recursive: true, force: true }));

const journal = async (token: string, since: number) =>
  ((await call(built.svc, 'GET', `/__control/requests?since=${since}&limit=1000`, { token })).body.data as { method: string; path: string }[]).map((e) => `${e.method} ${e.path}`);
const latest = async (token: string) => (await call(built.svc, 'GET', '/__control/requests?limit=1', { token })).body.latest as number;

describe('tabs in a terminal', { timeout: 150_000 }, () => {
  it('two tabs keep their own screens, cursor, marks and sort; Alt-2, gt, gT switch; a tab on staging reads staging only; :tabs closes one', async () => {
    const staging = await call(built.svc, 'POST', '/__control/accounts', { body: { seed: 'demo' } });
    expect(staging.status).toBe(200);
    mkdirSync(join(home, 'vmtui'), { recursive: true });
    writeFileSync(join(home, 'vmtui', 'config.json'), JSON.stringify({ profiles: { staging: { apiUrl: built.svc.baseUrl, token: staging.body.token } } }));
    const app = built.start(undefined, { cols: 80, rows: 24, env: { NO_COLOR: '1', FORCE_COLOR: undefined, XDG_CONFIG_HOME: home } });
    const command = async (text: string) => {
      app.press(':');
      await app.waitForScreen(/^:[ ▏]?$/m, 10_000);
      app.press(text);
      await app.waitForScreen(new RegExp(`^:${text}[ ▏]?$`, 'm'));
      app.press(KEYS.enter);
    };
    await command('vm');
    await app.waitForScreen(/^> web-1 /m, 10_000);
    // Cursor, a mark and a sort to keep: web-2 marked, cursor on web-3, sorted by label descending.
    app.press('j');
    await app.waitForScreen(/^> web-2 /m);
    app.press(' ');
    await app.waitForScreen(/^>?\s*\* ?web-2 |^ \* web-2/m);
    app.press('L');
    await app.waitForScreen(/Label ▲/);
    app.press('L');
    await app.waitForScreen(/Label ▼/);
    const before = await app.screen();
    const cursorLine = before.split('\n').find((l) => l.startsWith('>'))!;

    await command('tab');
    await app.waitForScreen(/1 instances \[2 home\]/);
    await command('lb');
    await app.waitForScreen(/1 instances \[2 load balance\]/);
    await app.waitForScreen(/web-lb/, 10_000);

    app.press('\x1b1');
    const back = await app.waitForScreen(/\[1 instances\] 2 load balance/);
    expect(back).toContain(cursorLine);
    expect(back).toMatch(/Label ▼/);
    expect(back).toMatch(/1 marked/);
    // gt: the next tab, and the g's move to the top is undone on this one.
    app.press('g');
    app.press('t');
    await app.waitForScreen(/1 instances \[2 load balance\]/);
    app.press('g');
    app.press('T');
    expect(await app.waitForScreen(/\[1 instances\] 2 load balance/)).toContain(cursorLine);

    // A tab on another account: its requests go with its token, to its account only.
    const primarySince = await latest(OWNER_TOKEN);
    const stagingSince = await latest(staging.body.token);
    await command('tab ctx staging');
    await app.waitForScreen(/1 instances \[2 staging:home\] 3 load balance/, 15_000);
    await command('fw');
    await app.waitForScreen(/\[2 staging:firewalls\]/);
    await app.waitForScreen(/web-public/, 10_000);
    expect(await journal(staging.body.token, stagingSince)).toEqual(expect.arrayContaining(['GET /v4/profile', 'GET /v4beta/networking/firewalls']));
    expect((await journal(OWNER_TOKEN, primarySince)).filter((r) => /firewalls|\/profile$/.test(r))).toEqual([]);

    // News on a hidden tab: an issue opened on the primary account flags its tabs.
    const opened = await call(built.svc, 'POST', '/__control/managed/issues', { body: { services: [1], label: 'tabs: shop down' } });
    await app.waitForScreen(/1 instances\* \[2 staging:firewalls\] 3 load balance\*/, 30_000);
    await call(built.svc, 'POST', `/__control/managed/issues/${opened.body.id}/resolve`, {});

    // :tabs lists them; Ctrl-W closes the selected one, its screens with it.
    await command('tabs');
    await app.waitForScreen(/3 tabs/);
    app.press('G');
    await app.waitForScreen(/^> 3 /m);
    app.press('\x17');
    await app.waitForScreen(/2 tabs/);
    app.press(KEYS.esc);
    await app.waitForScreen(/^vmtui {2}1 instances\*? \[2 staging:firewalls\] +demo/m);
    app.press('\x1b1');
    const left = await app.waitForScreen(/^vmtui {2}\[1 instances\] 2 staging:firewalls +demo/m);
    expect(left).toContain(cursorLine);
  });
});
