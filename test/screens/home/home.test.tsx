import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { createAppContext, prefetchFirstScreen } from '../../../src/app/context.js';
import { defineScreen, ScreenRegistry } from '../../../src/app/screen.js';
import { coreScreens } from '../../app/fixtures.js';
import type { RunningService } from '../../../src/server/service.js';
import { call, OWNER_TOKEN, startTestService } from '../../helpers/service.js';
import { DOWN, ENTER, renderApp, sendInputAndWait, waitForContent } from '../../helpers/ink.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const never = defineScreen({ id: 'slow', title: 'Slow area', count: () => new Promise<number>(() => {}), component: () => null });
const dashboard = defineScreen({ id: 'dash', title: 'Dashboard', component: () => null });
const instances = defineScreen({ id: 'instances', title: 'Instances', list: { path: '/vm/instances', columns: [{ key: 'label', title: 'Label' }] } });

describe('home', () => {
  it('lists every area with its count and how to jump to it', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    const frame = await waitForContent(r.lastFrame, (f) => /Regions\s+7\s/.test(f) && /Types\s+9\s/.test(f));
    expect(frame).toMatch(/Regions\s+7\s+:regions :region :dc\s+Data centers/);
    expect(frame).toContain(`${new ScreenRegistry(coreScreens).homeScreens().length} areas`);
  });

  it('shows … while a count loads, the error briefly when it fails (403 for a restricted token), nothing for an area without a count', async () => {
    const limited = await call(svc, 'POST', '/profile/tokens', { body: { label: 'acct', scopes: 'account:read_only' } });
    const r = renderApp({ svc, token: limited.body.token, screens: [...coreScreens, never, dashboard, instances] });
    const frame = await waitForContent(r.lastFrame, /Instances\s+✗ 403/);
    expect(frame).toMatch(/Slow area\s+…/);
    expect(frame).toMatch(/Dashboard\s+:dash/);
    expect(frame).toMatch(/Regions\s+7/);
  });

  it('asks for each count as the app starts, before anything is drawn; the view takes those answers, not asking again', async () => {
    let asked = 0;
    const counted = defineScreen({ id: 'counted', title: 'Counted area', count: async () => ++asked * 10, component: () => null });
    const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN });
    const ctx = createAppContext({ client, screens: [...coreScreens, counted], session: { endpoint: client.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 } });
    prefetchFirstScreen(ctx);
    expect(asked).toBe(1);
    expect(ctx.data.getState().counts.counted).toEqual({ status: 'loading' });

    asked = 0;
    const r = renderApp({ screens: [...coreScreens, counted], svc });
    await waitForContent(r.lastFrame, /Counted area\s+10\s/);
    expect(asked).toBe(1);
  });

  it('Enter opens the selected area; r counts again', async () => {
    const r = renderApp({ screens: coreScreens, svc });
    await waitForContent(r.lastFrame, /Types\s+9/);
    r.stdin.write(DOWN);
    await waitForContent(r.lastFrame, /^› Types/m);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /^home › types$/m);
    await sendInputAndWait(r.stdin, '\x1b', r.lastFrame, /^› Types/m);
    const before = r.ctx.session.getState().lastRefresh!;
    await new Promise((res) => setTimeout(res, 1100));
    r.stdin.write('r');
    await waitForContent(r.lastFrame, () => r.ctx.session.getState().lastRefresh! > before);
  });
});
