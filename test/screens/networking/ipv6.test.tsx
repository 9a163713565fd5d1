import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { allocateIpv6Range, ensureIpv6Pool, type Ipv6BlockRecord } from '../../../src/server/ipam.js';
import { ENTER } from '../../helpers/ink.js';
import { createInstance } from '../../server/instances-fixtures.js';
import { startTestService } from '../../helpers/service.js';
import { app, jump, press, selectedRow, wait } from '../nodebalancers/helpers.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let svc: RunningService;
let web: number;
let webRange: Ipv6BlockRecord;
let dbRange: Ipv6BlockRecord;
beforeAll(async () => {
  svc = await startTestService();
  web = (await createInstance(svc, { label: 'web-1' })).id;
  const db = (await createInstance(svc, { label: 'db-1', region: 'eu-central' })).id;
  svc.store.tx(() => {
    ensureIpv6Pool(svc.store, 'us-east');
    webRange = allocateIpv6Range(svc.store, web, 'us-east');
    dbRange = allocateIpv6Range(svc.store, db, 'eu-central');
  });
});
afterAll(() => svc.close());

describe(':ipv6', { timeout: 60_000 }, () => {
  it('lists pools and ranges, each range with the instance it is routed to and its route target', async () => {
    const r = app(svc, { cols: 140 });
    await jump(r, 'ipv6', /^home › ipv6$/m);
    const list = await wait(r, /range\s+2600\S+\s+eu-central\s+db-1/);
    expect(list).toMatch(/Kind\s+Range\s+Region\s+Instance\s+Route target/);
    expect(list).not.toMatch(/Routed to/);
    expect(list).toMatch(/pool\s+2600:\S+\/124\s+us-east\s+every instance in us-east\s+2600:\S+/);
    expect(list).toMatch(new RegExp(`range\\s+${escape(webRange.range)}/64\\s+us-east\\s+web-1\\s+${escape(webRange.route_target!)}`));
    expect(list).toMatch(new RegExp(`range\\s+${escape(dbRange.range)}/64\\s+eu-central\\s+db-1\\s+${escape(dbRange.route_target!)}`));
  });

  it('Enter on a range opens its instance; on a pool it shows the detail', async () => {
    const r = app(svc, { cols: 140 });
    await jump(r, 'ipv6', /^home › ipv6$/m);
    await press(r, '/', /^\//m);
    await press(r, 'web-1', /1 of \d+/);
    const filtered = await press(r, ENTER, /^› range\s/m);
    expect(selectedRow(filtered)).toContain(webRange.range);
    // The crumb names the range drilled from; the screen is the instance's own overview.
    const opened = await press(r, ENTER, new RegExp(`^home › ipv6 › ${escape(webRange.range)}/64 › overview$`, 'm'));
    expect(opened).not.toMatch(/Kind\s+Range/);
    await wait(r, /^› Instance\s+\S+\s+web-1 · us-east/m);

    const pools = app(svc, { cols: 140 });
    await jump(pools, 'ipv6', /^home › ipv6$/m);
    expect(selectedRow(await wait(pools, /^› pool\s/m))).toMatch(/every instance in us-east/);
    const detail = await press(pools, ENTER, /Routed to/);
    expect(detail).toMatch(/^instance\s+every instance in us-east$/m);
  });
});

describe(':ips and ranges', { timeout: 60_000 }, () => {
  it('lists a range as an ipv6/range address of its instance, and e says reverse DNS is not set on a range', async () => {
    const r = app(svc, { cols: 140 });
    await jump(r, 'ips', /items/);
    await press(r, '/', /^\//m);
    await press(r, webRange.range, /1 of \d+/);
    const row = selectedRow(await press(r, ENTER, new RegExp(`^› ${escape(webRange.range)}\\s`, 'm')));
    expect(row).toMatch(/ipv6\/range\s+yes\s+us-east\s+web-1/);
    await press(r, 'e', /reverse DNS is set on single addresses/);
  });
});
