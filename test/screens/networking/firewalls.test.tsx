import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { addInstance } from '../../helpers/networking.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, selectedRow, wait } from '../nodebalancers/helpers.js';

const RIGHT = '\x1b[C';
const FW = '/v4beta/networking/firewalls';
const OPEN = { inbound: [{ protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'] } }] };

let svc: RunningService;
let web: number;
beforeAll(async () => {
  svc = await startTestService();
  web = addInstance(svc, { label: 'web-1' });
  addInstance(svc, { label: 'db-1' });
});
afterAll(() => svc.close());
beforeEach(async () => {
  for (const f of (await call(svc, 'GET', FW)).body.data) await call(svc, 'DELETE', `${FW}/${f.id}`);
});

async function firewall(label: string, vms: number[] = [], status?: 'disabled') {
  const r = await call(svc, 'POST', FW, { body: { label, rules: OPEN, devices: { vms } } });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  if (status) await call(svc, 'PUT', `${FW}/${r.body.id}`, { body: { status } });
  return r.body.id as number;
}

const listed = async () => (await call(svc, 'GET', FW)).body.data as { label: string; status: string; rules: unknown }[];

describe('firewalls', { timeout: 60_000 }, () => {
  it('creates a firewall with a first inbound rule and a protected instance; the model checks the rule as you type', async () => {
    await firewall('existing');
    const r = app(svc);
    await jump(r, 'fw', 'existing');
    const form = await press(r, 'c', 'New firewall');
    // TCP without ports and a rule listing no address: the model's ruleset rules, before anything is sent.
    expect(fieldLine(form, 'Inbound ports')).toMatch(/✗ must name at least one port for T/);
    expect(fieldLine(form, 'From IPv4')).toMatch(/✗ at least one open inbound rule/);
    await press(r, 'web-fw', /Label\s+web-fw/);
    r.stdin.write(TAB + TAB);
    await press(r, '22, 443', (f) => /Inbound ports\s+22, 443/.test(f) && !f.includes('must name at least one port'));
    r.stdin.write(TAB);
    const badAddress = await press(r, '203.0.113.0/33', /From IPv4\s+203\.0\.113\.0\/33/);
    expect(fieldLine(badAddress, 'From IPv4')).toMatch(/✗ 203\.0\.113\.0\/33 has an invalid pre/);
    expect(badAddress).toMatch(/^203\.0\.113\.0\/33 has an invalid prefix length$/m);
    r.stdin.write('\x7f\x7f');
    await press(r, '24', (f) => !f.includes('invalid prefix') && !f.includes('open inbound rule'));
    r.stdin.write(TAB + TAB);
    // Several instances may be picked: Enter on each, Esc when done.
    const picker = await press(r, ENTER, 'Protect instances: Enter toggles, Esc done');
    expect(picker).toMatch(/\[ \] web-1 +\(\d+, us-east, running\)/);
    await press(r, ENTER, /\[x\] web-1/);
    // Focused, the field shows the IDs it will send; elsewhere, the instances' names.
    await press(r, ESC, new RegExp(`Protect instances\\s+${web}$`, 'm'));
    await press(r, TAB, /Protect instances\s+web-1 +\(\d+, us-east, running\)/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Created firewall web-fw (enabled)');
    await wait(r, /web-fw\s+enabled\s+1\s+0\s+1\s.*\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    const created = (await listed()).find((f) => f.label === 'web-fw')!;
    expect(created.rules).toEqual({ inbound: [{ protocol: 'TCP', ports: '22, 443', addresses: { ipv4: ['203.0.113.0/24'] } }], outbound: [] });
    const devices = (await call(svc, 'GET', `${FW}/${(created as unknown as { id: number }).id}/devices`)).body.data;
    expect(devices.map((d: { entity: { id: number } }) => d.entity.id)).toEqual([web]);
  });

  it('disables after a confirm, enables again; the three-active-firewalls refusal is shown in full', async () => {
    const legacy = await firewall('legacy', [web], 'disabled');
    for (const label of ['fw-a', 'fw-b', 'fw-c']) await firewall(label, [web]);
    const r = app(svc, { cols: 120 });
    await jump(r, 'firewalls', 'fw-c');
    await wait(r, /› legacy\s+disabled/);
    await press(r, 'a', 'Actions: legacy');
    r.stdin.write('n');
    const refused = await wait(r, /Enable legacy failed: HTTP 400: cannot enable: instance web-1 \(\d+\) already has 3 other active firewalls/);
    expect(selectedRow(refused)).toMatch(/legacy\s+disabled/);
    expect((await call(svc, 'GET', `${FW}/${legacy}`)).body.status).toBe('disabled');

    // Disabling one of the three needs a confirm, then legacy may be enabled.
    await press(r, DOWN, /› fw-a\s+enabled/);
    await press(r, 'a', 'Actions: fw-a');
    const confirm = dialogText(await press(r, 'x', '[ Cancel ]'));
    expect(confirm).toContain('Disable fw-a? Its rules stop applying to its 1 device: traffic they block gets through until you enable it again.');
    await press(r, ENTER, (f) => !f.includes('[ Cancel ]'));
    expect((await listed()).find((f) => f.label === 'fw-a')!.status).toBe('enabled');
    await press(r, 'a', 'Actions: fw-a');
    await press(r, 'x', '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Disabled fw-a');
    await wait(r, /› fw-a\s+disabled/);
    await press(r, 'g', /› legacy/);
    await press(r, 'a', 'Actions: legacy');
    await press(r, 'n', 'Enabled legacy: its rules apply to its 1 device again');
    await wait(r, /› legacy\s+enabled/);
    expect((await call(svc, 'GET', `${FW}/${legacy}`)).body.status).toBe('enabled');
  });

  it('edits the label and tags; deletes after the confirm dialog', async () => {
    await firewall('old-name', [web]);
    const r = app(svc);
    await jump(r, 'fw', /› old-name/);
    await press(r, 'e', 'Edit old-name');
    r.stdin.write('\x17');
    await press(r, 'new-name', /Label\s+new-name/);
    r.stdin.write(TAB);
    await press(r, 'ops', /Tags\s+ops/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Saved old-name');
    await wait(r, /› new-name\s+enabled\s+1\s+0\s+1\s+ops/);
    const dialog = dialogText(await press(r, CTRL_D, '[ Cancel ]'));
    expect(dialog).toContain('Delete firewall new-name? Its rules stop protecting its 1 device at once');
    await press(r, ENTER, (f) => !f.includes('[ Cancel ]'));
    expect((await listed()).map((f) => f.label)).toEqual(['new-name']);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'No firewalls yet');
    expect(await listed()).toEqual([]);
  });

  it('replaces the whole ruleset from the JSON editor after a confirm', async () => {
    const id = await firewall('json-fw');
    const r = app(svc, { rows: 40 });
    await jump(r, 'fw', /› json-fw/);
    await press(r, 'a', 'Edit all rules as JSON');
    const form = await press(r, 'r', 'Rules (JSON): the whole ruleset');
    expect(form).toMatch(/"ports": "443"/);
    // Into the outbound field, which starts as [].
    r.stdin.write(TAB);
    await wait(r, /› Outbound rules\s+\[\]/);
    r.stdin.write('\x1b[D');
    await press(r, '{"protocol":"UDP","ports":"53","addresses":{"ipv4":["0.0.0.0/0"]}}', /"UDP"/);
    const confirm = dialogText(await press(r, CTRL_S, 'Proceed'));
    expect(confirm).toContain('Replace all rules of json-fw (1 inbound, 0 outbound) with 1 inbound, 1 outbound?');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Replaced the rules of json-fw');
    await wait(r, /› json-fw\s+enabled\s+1\s+1\s/);
    expect((await call(svc, 'GET', `${FW}/${id}/rules`)).body.outbound).toEqual([{ protocol: 'UDP', ports: '53', addresses: { ipv4: ['0.0.0.0/0'] } }]);
  });

  it('shows the rules and devices of a firewall as sections', async () => {
    await firewall('sections-fw', [web]);
    const r = app(svc);
    await jump(r, 'fw', /› sections-fw/);
    await press(r, ENTER, /^home › firewalls › sections-fw › firewall$/m);
    await wait(r, /Rules\s+1 inbound, 0 outbound · inbound: only what the rules allow · outbound: all allowed/);
    await wait(r, /Devices\s+1 instance protected · enforced/);
    // d shows the firewall itself.
    const detail = await press(r, 'd', /^Firewall$/m);
    expect(detail).toMatch(/label\s+sections-fw/);
    expect(detail).toMatch(/rules\.inbound\.0\.ports\s+443/);
    await press(r, ESC, /Rules\s+1 inbound/);
    r.stdin.write(DOWN);
    await press(r, ENTER, /^home › firewalls › sections-fw › firewall › devices$/m);
  });
});
