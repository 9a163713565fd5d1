import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { BACKSPACE, CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, jump, press, select, wait, SLOW_TEST_MS } from './helpers.js';

const RIGHT = '\x1b[C';

let svc: RunningService;
const ids: Record<string, number> = {};

/** A deployed instance: at instant speed it is running by the next request. */
async function deployed(label: string) {
  const res = await call(svc, 'POST', '/vm/instances', {
    body: { label, region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' },
  });
  expect(res.status).toBe(200);
  ids[label] = res.body.id;
}

const instance = async (label: string) => (await call(svc, 'GET', `/vm/instances/${ids[label]}`)).body;

beforeAll(async () => {
  svc = await startTestService();
  for (const label of ['alpha', 'bravo', 'charlie']) await deployed(label);
});
afterAll(() => svc.close());

describe('instance lifecycle from the list', { timeout: SLOW_TEST_MS }, () => {
  it('shuts down after a confirm (Cancel first), then boots; the status follows', async () => {
    const r = app(svc);
    await jump(r, 'instances', /alpha\s+running/);
    await select(r, 'alpha');
    await press(r, 'a', 'Actions: alpha');
    await press(r, 's', 'Shut down alpha? Everything running on it stops');
    // Enter on the default button cancels.
    await press(r, ENTER, (f) => !f.includes('Shut down alpha?'));
    expect((await instance('alpha')).status).toBe('running');
    await press(r, 'a', 'Actions: alpha');
    await press(r, 's', 'Shut down alpha?');
    await press(r, RIGHT, /\[ Shut down \]/);
    await press(r, ENTER, 'Shutting down alpha');
    await wait(r, /alpha\s+offline/);
    expect((await instance('alpha')).status).toBe('offline');

    const menu = await press(r, 'a', 'Actions: alpha');
    expect(menu).not.toContain('Shut down');
    await press(r, 'b', 'Booting alpha');
    await wait(r, /alpha\s+running/);
  });

  it('boots into a config chosen from the instance’s own configs', async () => {
    await call(svc, 'POST', `/vm/instances/${ids.bravo}/shutdown`, { body: {} });
    const config = (await call(svc, 'GET', `/vm/instances/${ids.bravo}/configs`)).body.data[0];
    const r = app(svc);
    await jump(r, 'instances', /bravo\s+offline/);
    await select(r, 'bravo');
    await press(r, 'a', 'Actions: bravo');
    await press(r, 'B', /Boot with config…: bravo[\s\S]*Config\s+◂ default \(only or last booted\) ▸ 1\/2/);
    await press(r, RIGHT, new RegExp(`Config\\s+◂ ${config.label} \\(${config.id}\\)`));
    await press(r, CTRL_S, 'Booting bravo');
    await wait(r, /bravo\s+running/);
  });

  it('edits an alert and the backup window', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'charlie');
    await select(r, 'charlie');
    await press(r, 'e', /Edit charlie[\s\S]*Label \*?\s+charlie/);
    for (let i = 0; i < 4; i++) await press(r, DOWN, new RegExp(`› ${['Tags', 'Group', 'Watchdog', 'Alert: CPU %'][i]}`));
    // cpu defaults to 90 per core: a nanode has one.
    await wait(r, /› Alert: CPU %\s+90\s/);
    await press(r, BACKSPACE, /› Alert: CPU %\s+9\s/);
    await press(r, BACKSPACE + '75', /› Alert: CPU %\s+75\s/);
    await press(r, DOWN, /› Alert: disk IO/);
    for (let i = 0; i < 4; i++) await press(r, DOWN, new RegExp(`› ${['Alert: net in', 'Alert: net out', 'Alert: transfer', 'Backup day'][i]}`));
    await press(r, DOWN, /› Backup window\s+— choose/);
    await press(r, RIGHT + RIGHT + RIGHT, /› Backup window\s+◂ W2 ▸/);
    await press(r, CTRL_S, 'Saved charlie');
    const vm = await instance('charlie');
    expect(vm.alerts).toMatchObject({ cpu: 75, io: 10000 });
    expect(vm.backups.schedule).toEqual({ day: null, window: 'W2' });
    expect(vm.label).toBe('charlie');
  });

  it('rejects a bad alert value as it is typed', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'charlie');
    await select(r, 'charlie');
    await press(r, 'e', 'Edit charlie');
    for (const title of ['Tags', 'Group', 'Watchdog', 'Alert: CPU %', 'Alert: disk IO/s', 'Alert: net in Mb/s', 'Alert: net out Mb/s', 'Alert: transfer %']) {
      await press(r, DOWN, new RegExp(`› ${title.replace(/[/%]/g, '.')}`));
    }
    await press(r, '0', /› Alert: transfer %\s+800\s+✗ must be between 0 and 100/);
    await press(r, ESC, 'Discard changes?');
  });

  it('deletes only after the label is typed exactly; a wrong label keeps the instance', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'charlie');
    await select(r, 'charlie');
    await press(r, CTRL_D, /Delete charlie \(\d+\)\? Its disks, configs and backups are deleted[\s\S]*Type charlie to confirm/);
    await press(r, 'charly', /charly/);
    await press(r, ENTER, 'Type charlie exactly to confirm');
    await press(r, ESC, (f) => !f.includes('to confirm'));
    expect((await call(svc, 'GET', `/vm/instances/${ids.charlie}`)).status).toBe(200);

    await press(r, CTRL_D, 'Type charlie to confirm');
    await press(r, 'charlie', /charlie\s*│?\s*\n[\s\S]*\[ Cancel \]/);
    await press(r, ENTER, 'Delete charlie: done');
    await wait(r, (f) => !/^. charlie/m.test(f));
    expect((await call(svc, 'GET', `/vm/instances/${ids.charlie}`)).status).toBe(404);
  });

  it('enables backups after a confirm and cancels them only with the label typed', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'alpha');
    await select(r, 'alpha');
    await press(r, 'a', 'Actions: alpha');
    await press(r, 'e', 'Enable the backup service for alpha?');
    await press(r, TAB, /\[ Enable backups \]/);
    await press(r, ENTER, 'Backups enabled for alpha');
    await wait(r, (f) => !f.includes('Enable the backup'));
    expect((await instance('alpha')).backups.enabled).toBe(true);

    await press(r, 'a', /Actions: alpha[\s\S]*x Cancel backups/);
    await press(r, 'x', /Cancel the backup service of alpha\?[\s\S]*Type alpha to confirm/);
    await press(r, 'alpha', /\[ Cancel \]/);
    await press(r, ENTER, 'Backups cancelled for alpha');
    expect((await instance('alpha')).backups.enabled).toBe(false);
  });

  it('acts on the instance from its overview, by its label, and the overview follows', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'bravo');
    await select(r, 'bravo');
    await press(r, ENTER, /bravo › overview[\s\S]*Backups\s+off/);
    await press(r, DOWN, /› Disks/);
    const menu = await press(r, 'a', 'Actions: bravo');
    expect(menu).toContain('e Enable backups');
    // Enter on a line opens its list already: the menu has no way there.
    expect(menu).not.toContain('Disks →');
    await press(r, 'e', 'Enable the backup service for bravo?');
    await press(r, TAB, /\[ Enable backups \]/);
    await press(r, ENTER, 'Backups enabled for bravo');
    await wait(r, /Backups\s+\d+\s+\w+ W\d+ · \d+ automatic/);
    expect((await instance('bravo')).backups.enabled).toBe(true);

    // A form action: its submit is given the instance too.
    await press(r, 'a', /Actions: bravo[\s\S]*n Take snapshot…/);
    await press(r, 'n', 'Take snapshot…: bravo');
    await press(r, 'from-overview', /Label \*\s+from-overview/);
    await press(r, CTRL_S, 'Taking a snapshot of bravo');
    await wait(r, /Backups\s+\d+\s+.*snapshot from-overview/);

    await press(r, 'a', /Actions: bravo[\s\S]*x Cancel backups/);
    await press(r, 'x', /Cancel the backup service of bravo\?[\s\S]*Type bravo to confirm/);
    await press(r, ESC, (f) => !f.includes('Cancel the backup service'));
    expect((await instance('bravo')).backups.enabled).toBe(true);
  });
});
