import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { jumpTo, press, renderApp, wait } from '../../helpers/ink.js';
import { hourlyText } from '../../../src/model/prices.js';

const SLOW_TEST_MS = 60_000;

interface Type {
  id: string;
  price: { monthly: number; hourly: number };
  addons: { backups: { price: { monthly: number; hourly: number } } };
}
interface Vm {
  type: string;
  region: string;
  tags: string[];
  status: string;
  backups: { enabled: boolean };
}

/** Every row of a paged list, straight from the API. */
async function all<T>(svc: RunningService, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const body = (await call(svc, 'GET', `${path}?page=${page}`)).body;
    rows.push(...body.data);
    if (page >= body.pages) return rows;
  }
}

/** The sum the costs view must show, computed here from the API's prices: by type, region and tag. */
async function expected(svc: RunningService) {
  const types = new Map((await all<Type>(svc, '/vm/types')).map((t) => [t.id, t]));
  const vms = await all<Vm>(svc, '/vm/instances');
  const groups = { type: new Map<string, number>(), region: new Map<string, number>(), tag: new Map<string, number>() };
  let monthly = 0;
  let hourly = 0;
  for (const vm of vms) {
    const t = types.get(vm.type)!;
    const m = t.price.monthly + (vm.backups.enabled ? t.addons.backups.price.monthly : 0);
    monthly += m;
    hourly += t.price.hourly + (vm.backups.enabled ? t.addons.backups.price.hourly : 0);
    const add = (g: Map<string, number>, k: string) => g.set(k, (g.get(k) ?? 0) + m);
    add(groups.type, vm.type);
    add(groups.region, vm.region);
    for (const tag of vm.tags.length ? vm.tags : ['(no tag)']) add(groups.tag, tag);
  }
  return { count: vms.length, offline: vms.filter((vm) => vm.status !== 'running').length, monthly, hourly, groups };
}

const money = (n: number) => `$${n.toFixed(2)}`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const groupLine = (group: string, monthly: number) => new RegExp(`^. ${escape(group)}\\s+\\d+\\s+\\d+\\s+${escape(money(monthly))}\\s`, 'm');

async function checkView(svc: RunningService) {
  const want = await expected(svc);
  const r = renderApp({ svc, rows: 60, cols: 140 });
  const frame = await jumpTo(r, 'costs', /Total\s+\d+/);
  expect(frame).toMatch(new RegExp(`^. Total\\s+${want.count}\\s+\\d+\\s+${escape(money(want.monthly))}\\s+${escape(hourlyText(want.hourly))}`, 'm'));
  for (const [type, m] of want.groups.type) expect(frame).toMatch(groupLine(type, m));
  expect(frame).toMatch(/Load balancers\s+\d+\s+0\s+—\s+—\s+price not published by the API/);
  const byRegion = await press(r, 'v', /By region[\s\S]*Total\s+\d/);
  for (const [region, m] of want.groups.region) expect(byRegion).toMatch(groupLine(region, m));
  const byTag = await press(r, 'v', /By tag .*an instance with two tags counts in both, once in the total[\s\S]*Total\s+\d/);
  for (const [tag, m] of want.groups.tag) expect(byTag).toMatch(groupLine(tag, m));
  await press(r, 'v', /By type[\s\S]*Total\s+\d/);
  return want;
}

describe(':costs', { timeout: SLOW_TEST_MS }, () => {
  describe('on the demo account', () => {
    let svc: RunningService;
    beforeAll(async () => {
      svc = await startTestService({ seed: 'demo' });
    });
    afterAll(() => svc.close());

    it("equals the sum computed from the API's prices, by type, region and tag", async () => {
      const want = await checkView(svc);
      expect(want.count).toBeGreaterThan(0);
    });
  });

  describe('on a generated account', () => {
    let svc: RunningService;
    beforeAll(async () => {
      svc = await startTestService();
      const types = ['g6-nanode-1', 'g6-standard-2', 'g6-dedicated-4', 'g7-highmem-1'];
      const regions = ['us-east', 'us-west', 'eu-west'];
      const tags = [[], ['web'], ['web', 'prod'], ['dbs']];
      for (let i = 0; i < 14; i++) {
        const made = await call(svc, 'POST', '/vm/instances', {
          body: { label: `gen-${i}`, type: types[i % types.length], region: regions[i % regions.length], tags: tags[i % tags.length], backups_enabled: i % 3 === 0 },
        });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
      }
    });
    afterAll(() => svc.close());

    it("equals the sum computed from the API's prices, offline instances and both tags of one counted", async () => {
      const want = await checkView(svc);
      expect(want.offline).toBeGreaterThan(0);
      expect(want.groups.tag.get('prod')).toBeGreaterThan(0);
    });

    it("reads the prices from the entry the home view counted: /vm/types is asked for once", async () => {
      const since = (await call(svc, 'GET', '/__control/requests?limit=1')).body.latest as number;
      const r = renderApp({ svc, rows: 60, cols: 140 });
      await wait(r, /Types\s+\d+/);
      await jumpTo(r, 'costs', /Total\s+\d+\s+\d+\s+\$/);
      const sent = (await call(svc, 'GET', `/__control/requests?since=${since}&limit=500`)).body.data as { method: string; path: string }[];
      expect(sent.filter((e) => e.method === 'GET' && e.path.split('?')[0]!.endsWith('/vm/types'))).toHaveLength(1);
    });

    it('follows a change: enabling backups adds their price', async () => {
      const r = renderApp({ svc, rows: 60, cols: 140 });
      const before = await expected(svc);
      await jumpTo(r, 'costs', new RegExp(`Total\\s+\\d+\\s+\\d+\\s+${escape(money(before.monthly))}`));
      const vm = (await all<Vm & { id: number }>(svc, '/vm/instances')).find((v) => !v.backups.enabled)!;
      await call(svc, 'POST', `/vm/instances/${vm.id}/backups/enable`, { body: {} });
      const after = await expected(svc);
      expect(after.monthly).toBeGreaterThan(before.monthly);
      r.ctx.data.getState().invalidate('/vm/instances');
      await press(r, 'r', new RegExp(`Total\\s+\\d+\\s+\\d+\\s+${escape(money(after.monthly))}`));
      await wait(r, /By type/);
    });
  });
});
