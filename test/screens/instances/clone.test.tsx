import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, jump, press, select, wait, type App } from './helpers.js';

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
});
afterAll(() => svc.close());

/** The clone form of `origin`, its region, type and target choices loaded. */
async function cloneForm(r: App) {
  await jump(r, 'instances', 'origin');
  await select(r, 'origin');
  await press(r, 'a', 'Actions: origin');
  return press(r, 'c', /Clone…: origin[\s\S]*Region\s+— choose[\s\S]*Type\s+— choose[\s\S]*Existing target\s+◂ none: clone into a new instance ▸ 1\/2/);
}

describe('clone', () => {
  it('needs a region and type for a new instance (the model’s rule, before sending)', async () => {
    const r = app(svc);
    await cloneForm(r);
    await press(r, CTRL_S, /› Region\s+— choose \(Enter\) —\s+✗ is required when cloning into a new instance/);
    expect(r.lastFrame()).toMatch(/Type\s+— choose \(Enter\) —\s+✗ is required when cloning into a new instance/);
    expect(r.lastFrame()).toMatch(/^region is required when cloning into a new instance$/m);
    await press(r, ESC, /^home › instances$/m);
  });

  it('clones into a new instance that shows up in the list', async () => {
    const r = app(svc);
    await cloneForm(r);
    await press(r, RIGHT, /› Region\s+◂ us-east/);
    await press(r, TAB, /› Type/);
    await press(r, RIGHT, /› Type\s+◂ g6-nanode-1/);
    await press(r, TAB, /› Label/);
    await press(r, 'copy-1', /Label\s+copy-1/);
    await press(r, CTRL_S, /Cloning origin into copy-1 \(\d+\)/);
    await press(r, ESC, /^. copy-1\s+(provisioning|offline)\s+us-east\s+g6-nanode-1/m);
    const made = ((await call(svc, 'GET', '/vm/instances')).body.data as { id: number; label: string }[]).find((vm) => vm.label === 'copy-1')!;
    ids['copy-1'] = made.id;
    expect((await disksOf('copy-1')).map((d) => d.label).sort()).toEqual(['512 MB Swap Image', 'Debian 12 Disk']);
  });

  it('clones chosen disks into an existing instance', async () => {
    const r = app(svc);
    await cloneForm(r);
    for (const title of ['Type', 'Label', 'Enable backups', 'Existing target']) await press(r, TAB, new RegExp(`› ${title}`));
    await press(r, RIGHT, new RegExp(`› Existing target\\s+◂ big \\(${ids.big}\\)`));
    await press(r, TAB, /› Configs/);
    await press(r, TAB, /› Extra disks/);
    await press(r, ENTER, /Extra disks: Enter toggles, Esc done[\s\S]*\[ \] Debian 12 Disk[\s\S]*\[ \] 512 MB Swap Image/);
    await press(r, ENTER, '[x] Debian 12 Disk');
    await press(r, ESC, /› Extra disks\s+\d+/);
    await press(r, TAB, /Extra disks\s+Debian 12 Disk \(\d+\) · 24\.5 GB ext4/);
    // Configs left empty clones every config (and its disks) too: pick none, as the seed says.
    await press(r, CTRL_S, `Cloning origin into big (${ids.big})`);
    expect((await disksOf('big')).map((d) => d.label).sort()).toEqual(['512 MB Swap Image', 'Debian 12 Disk']);
  });
});
