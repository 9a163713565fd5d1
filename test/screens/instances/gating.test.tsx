import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { ESC } from '../../helpers/ink.js';
import { SLOW_TEST_MS, app, jump, press, select, wait } from './helpers.js';

let svc: RunningService;
let label: string;
let readOnlyToken: string;

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  label = (await call(svc, 'GET', '/vm/instances')).body.data[0].label;
  readOnlyToken = (await call(svc, 'POST', '/profile/tokens', { body: { label: 'look', scopes: 'account:read_only vms:read_only' } })).body.token;
});
afterAll(() => svc.close());

describe('what the user may not change is refused at the key, never after a form', { timeout: SLOW_TEST_MS }, () => {
  it('--read-only keeps the way to an instance’s disks, configs and backups, and nothing that changes it', async () => {
    const r = app(svc, { session: { readOnly: true } });
    await jump(r, 'instances', label);
    await select(r, label);
    const list = r.lastFrame();
    expect(list).toMatch(/\ba actions\b/);
    expect(list).not.toMatch(/\bc create\b/);
    const menu = await press(r, 'a', `Actions: ${label}`);
    expect(menu).toMatch(/D Disks →/);
    expect(menu).toMatch(/C Configs →/);
    expect(menu).toMatch(/K Backups →/);
    expect(menu).not.toMatch(/Reboot|Clone|Shut down|Cancel backups/);
    await press(r, 'C', new RegExp(`${label} › configs\\n[\\s\\S]*\\d+ items?`));
  });

  it('a token without vms:read_write: e says what is missing, and a change in the menu is marked and refused while a view opens', async () => {
    const r = app(svc, { token: readOnlyToken });
    await jump(r, 'instances', label);
    await wait(r, () => r.ctx.session.getState().scopes !== null);
    await select(r, label);
    const refused = await press(r, 'e', `Cannot edit ${label}: needs vms:read_write`);
    expect(refused).not.toContain(`Edit ${label}`);
    const menu = await press(r, 'a', `Actions: ${label}`);
    expect(menu).toMatch(/c Clone…\s+\(needs vms:read_write\)/);
    // A view needs only vms:read_only: not marked.
    expect(menu).toMatch(/D Disks →\s*│/);
    const still = await press(r, 'c', 'Clone…: needs vms:read_write');
    expect(still).toContain(`Actions: ${label}`);
    expect(still).not.toContain(`Clone…: ${label}\n`);
    await press(r, 'D', new RegExp(`${label} › disks\\n[\\s\\S]*\\d+ items?`));
  });

  it('a public script of the provider does not open an edit form; the account’s own scripts still do', async () => {
    const r = app(svc);
    await jump(r, 'scripts', /\d+ items/);
    await wait(r, () => r.ctx.session.getState().user !== undefined);
    await select(r, 'nginx-web-server');
    const refused = await press(r, 'e', 'nginx-web-server is a public script by vm: only its author can change it');
    expect(refused).not.toContain('Edit nginx-web-server');
    await press(r, ESC, (f) => !f.includes('/nginx') && /\d+ items/.test(f));
    await select(r, 'team-bootstrap');
    await press(r, 'e', 'Edit team-bootstrap');
  });
});
