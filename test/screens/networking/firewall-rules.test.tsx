import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { app, dialogText, fieldLine, jump, press, selectedRow, wait, type App } from '../nodebalancers/helpers.js';

const RIGHT = '\x1b[C';
const CTRL_U = '\x15';
const FW = '/v4beta/networking/firewalls';

let svc: RunningService;
let fw: number;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());
beforeEach(async () => {
  for (const f of (await call(svc, 'GET', FW)).body.data) await call(svc, 'DELETE', `${FW}/${f.id}`);
  const created = await call(svc, 'POST', FW, {
    body: { label: 'edge', rules: { inbound: [{ protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } }] } },
  });
  fw = created.body.id;
});

const rules = async () => (await call(svc, 'GET', `${FW}/${fw}/rules`)).body;

async function openRules(): Promise<App> {
  const r = app(svc);
  await jump(r, 'fw', /› edge/);
  await press(r, ENTER, /Rules\s+\d+ inbound/);
  await press(r, ENTER, /^home › firewalls › edge › firewall › rules$/m);
  await wait(r, /› inbound\s+1 ACCEPT TCP\s+443\s+0\.0\.0\.0\/0, ::\/0/);
  return r;
}

describe('firewall rules', { timeout: 60_000 }, () => {
  it('adds an outbound rule: the whole ruleset is replaced with it', async () => {
    const r = await openRules();
    await press(r, 'c', 'New firewall rule');
    await press(r, RIGHT, /Direction \*\s+◂ outbound ▸/);
    r.stdin.write(TAB);
    await wait(r, /› Protocol \*\s+— choose/);
    await press(r, RIGHT + RIGHT, /Protocol \*\s+◂ UDP ▸/);
    // UDP without ports: the model's rule, as you type.
    expect(fieldLine(r.lastFrame(), 'Ports')).toMatch(/✗ must name at least one port for U/);
    r.stdin.write(TAB);
    await press(r, '53, 123', (f) => !f.includes('must name at least one port'));
    r.stdin.write(TAB);
    await press(r, '0.0.0.0/0', /IPv4\s+0\.0\.0\.0\/0/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Rule added; the ruleset was replaced');
    await wait(r, /outbound\s+1 ACCEPT UDP\s+53, 123\s+0\.0\.0\.0\/0/);
    expect(await rules()).toEqual({
      inbound: [{ protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } }],
      outbound: [{ protocol: 'UDP', ports: '53, 123', addresses: { ipv4: ['0.0.0.0/0'] } }],
    });
    // The firewall list counts it.
    await press(r, ESC, /Rules\s+1 inbound, 1 outbound/);
    await press(r, ESC, /› edge\s+enabled\s+1\s+1\s/);
  });

  it('ICMP takes no ports: refused as you type', async () => {
    const r = await openRules();
    await press(r, 'c', 'New firewall rule');
    r.stdin.write(TAB);
    await wait(r, /› Protocol \*\s+— choose/);
    await press(r, RIGHT + RIGHT + RIGHT, /Protocol \*\s+◂ ICMP ▸/);
    r.stdin.write(TAB);
    const frame = await press(r, '22', /Ports\s+22/);
    expect(fieldLine(frame, 'Ports')).toMatch(/✗ must not be given for ICMP rules/);
    await press(r, '\x7f\x7f', (f) => !f.includes('must not be given'));
  });

  it('edits a rule in place', async () => {
    const r = await openRules();
    await press(r, 'e', 'Edit inbound rule 1');
    r.stdin.write(TAB + TAB);
    await wait(r, /› Ports\s+443/);
    r.stdin.write(CTRL_U);
    await press(r, '8443', /Ports\s+8443/);
    r.stdin.write(CTRL_S);
    await wait(r, 'Saved inbound rule 1; the ruleset was replaced');
    await wait(r, /› inbound\s+1 ACCEPT TCP\s+8443/);
    expect((await rules()).inbound).toEqual([{ protocol: 'TCP', ports: '8443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } }]);
  });

  it('deletes a rule after a confirm; the last open inbound rule cannot go (the model says why)', async () => {
    await call(svc, 'PUT', `${FW}/${fw}/rules`, {
      body: {
        inbound: [
          { protocol: 'TCP', ports: '443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } },
          { protocol: 'TCP', ports: '22', addresses: { ipv4: ['198.51.100.0/24'] } },
        ],
      },
    });
    const r = await openRules();
    r.stdin.write(DOWN);
    await wait(r, /› inbound\s+2 ACCEPT TCP\s+22/);
    const dialog = dialogText(await press(r, CTRL_D, '[ Cancel ]'));
    expect(dialog).toContain('Delete inbound rule 2 (TCP 22 from 198.51.100.0/24)? The whole ruleset is replaced without it');
    await press(r, ENTER, (f) => !f.includes('[ Cancel ]'));
    expect((await rules()).inbound).toHaveLength(2);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, 'Delete inbound rule 2: done');
    await wait(r, (f) => !f.includes('198.51.100.0/24'));
    expect((await rules()).inbound).toHaveLength(1);

    // The one left is the only open inbound rule.
    expect(selectedRow(r.lastFrame())).toMatch(/inbound\s+1 ACCEPT TCP\s+443/);
    await press(r, CTRL_D, '[ Cancel ]');
    r.stdin.write(RIGHT);
    await press(r, ENTER, /Delete inbound rule 1 failed: The new ruleset is not valid: at least one open inbound rule/);
    expect((await rules()).inbound).toHaveLength(1);
  });

  it('refuses to edit a rule that changed meanwhile', async () => {
    const r = await openRules();
    await call(svc, 'PUT', `${FW}/${fw}/rules`, { body: { inbound: [{ protocol: 'TCP', ports: '80', addresses: { ipv4: ['0.0.0.0/0'] } }] } });
    await press(r, 'e', 'Edit inbound rule 1');
    r.stdin.write(TAB + TAB + CTRL_U);
    await press(r, '8080', /Ports\s+8080/);
    r.stdin.write(CTRL_S);
    await wait(r, /The rules changed since this list was loaded/);
    expect((await rules()).inbound[0].ports).toBe('80');
  });
});
