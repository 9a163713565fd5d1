import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, openPart, press, select, wait, SLOW_TEST_MS } from './helpers.js';

const RIGHT = '\x1b[C';

let svc: RunningService;
const ids: Record<string, number> = {};

const diskIds = async (label: string) => ((await call(svc, 'GET', `/vm/instances/${ids[label]}/disks`)).body.data as { id: number }[]).map((d) => d.id);

beforeAll(async () => {
  svc = await startTestService();
  const box = await call(svc, 'POST', '/vm/instances', {
    body: { label: 'box', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42', backups_enabled: true },
  });
  ids.box = box.body.id;
  ids.target = (await call(svc, 'POST', '/vm/instances', { body: { label: 'target', region: 'us-east', type: 'g6-standard-4' } })).body.id;
  expect((await call(svc, 'POST', `/vm/instances/${ids.box}/backups`, { body: { label: 'first-snap' } })).status).toBe(200);
});
afterAll(() => svc.close());

describe('an instance’s backups', { timeout: SLOW_TEST_MS }, () => {
  it('lists automatic backups and the snapshot with kind and contents; the detail comes from the backup itself', async () => {
    const r = app(svc);
    const list = await openPart(r, 'box', 'backups');
    // Enabling backups at create made a first automatic one.
    expect(list).toMatch(/automatic\s+successful\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+Debian 12 Disk 24\.5 GB/);
    expect(list).toMatch(/snapshot\s+successful\s+first-snap\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+Debian 12 Disk 24\.5 GB/);
    await select(r, 'first-snap');
    const detail = await press(r, 'd', 'Contents');
    expect(detail).toMatch(/type\s+snapshot/);
    expect(detail).toMatch(/configs\s+My Debian 12 Disk Profile/);
    expect(detail).toMatch(/disks\.0\.label\s+Debian 12 Disk/);
    expect(detail).toMatch(/label\s+first-snap/);
    await press(r, ESC, /› snapshot/);
  });

  it('takes a new snapshot with c, which replaces the current one', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'backups');
    await press(r, 'c', 'Take a snapshot');
    await press(r, 'pre-upgrade', /Label \*\s+pre-upgrade/);
    await press(r, CTRL_S, 'Taking snapshot pre-upgrade');
    await wait(r, /snapshot…?\s+\w+\s+pre-upgrade/);
    await wait(r, (f) => !f.includes('first-snap'));
  });

  it('restores onto another instance picked from the list', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'backups');
    await select(r, 'pre-upgrade');
    await press(r, 'a', /Actions: pre-upgrade[\s\S]*r Restore…/);
    await press(r, 'r', new RegExp(`Restore…: pre-upgrade[\\s\\S]*Target instance \\*\\s+◂ box \\(${ids.box}\\)[\\s\\S]*Overwrite\\s+\\[ \\] no`));
    await press(r, RIGHT, new RegExp(`Target instance \\*\\s+◂ target \\(${ids.target}\\)`));
    await press(r, CTRL_S, 'Restoring pre-upgrade');
    expect(await diskIds('target')).toHaveLength(2);
  });

  it('shows the insufficient-space error beside Overwrite when the target is full', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'backups');
    await select(r, 'pre-upgrade');
    await press(r, 'a', 'Actions: pre-upgrade');
    await press(r, 'r', /Target instance \*\s+◂ box/);
    await press(r, CTRL_S, /Overwrite\s+\[ \] no\s+✗ Insufficient space: the backup needs 25600 MB/);
  });

  it('asks again before an overwrite (Cancel keeps the form), then replaces the target’s disks', async () => {
    const before = await diskIds('box');
    const r = app(svc);
    await openPart(r, 'box', 'backups');
    await select(r, 'pre-upgrade');
    await press(r, 'a', 'Actions: pre-upgrade');
    await press(r, 'r', /Target instance \*\s+◂ box/);
    await press(r, TAB, /› Overwrite/);
    await press(r, ' ', /› Overwrite\s+\[x\] yes/);
    await press(r, CTRL_S, new RegExp(`Overwrite deletes ALL disks and configs of instance ${ids.box}`));
    await press(r, ENTER, /› Overwrite\s+\[x\] yes/);
    expect(await diskIds('box')).toEqual(before);

    await press(r, CTRL_S, 'Overwrite deletes ALL disks');
    await press(r, TAB, /\[ Proceed \]/);
    await press(r, ENTER, 'Restoring pre-upgrade');
    const after = await diskIds('box');
    expect(after).toHaveLength(2);
    expect(after.some((id) => before.includes(id))).toBe(false);
  });
});
