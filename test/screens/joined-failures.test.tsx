import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { call, startTestService } from '../helpers/service.js';
import { ENTER, jumpTo, press, readsDone, renderApp, select, wait, type App } from '../helpers/ink.js';
import { seedBalancer } from './nodebalancers/helpers.js';

/*
 * A view joined from several lists keeps its rows when a list under it fails
 * to be read again: it says so, and how old its rows are, as a plain list does.
 */

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  await seedBalancer(svc);
});
afterAll(() => svc.close());
afterEach(async () => {
  await call(svc, 'DELETE', '/__control/faults');
});

const fail = (path: string, status = 500) => call(svc, 'POST', '/__control/faults', { body: { method: 'GET', path, action: 'error', status } });
const FAILED = /refresh failed: .*· shown as read \d+s ago/;

/** Opens a view, makes a list under it fail, presses r: the view says so. */
async function failsUnder(open: (r: App) => Promise<unknown>, path: string, status?: number) {
  const r = renderApp({ svc, rows: 40, cols: 160 });
  await wait(r, /Instances\s+\d+/);
  await open(r);
  // A first read still under way would take the r: its rows are what r reads again.
  await readsDone(r);
  expect(r.lastFrame()).not.toMatch(/refresh failed/);
  await fail(path, status);
  const frame = await press(r, 'r', FAILED);
  r.unmount();
  return frame;
}

const NODES = '/v4/nodebalancers/*/configs/*/nodes';

describe('a joined view whose input fails to be read again says so, and how old its rows are', { timeout: 60_000 }, () => {
  it("a port's nodes (:lb, Enter, Enter), the server answering 500", async () => {
    await failsUnder(async (r) => {
      await jumpTo(r, 'lb', /shop-lb/);
      await select(r, 'shop-lb');
      await press(r, ENTER, /› +80 http/);
      await press(r, ENTER, /app-a\s+192\.168\.10\.1:8080/);
    }, NODES);
  });

  it("a balancer's ports, the server answering 429", async () => {
    await failsUnder(async (r) => {
      await jumpTo(r, 'lb', /shop-lb/);
      await select(r, 'shop-lb');
      await press(r, ENTER, /› +80 http/);
    }, NODES, 429);
  });

  it("the firewalls' devices", async () => {
    await failsUnder((r) => jumpTo(r, 'fw', /web-public/), '/v4beta/networking/firewalls/*/devices');
  });

  it("an instance's overview, a relation's list failing", async () => {
    await failsUnder(async (r) => {
      await jumpTo(r, 'vm', /web-1/);
      await select(r, 'web-1');
      await press(r, ENTER, /Disks/);
      await wait(r, /Firewall/);
    }, '/v4beta/networking/firewalls');
  });

  it('the audit, the instances failing', async () => {
    await failsUnder((r) => jumpTo(r, 'audit', /findings|high/i), '/v4/vm/instances');
  });

  it('the costs, the plans failing', async () => {
    await failsUnder((r) => jumpTo(r, 'costs', /Total\s+\d+/), '/v4/vm/types');
  });
});

describe(':audit and :costs read their inputs again on r', { timeout: 60_000 }, () => {
  it('an instance made by another client shows in the costs and the audit after r', async () => {
    const r = renderApp({ svc, rows: 40, cols: 160 });
    await wait(r, /Instances\s+\d+/);
    const before = (await call(svc, 'GET', '/vm/instances')).body.results as number;
    await jumpTo(r, 'costs', new RegExp(`Total\\s+${before}\\s`));
    await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-nanode-1', label: 'elsewhere-1', image: 'vm/debian12', root_pass: 'a-Long-root-pass-42!' } });
    await press(r, 'r', new RegExp(`Total\\s+${before + 1}\\s`));
    await jumpTo(r, 'audit', /findings|high/i);
    await press(r, 'r', /elsewhere-1/);
    r.unmount();
  });
});
