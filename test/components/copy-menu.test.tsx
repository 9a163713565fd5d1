import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';
import { ESC, jumpTo, press, renderApp, select, wait } from '../helpers/ink.js';

let svc: RunningService;
let vm: { id: number; label: string; ipv4: string[]; ipv6: string };

// Outside tmux, whatever terminal runs the tests: the copy is the OSC 52 sequence itself.
vi.stubEnv('TMUX', '');

beforeAll(async () => {
  svc = await startTestService();
  const res = await call(svc, 'POST', '/vm/instances', {
    body: { label: 'web-1', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' },
  });
  vm = res.body;
});
afterAll(() => svc.close());

/** The texts copied so far: every OSC 52 sequence the app wrote, decoded. */
const copied = (frames: string[]) =>
  [...frames.join('').matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));

async function instancesMenu() {
  const r = renderApp({ svc, rows: 30, cols: 120 });
  await jumpTo(r, 'instances', 'web-1');
  await select(r, 'web-1');
  return r;
}

describe('Y: the copy menu', () => {
  it('offers the ID, label, addresses, ssh command, JSON and curl of an instance; each key copies with OSC 52 and says so', async () => {
    const r = await instancesMenu();
    const frame = await press(r, 'Y', /Copy: web-1[\s\S]*ssh command/);
    const publicIp = vm.ipv4.find((ip) => !ip.startsWith('192.168.'))!;
    expect(frame).toMatch(new RegExp(`i ID +${vm.id}`));
    expect(frame).toMatch(/l label +web-1/);
    expect(frame).toContain(`4 IPv4        ${publicIp}`);
    expect(frame).toContain(`6 IPv6        ${vm.ipv6.replace(/\/128$/, '')}`);
    expect(frame).toContain(`s ssh command ssh root@${publicIp}`);
    expect(frame).toMatch(/r JSON +\d+ lines/);
    expect(frame).toMatch(/c curl +curl -sS/);

    await press(r, 'c', 'Copied the curl command (OSC 52)');
    const curl = copied(r.frames).at(-1)!;
    expect(curl).toBe(`curl -sS -H "Authorization: Bearer $VM_TOKEN" ${svc.baseUrl}/vm/instances/${vm.id}`);
    expect(r.frames.join('')).not.toContain(Buffer.from(OWNER_TOKEN).toString('base64'));
    expect(r.lastFrame()).not.toContain('Copy: web-1');

    await press(r, 'Y', 'Copy: web-1');
    await press(r, 'l', 'Copied the label (OSC 52)');
    expect(copied(r.frames).at(-1)).toBe('web-1');
    await press(r, 'Y', 'Copy: web-1');
    await press(r, 'r', 'Copied the record as JSON (OSC 52)');
    expect(JSON.parse(copied(r.frames).at(-1)!)).toMatchObject({ id: vm.id, label: 'web-1', ipv4: vm.ipv4 });
  });

  it('the ssh command follows the managed SSH access settings: their user and port', async () => {
    expect((await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { user: 'deploy', port: 2222 } } })).status).toBe(200);
    const r = await instancesMenu();
    const publicIp = vm.ipv4.find((ip) => !ip.startsWith('192.168.'))!;
    await press(r, 'Y', `ssh -p 2222 deploy@${publicIp}`);
    await press(r, 's', 'Copied the ssh command (OSC 52)');
    expect(copied(r.frames).at(-1)).toBe(`ssh -p 2222 deploy@${publicIp}`);
    await call(svc, 'PUT', `/managed/vm-settings/${vm.id}`, { body: { ssh: { user: 'root', port: 22 } } });
  });

  it('works over the detail too: Esc from the menu goes back to the detail', async () => {
    const r = await instancesMenu();
    await press(r, 'd', /Specs \(memory and disk in MB\)/);
    await press(r, 'Y', 'Copy: web-1');
    await press(r, ESC, (f) => !f.includes('Copy: web-1') && f.includes('Specs (memory and disk in MB)'));
    await press(r, 'Y', 'Copy: web-1');
    await press(r, 'i', `Copied the ID (OSC 52)`);
    expect(copied(r.frames).at(-1)).toBe(String(vm.id));
    await wait(r, 'Specs (memory and disk in MB)');
  });

  it('a record without a label or addresses offers what it has: a tag', async () => {
    await call(svc, 'POST', '/tags', { body: { label: 'blue' } });
    const r = renderApp({ svc, rows: 30, cols: 120 });
    await jumpTo(r, 'tags', 'blue');
    await select(r, 'blue');
    const frame = await press(r, 'Y', 'Copy: blue');
    expect(frame).toMatch(/l label +blue/);
    expect(frame).not.toContain('IPv4');
    expect(frame).not.toContain('ssh command');
  });
});
