import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pageShape, recordProblem } from '../../../src/model/response.js';
import { ENTER, ESC, TAB, jumpTo, press, pressUntil, renderApp, select, wait, type App } from '../../helpers/ink.js';
import { startTodayStub, type TodayStub } from '../../helpers/today-stub.js';
import { fieldLine } from '../nodebalancers/helpers.js';

/** Pointed at today's release (4.176.0, from the fixtures' captures): what the app says must be true of what the server sent. */

const RIGHT = '\x1b[C';
let stub: TodayStub;
let r: App | undefined;

beforeAll(async () => {
  stub = await startTodayStub();
});
afterAll(async () => {
  r?.unmount();
  await stub.close();
});

const open = () => {
  r?.unmount();
  r = renderApp({ client: stub.client, rows: 40, cols: 160 });
  return r;
};

const fixture = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/api-4.176/${name}.json`, import.meta.url)), 'utf8')) as { data: unknown[] };

describe("today's release", { timeout: 60_000 }, () => {
  it('reads every captured record as readable: later fields are not flaws', () => {
    for (const [path, name] of [['/networking/firewalls', 'firewalls'], ['/profile/logins', 'logins'], ['/vm/types', 'types'], ['/regions', 'regions'], ['/images', 'images'], ['/networking/ips', 'ips']]) {
      for (const row of fixture(name!).data) expect(recordProblem(pageShape(path!)!, row), `${name}`).toBeUndefined();
    }
  });

  it('describes a firewall by its policies and shows each rule’s action', async () => {
    const app = open();
    await jumpTo(app, 'fw', 'closed-by-default');
    await select(app, 'open-by-default');
    const sections = await press(app, ENTER, /Summary/);
    expect(sections).toContain('inbound: all but what the rules drop (policy ACCEPT) · outbound: only what the rules allow (policy DROP)');
    expect(sections).not.toContain('inbound: only what the rules allow');
    const detail = await press(app, 'd', 'Inbound rules (policy ACCEPT: traffic no rule matches is allowed)');
    expect(detail).toContain('Outbound rules (policy DROP: traffic no rule matches is blocked)');
    expect(detail).not.toMatch(/unlisted inbound traffic is blocked|none: all outbound traffic allowed/);
    expect(detail).toMatch(/rules\.inbound_policy\s+ACCEPT/);
    expect(detail).toMatch(/rules\.inbound\.0\.action\s+DROP/);
    // What 4.176.0 adds and the app does not know is shown, not dropped.
    expect(detail).toContain('More fields');
    expect(detail).toMatch(/entities\s+\[\{"id":9001,"type":"vm","label":"web-1"/);
    expect(detail).toMatch(/rules\.version\s+3/);
    await press(app, ESC, /Summary/);
    const rules = await press(app, ENTER, 'inbound policy ACCEPT · outbound policy DROP');
    expect(rules).toMatch(/inbound\s+1\s+DROP\s+TCP\s+23/);
    expect(rules).toMatch(/outbound\s+1\s+ACCEPT\s+TCP\s+443/);
    const rule = await press(app, 'd', /Rule/);
    expect(rule).toMatch(/action\s+DROP/);
    expect(rule).toMatch(/label\s+no-telnet/);
  });

  it("names a direction's stated policy on the rules list though the direction has no rule", async () => {
    const app = open();
    await jumpTo(app, 'fw', 'closed-by-default');
    await select(app, 'closed-by-default');
    await press(app, ENTER, /Summary/);
    // closed-by-default has one inbound rule and none outbound; the server states both policies.
    await press(app, ENTER, 'inbound policy DROP · outbound policy ACCEPT');
  });

  it('shows a login’s status, failures marked, and says what the list holds', async () => {
    const app = open();
    const list = await jumpTo(app, 'logins', 'Logins of the last 90 days: 1 failed attempt, 2 successful');
    expect(list).not.toContain('Successful logins');
    expect(list).toMatch(/2026-11-21 09:30\s+✗ failed\s+203\.0\.113\.66/);
    expect(list).toMatch(/2026-11-20 08:00\s+successful\s+192\.0\.2\.10/);
    await select(app, '203.0.113.66');
    const detail = await press(app, 'd', /status\s+failed/i);
    expect(detail).not.toContain('More fields');
  });

  it('prices a plan in the region chosen where the type has a price for it', async () => {
    const app = open();
    const types = await jumpTo(app, 'types', 'g6-standard-2');
    expect(types).toMatch(/g6-standard-2 .*24\.00\*/);
    expect(types).toMatch(/g6-nanode-1 .*5\.00$/m);
    expect(types).toContain('* other prices in some regions');
    await select(app, 'g6-standard-2');
    const detail = await press(app, 'd', 'Region prices (where they differ)');
    expect(detail).toMatch(/region_prices\.0\.id\s+id-cgk/);
    expect(detail).toMatch(/region_prices\.0\.monthly\s+28\.8/);
    expect(detail).toMatch(/accelerated_devices\s+0/);

    await jumpTo(app, 'instances', /No instances|instances/i);
    await press(app, 'c', 'New instance');
    await pressUntil(app, RIGHT, /Region \*\s+◂ us-east/);
    await press(app, TAB, /› Type/);
    await pressUntil(app, RIGHT, /Type \*\s+◂ g6-standard-2/);
    // us-east has no price of its own: the default.
    expect(fieldLine(app.lastFrame(), 'Type')).toContain('g6-standard-2  $24/mo  VM 4GB ▸');
    await press(app, '\x1b[Z', /› Region/);
    await press(app, RIGHT, /Region \*\s+◂ id-cgk/);
    const form = await wait(app, /Type \*\s+◂ g6-standard-2  \$28\.8\/mo in id-cgk/);
    expect(form).toBeTruthy();
  });

  it('marks an image that is not available and refuses to deploy from it', async () => {
    const app = open();
    const list = await jumpTo(app, 'images', 'web-golden');
    expect(list).toMatch(/private\/4242\s+web-golden\s+creating/);
    await select(app, 'web-golden');
    const detail = await press(app, 'd', /status\s+creating: not deployable yet/);
    expect(detail).toMatch(/capabilities\s+\[\]/);
    await press(app, ESC, /web-golden/);

    await jumpTo(app, 'instances', /instances/i);
    await press(app, 'c', 'New instance');
    await pressUntil(app, RIGHT, /Region \*\s+◂ us-east/);
    await press(app, TAB, /› Type/);
    await pressUntil(app, RIGHT, /Type \*\s+◂ g6-nanode-1/);
    r!.stdin.write(TAB);
    await wait(app, /› Label/);
    r!.stdin.write(TAB);
    const image = await press(app, ENTER, 'Image: choose');
    expect(image).toContain('private/4242  web-golden · 2.5 GB · ✗ creating: not deploya');
    await press(app, ESC, /› Image/);
    await pressUntil(app, RIGHT, /Image\s+◂ private\/4242/);
    const refused = await press(app, '\x13', /Image .*✗ creating: not deployable/);
    expect(refused).toBeTruthy();
    expect(stub.paths).not.toContain('POST /vm/instances');
  });

  it('shows a region’s label and what else today sends under More fields', async () => {
    const app = open();
    await jumpTo(app, 'regions', 'id-cgk');
    await select(app, 'id-cgk');
    const detail = await press(app, 'd', 'More fields');
    expect(detail).toMatch(/label\s+Jakarta, ID/);
    expect(detail).toMatch(/placement_group_limits\s+\{"maximum_pgs_per_customer":100,"maximum_vms_per_pg":10\}/);
  });

  it('shows an address’s VPC NAT under More fields', async () => {
    const app = open();
    await jumpTo(app, 'ips', '198.51.100.5');
    const detail = await press(app, 'd', 'More fields');
    expect(detail).toMatch(/vpc_nat_1_1\s+\{"address":"10\.0\.0\.5","subnet_id":55,"vpc_id":12\}/);
    expect(detail).toMatch(/rdns\s+web-1\.example\.com/);
  });

  it('edits a rule of a firewall with policies: its action, label and the policies are sent back', async () => {
    const app = open();
    await jumpTo(app, 'fw', 'closed-by-default');
    await select(app, 'open-by-default');
    await press(app, ENTER, /Summary/);
    await press(app, ENTER, /› inbound\s+1\s+DROP/);
    const form = await press(app, 'e', /Ports\s+23/);
    expect(form).not.toMatch(/not a known field/);
    await pressUntil(app, TAB, /› Ports/);
    await press(app, ', 2323', /Ports\s+23, 2323/);
    app.stdin.write('\x13');
    await wait(app, 'Saved inbound rule 1');
    expect(stub.writes.get('PUT /networking/firewalls/7001/rules')).toEqual({
      inbound: [{ protocol: 'TCP', ports: '23, 2323', addresses: { ipv4: ['0.0.0.0/0'] }, action: 'DROP', label: 'no-telnet', description: 'Telnet stays out' }],
      outbound: [{ protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] }, action: 'ACCEPT', label: 'https-out' }],
      inbound_policy: 'ACCEPT',
      outbound_policy: 'DROP',
    });
  });
});
