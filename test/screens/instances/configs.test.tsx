import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, TAB } from '../../helpers/ink.js';
import { app, openPart, press, select, wait, type App, SLOW_TEST_MS } from './helpers.js';

const RIGHT = '\x1b[C';

let svc: RunningService;
let vmId: number;
let disk: { root: number; swap: number };

interface ConfigBody {
  id: number;
  label: string;
  virt_mode: string;
  devices: Record<string, { disk_id: number | null } | null>;
}
const configs = async () => (await call(svc, 'GET', `/vm/instances/${vmId}/configs`)).body.data as ConfigBody[];
const config = async (label: string) => (await configs()).find((c) => c.label === label);

beforeAll(async () => {
  svc = await startTestService();
  const res = await call(svc, 'POST', '/vm/instances', {
    body: { label: 'box', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' },
  });
  vmId = res.body.id;
  const disks = (await call(svc, 'GET', `/vm/instances/${vmId}/disks`)).body.data as { id: number; filesystem: string }[];
  disk = { root: disks.find((d) => d.filesystem === 'ext4')!.id, swap: disks.find((d) => d.filesystem === 'swap')!.id };
});
afterAll(() => svc.close());

const FIELDS = ['Label', 'Kernel', 'Virtualization', 'Run level', 'Root device', 'Memory limit', 'Comments', 'Device sda', 'Device sdb', 'Device sdc', 'Device sdd', 'Device sde'];

/** Tabs from the focused field `from` down to `to`, one field at a time. */
async function tabTo(r: App, from: string, to: string) {
  for (const title of FIELDS.slice(FIELDS.indexOf(from) + 1, FIELDS.indexOf(to) + 1)) await press(r, TAB, new RegExp(`› ${title}`));
}

/** Tabs to a device slot and waits for its disk choices (none and the instance's two disks). */
async function toSlot(r: App, from: string, slot: string) {
  await tabTo(r, from, `Device ${slot}`);
  return wait(r, new RegExp(`› Device ${slot}\\s+◂ — none — ▸ 1/3`));
}

describe('an instance’s boot configs', { timeout: SLOW_TEST_MS }, () => {
  it('creates a config with each slot a choice of the instance’s disks', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'configs');
    await wait(r, /My Debian 12 Disk Profile\s+vm\/latest-64bit\s+paravirt\s+default\s+\/dev\/sda\s+sda=Debian 12 Disk sdb=512 MB Swap Image/);
    await press(r, 'c', 'New boot config');
    await press(r, 'rescue', /Label \*\s+rescue/);
    await toSlot(r, 'Label', 'sda');
    await press(r, RIGHT, new RegExp(`› Device sda\\s+◂ Debian 12 Disk \\(${disk.root}\\)`));
    await press(r, TAB, /› Device sdb/);
    await press(r, RIGHT + RIGHT, new RegExp(`› Device sdb\\s+◂ 512 MB Swap Image \\(${disk.swap}\\)`));
    await press(r, CTRL_S, /rescue\s+vm\/latest-64bit\s+paravirt\s+default\s+\/dev\/sda\s+sda=Debian 12 Disk sdb=512 MB Swap Image/);
    const made = await config('rescue');
    expect(made?.devices.sda?.disk_id).toBe(disk.root);
    expect(made?.devices.sdb?.disk_id).toBe(disk.swap);
    expect(made?.devices.sdc).toBeNull();
  });

  it('refuses sde..sdh in fullvirt mode, beside the slot, before sending', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'configs');
    await press(r, 'c', 'New boot config');
    await press(r, 'hvm', /Label \*\s+hvm/);
    await tabTo(r, 'Label', 'Virtualization');
    await press(r, RIGHT, /› Virtualization\s+◂ fullvirt/);
    await toSlot(r, 'Virtualization', 'sde');
    await press(r, RIGHT, /› Device sde\s+◂ Debian 12 Disk/);
    await press(r, CTRL_S, /Device sde\s+◂ Debian 12 Disk.*✗ devices\.sde is unavailable in fullvirt mode/);
    expect(await config('hvm')).toBeUndefined();
  });

  it('shows the service’s reason beside memory limit: more than the plan has', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'configs');
    await press(r, 'c', 'New boot config');
    await press(r, 'big', /Label \*\s+big/);
    await tabTo(r, 'Label', 'Memory limit');
    await press(r, '4096', /Memory limit \(MB\)\s+4096/);
    await press(r, CTRL_S, /› Memory limit \(MB\)\s+4096\s+✗ must be at most 1024 \(the plan's memory\)/);
    expect(await config('big')).toBeUndefined();
  });

  it('edits a config: a new label keeps the devices; a slot set to none is emptied', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'configs');
    await select(r, 'rescue');
    await press(r, 'e', /Edit rescue[\s\S]*Device sda\s+◂ Debian 12 Disk/);
    await press(r, '-2', /Label \*\s+rescue-2/);
    await press(r, CTRL_S, /rescue-2\s+.*sda=Debian 12 Disk sdb=512 MB Swap Image/);
    expect((await config('rescue-2'))?.devices.sda?.disk_id).toBe(disk.root);

    await press(r, 'e', /Edit rescue-2/);
    for (let i = 0; i < 8; i++) await press(r, DOWN, new RegExp(`› ${['Kernel', 'Virtualization', 'Run level', 'Root device', 'Memory limit', 'Comments', 'Device sda', 'Device sdb'][i]}`));
    await press(r, RIGHT, /› Device sdb\s+◂ — none —/);
    await press(r, CTRL_S, /rescue-2\s+.*sda=Debian 12 Disk\s*$/m);
    const edited = await config('rescue-2');
    expect(edited?.devices.sda?.disk_id).toBe(disk.root);
    expect(edited?.devices.sdb).toBeNull();
  });

  it('boots the instance with the selected config', async () => {
    await call(svc, 'POST', `/vm/instances/${vmId}/shutdown`, { body: {} });
    const r = app(svc);
    await openPart(r, 'box', 'configs');
    await select(r, 'rescue-2');
    await press(r, 'a', /Actions: rescue-2[\s\S]*b Boot with this config[\s\S]*r Reboot into this config/);
    await press(r, 'b', 'Booting with rescue-2');
    expect((await call(svc, 'GET', `/vm/instances/${vmId}`)).body.status).toMatch(/booting|running/);
  });

  it('deletes a config after a confirm', async () => {
    const r = app(svc);
    await openPart(r, 'box', 'configs');
    await select(r, 'rescue-2');
    await press(r, CTRL_D, /Delete boot config rescue-2\? Its disks stay/);
    await press(r, TAB, /\[ Delete \]/);
    await press(r, ENTER, 'Delete rescue-2: done');
    expect((await configs()).map((c) => c.label)).toEqual(['My Debian 12 Disk Profile']);
  });
});
