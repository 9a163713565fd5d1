import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createAppContext, type AppContextValue } from '../../src/app/context.js';
import { createTabs } from '../../src/app/tabs.js';
import { screens } from '../../src/screens/index.js';
import { DEFAULT_VIEW } from '../../src/store/views.js';
import type { RunningService } from '../../src/server/service.js';
import { ENTER, ESC, TAB, jumpTo, press, renderApp, type App } from '../helpers/ink.js';
import { addInstance } from '../helpers/networking.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';

/** An account's context on an address nothing answers: the store tests read nothing. */
const account = (name: string) =>
  createAppContext({
    client: new ApiClient({ baseUrl: `http://127.0.0.1:9/${name}/v4`, betaUrl: `http://127.0.0.1:9/${name}/v4beta`, token: 'x', retryDelaysMs: [] }),
    screens,
    session: { endpoint: name, embedded: false, readOnly: false, refreshSeconds: 60, profileName: name },
  });

/** A list's view state in a tab: cursor, filter, marks and sort. */
const viewOf = (ctx: AppContextValue) => ctx.views.getState().get(ctx.nav.getState().stack.at(-1)!.key);

describe('the tabs store', () => {
  it('opens a tab after the shown one with a stack and view states of its own, on the same account; each tab keeps its own', () => {
    const first = account('one');
    const tabs = createTabs(first);
    first.nav.getState().jump('instances');
    first.views.getState().update(first.nav.getState().stack.at(-1)!.key, { selectedIndex: 3, selectedKey: '13', filter: 'web', sortCol: 1, sortDesc: true, marks: new Set(['11']) });
    tabs.getState().open();
    const { tabs: open, active } = tabs.getState();
    expect(open).toHaveLength(2);
    expect(active).toBe(1);
    const second = open[1]!.ctx;
    // The account's client, cache, session and alerts; a stack and view states of its own, starting home.
    expect([second.client, second.data, second.session, second.alerts]).toEqual([first.client, first.data, first.session, first.alerts]);
    expect(second.nav).not.toBe(first.nav);
    expect(second.views).not.toBe(first.views);
    expect(second.nav.getState().stack.map((e) => e.screen)).toEqual(['home']);
    expect(second.tabs).toBe(tabs);

    second.nav.getState().jump('instances');
    second.nav.getState().push('events');
    second.views.getState().update(second.nav.getState().stack.at(-1)!.key, { selectedIndex: 1, filter: 'boot' });
    tabs.getState().select(0);
    expect(first.nav.getState().stack.map((e) => e.screen)).toEqual(['home', 'instances']);
    expect(viewOf(first)).toMatchObject({ selectedIndex: 3, selectedKey: '13', filter: 'web', sortCol: 1, sortDesc: true });
    expect([...viewOf(first).marks]).toEqual(['11']);
    tabs.getState().step(1);
    expect(tabs.getState().active).toBe(1);
    expect(second.nav.getState().stack.map((e) => e.screen)).toEqual(['home', 'instances', 'events']);
    expect(viewOf(second)).toMatchObject({ selectedIndex: 1, filter: 'boot', sortCol: null, marks: DEFAULT_VIEW.marks });
    // Round: past the last is the first.
    tabs.getState().step(1);
    expect(tabs.getState().active).toBe(0);
  });

  it('closes a tab and its stack with it; the shown one stays shown; the last tab stays; an account no tab shows is let go', () => {
    const first = account('one');
    const closed: [AppContextValue, boolean][] = [];
    const tabs = createTabs(first, { onClose: (ctx, stillUsed) => closed.push([ctx, stillUsed]) });
    tabs.getState().open();
    tabs.getState().open(account('two'));
    const [, second, third] = tabs.getState().tabs;
    second!.ctx.nav.getState().jump('instances');
    expect(tabs.getState().active).toBe(2);
    tabs.getState().close(1);
    expect(tabs.getState().tabs.map((t) => t.id)).toEqual([tabs.getState().tabs[0]!.id, third!.id]);
    expect(tabs.getState().tabs.some((t) => t.ctx.nav === second!.ctx.nav)).toBe(false);
    // Still the third tab shown, now second.
    expect(tabs.getState().active).toBe(1);
    expect(closed).toEqual([[second!.ctx, true]]);
    tabs.getState().close(1);
    expect(closed[1]).toEqual([third!.ctx, false]);
    expect(tabs.getState().active).toBe(0);
    tabs.getState().close(0);
    expect(tabs.getState().tabs).toHaveLength(1);
  });

  it('a tab on another account reads through that account\'s client and cache only', async () => {
    const first = account('one');
    const other = account('two');
    const opened: AppContextValue[] = [];
    const tabs = createTabs(first, { onOpen: (ctx) => opened.push(ctx) });
    tabs.getState().open(other);
    const tab = tabs.getState().tabs[1]!.ctx;
    expect(opened).toEqual([tab]);
    expect([tab.client, tab.data, tab.session, tab.alerts]).toEqual([other.client, other.data, other.session, other.alerts]);
    expect(tab.nav).not.toBe(other.nav);
    const asked: string[] = [];
    for (const [name, ctx] of [['one', first], ['two', other]] as const) {
      ctx.client.page = (async (path: string) => {
        asked.push(`${name} ${path}`);
        return { data: [{ id: 1, label: `${name}-vm` }], page: 1, pages: 1, results: 1 };
      }) as never;
    }
    await tab.data.getState().load({ path: '/vm/instances' });
    expect(asked).toEqual(['two /vm/instances']);
    expect(Object.keys(first.data.getState().lists)).toEqual([]);
  });

  it('flags a hidden tab whose account raised an alert, until it is shown', () => {
    const first = account('one');
    const tabs = createTabs(first);
    tabs.getState().open(account('two'));
    tabs.getState().tabs[0]!.ctx.alerts.getState().raise('vm:1:down:1', 'down', 'web-1 went offline', { type: 'vm', id: 1, label: 'web-1' });
    expect([...tabs.getState().news]).toEqual([tabs.getState().tabs[0]!.id]);
    tabs.getState().select(0);
    expect(tabs.getState().news.size).toBe(0);
  });
});

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
  for (const label of ['web-1', 'web-2', 'web-3']) addInstance(svc, { label });
});
const apps: App[] = [];
afterAll(async () => {
  apps.forEach((r) => r.unmount());
  await svc.close();
});

const latest = async () => (await call(svc, 'GET', '/__control/requests?limit=1')).body.latest as number;
const asked = async (since: number) => ((await call(svc, 'GET', `/__control/requests?since=${since}&limit=1000`)).body.data as { method: string; path: string }[]).map((e) => `${e.method} ${e.path}`);

describe('tabs in the app', { timeout: 60_000 }, () => {
  it('a switch shows the other tab as it was left, without building its screens afresh or asking the server again', async () => {
    const r = renderApp({ svc, rows: 24, cols: 100, session: { profileName: 'one' }, accounts: { profiles: { one: { apiUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN } }, current: 'one' } });
    apps.push(r);
    await jumpTo(r, 'instances', /^› web-1/m);
    await press(r, 'j', /^› web-2/m);
    await jumpTo(r, 'tab', /\[2 home\]/);
    await jumpTo(r, 'events', /\[2 events\]/);
    await press(r, ESC, /\[2 home\]/);
    const since = await latest();
    for (let i = 0; i < 3; i++) {
      await press(r, '\x1b1', (f) => /\[1 instances\]/.test(f) && /^› web-2/m.test(f));
      await press(r, '\x1b2', (f) => /\[2 home\]/.test(f) && !/web-2/.test(f));
    }
    await press(r, '\x1b1', /^› web-2/m);
    // The shown tab's keys are its own: j moves its cursor, and the hidden tab's list took none.
    await press(r, 'j', /^› web-3/m);
    await new Promise((done) => setTimeout(done, 300));
    expect(await asked(since)).toEqual([]);
  });

  it('Tab on the command line completes :tab, :tabs and :alerts', async () => {
    const r = renderApp({ svc, rows: 24, cols: 100, session: { profileName: 'one' }, accounts: { profiles: { one: { apiUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN } }, current: 'one' } });
    apps.push(r);
    await press(r, ':', /^:$/m);
    await press(r, 'ale', /^:ale$/m);
    await press(r, TAB, /^:alerts$/m);
    await press(r, ESC, (f) => !/^:/m.test(f));
    await press(r, ':', /^:$/m);
    await press(r, 'tab', (f) => /^:tab$/m.test(f) && /^tabs {2}tab\b/m.test(f));
    await press(r, TAB, /^:tabs$/m);
    await press(r, TAB, /^:tab$/m);
    await press(r, ENTER, /\[2 home\]/);
  });
});
