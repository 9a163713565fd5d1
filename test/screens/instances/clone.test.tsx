import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, jump, press, select, wait, type App, SLOW_TEST_MS } from './helpers.js';

const RIGHT = '\x1b[C';

let svc: RunningService;
const ids: Record<string, number> = {};

const disksOf = async (label: string) => (await call(svc, 'GET', `/vm/instances/${ids[label]}/disks`)).body.data as { label: string }[];

beforeAll(async () => {
  svc = await startTestService();
  ids.origin = (
    await call(svc, 'POST', '/vm/instances', {
      body: { label: 'origin', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' },
    })
  ).body.id;
  ids.big = (await call(svc, 'POST', '/vm/instances', { body: { label: 'big', region: 'us-east', type: 'g6-standard-4' } })).body.id;
  // Made by hand: a config on one disk, and a disk no config uses.
  ids.parts = (await call(svc, 'POST', '/vm/instances', { body: { label: 'parts', region: 'us-east', type: 'g6-standard-1' } })).body.id;
  const system = (await call(svc, 'POST', `/vm/instances/${ids.parts}/disks`, { body: { label: 'system', size: 2048 } })).body.id;
  await call(svc, 'POST', `/vm/instances/${ids.parts}/disks`, { body: { label: 'data', size: 1024 } });
  await call(svc, 'POST', `/vm/instances/${ids.parts}/configs`, { body: { label: 'boot', devices: { sda: { disk_id: system } } } });
});
afterAll(() => svc.close());

/** The clone form of an instance, its region, type and target choices loaded. */
async function cloneForm(r: App, source = 'origin') {
  await jump(r, 'instances', source);
  await select(r, source);
  await press(r, 'a', `Actions: ${source}`);
  return press(r, 'c', /Clone…: \w+[\s\S]*Region\s+— choose[\s\S]*Type\s+— choose[\s\S]*Existing target\s+◂ none: clone into a new instance ▸ 1\/\d/);
}

describe('clone', { timeout: SLOW_TEST_MS }, () => {
  it('says a new instance needs a region and type (the model’s rule); an existing target needs neither', async () => {
    const r = app(svc);
    await cloneForm(r);
    await wait(r, /› Region\s+— choose \(Enter\) —\s+✗ is required when cloning into a new instance/);
    expect(r.lastFrame()).toMatch(/Type\s+— choose \(Enter\) —\s+✗ is required when cloning into a new instance/);
    expect(r.lastFrame()).toMatch(/^Region is required when cloning into a new instance$/m);
    for (const title of ['Type', 'Label', 'Enable backups', 'Existing target']) await press(r, TAB, new RegExp(`› ${title}`));
    await press(r, RIGHT, (f) => /› Existing target\s+◂ big/.test(f) && !f.includes('is required'));
    await press(r, ESC, 'Discard changes?');
    expect(await disksOf('big')).toHaveLength(0);
  });

  it('clones into a new instance that shows up in the list', async () => {
    const r = app(svc);
    await cloneForm(r);
    await press(r, RIGHT, /› Region\s+◂ us-east/);
    await press(r, TAB, /› Type/);
    await press(r, RIGHT, /› Type\s+◂ g6-nanode-1/);
    await press(r, TAB, /› Label/);
    await press(r, 'copy-1', /Label\s+copy-1/);
    // A new instance is billed: the confirm says how much, at the API's price of a nanode.
    await press(r, CTRL_S, /Clone origin into a new instance\?[\s\S]*This adds \$5\.00\/month, \$0\.007\/hour\./);
    await press(r, RIGHT, /Proceed/);
    await press(r, ENTER, /Cloning origin into copy-1 \(\d+\)/);
    await press(r, ESC, /^. copy-1\s+(provisioning|offline)\s+us-east\s+g6-nanode-1/m);
    const made = ((await call(svc, 'GET', '/vm/instances')).body.data as { id: number; label: string }[]).find((vm) => vm.label === 'copy-1')!;
    ids['copy-1'] = made.id;
    expect((await disksOf('copy-1')).map((d) => d.label).sort()).toEqual(['512 MB Swap Image', 'Debian 12 Disk']);
  });

  it('clones into an existing instance: every config with its disks, plus the extra disks picked', async () => {
    const r = app(svc);
    await cloneForm(r, 'parts');
    for (const title of ['Type', 'Label', 'Enable backups', 'Existing target']) await press(r, TAB, new RegExp(`› ${title}`));
    await press(r, RIGHT + RIGHT, new RegExp(`› Existing target\\s+◂ big \\(${ids.big}\\)`));
    await press(r, TAB, /› Configs/);
    await press(r, TAB, /› Extra disks/);
    await press(r, ENTER, /Extra disks: Enter toggles, Esc done[\s\S]*\[ \] system[\s\S]*\[ \] data/);
    await press(r, 'j', /› \[ \] data/);
    await press(r, ENTER, '[x] data');
    await press(r, ESC, /› Extra disks\s+\d+/);
    await press(r, TAB, /Extra disks\s+data \(\d+\) · 1 GB ext4/);
    await press(r, CTRL_S, `Cloning parts into big (${ids.big})`);
    expect((await disksOf('big')).map((d) => d.label).sort()).toEqual(['data', 'system']);
  });

  it('[] in Configs clones no configs: only the extra disks picked', async () => {
    const r = app(svc);
    await cloneForm(r, 'parts');
    await press(r, RIGHT, /› Region\s+◂ us-east/);
    await press(r, TAB, /› Type/);
    await press(r, RIGHT, /› Type\s+◂ g6-nanode-1/);
    await press(r, TAB, /› Label/);
    await press(r, 'bare-copy', /Label\s+bare-copy/);
    for (const title of ['Enable backups', 'Existing target', 'Configs']) await press(r, TAB, new RegExp(`› ${title}`));
    await press(r, '[]', /› Configs\s+\[\]/);
    await press(r, TAB, /› Extra disks/);
    await press(r, ENTER, /Extra disks: Enter toggles, Esc done/);
    await press(r, 'j', /› \[ \] data/);
    await press(r, ENTER, '[x] data');
    await press(r, ESC, /› Extra disks/);
    await press(r, CTRL_S, /This adds \$5\.00\/month/);
    await press(r, RIGHT, /Proceed/);
    await press(r, ENTER, /Cloning parts into bare-copy \(\d+\)/);
    const made = ((await call(svc, 'GET', '/vm/instances')).body.data as { id: number; label: string }[]).find((vm) => vm.label === 'bare-copy')!;
    ids['bare-copy'] = made.id;
    expect((await disksOf('bare-copy')).map((d) => d.label)).toEqual(['data']);
    expect((await call(svc, 'GET', `/vm/instances/${made.id}/configs`)).body.results).toBe(0);
  });
});
