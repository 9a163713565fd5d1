import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, openPart, press, select, wait, SLOW_TEST_MS } from './helpers.js';

const RIGHT = '\x1b[C';

let svc: RunningService;
let vmId: number;

const disks = async () => (await call(svc, 'GET', `/vm/instances/${vmId}/disks`)).body.data as { id: number; label: string; size: number; filesystem: string }[];

beforeAll(async () => {
  svc = await startTestService();
  // Empty (no image): all 50 GB of the plan's disk are free.
  const res = await call(svc, 'POST', '/vm/instances', { body: { label: 'scratch', region: 'us-east', type: 'g6-standard-1' } });
  vmId = res.body.id;
});
afterAll(() => svc.close());

describe('an instance’s disks', { timeout: SLOW_TEST_MS }, () => {
  it('creates a disk; a size beyond the free space gets the service’s reason beside Size', async () => {
    const r = app(svc);
    await openPart(r, 'scratch', 'disks');
    await wait(r, 'No disks. Press c to create one');
    await press(r, 'c', /New disk[\s\S]*Filesystem\s+◂ ext4/);
    await press(r, 'data', /Label \*\s+data/);
    await press(r, TAB, /› Size \(MB\) \*/);
    await press(r, '99999', /Size \(MB\) \*\s+99999/);
    const refused = await press(r, CTRL_S, /› Size \(MB\) \*\s+99999\s+✗ Not enough storage/);
    expect(refused).toMatch(/^Not enough storage: 99999 MB asked, 51200 MB of the plan's disk is free$/m);
    expect(await disks()).toHaveLength(0);
    await press(r, '\x15' + '10240', /Size \(MB\) \*\s+10240\s*$/m);
    await press(r, CTRL_S, 'Creating disk data (10 GB)');
    await wait(r, /data\s+10 GB\s+ext4\s+(not ready|ready)/);
    expect(await disks()).toMatchObject([{ label: 'data', size: 10240, filesystem: 'ext4' }]);
  });

  it('checks the disk label as it is typed', async () => {
    const r = app(svc);
    await openPart(r, 'scratch', 'disks');
    await press(r, 'c', 'New disk');
    await press(r, 'x'.repeat(49), /Label \*\s+x+\s+✗ must be 1\.\.48 characters/);
    await press(r, ESC, 'Discard changes?');
  });

  it('edits a disk label and filesystem', async () => {
    const r = app(svc);
    await openPart(r, 'scratch', 'disks');
    await select(r, 'data');
    await press(r, 'e', /Edit data[\s\S]*Filesystem\s+◂ ext4/);
    await press(r, '-vol', /Label\s+data-vol/);
    await press(r, TAB, /› Filesystem/);
    await press(r, RIGHT + RIGHT, /› Filesystem\s+◂ raw/);
    await press(r, CTRL_S, 'Saved data');
    await wait(r, /data-vol\s+10 GB\s+raw/);
    expect((await disks())[0]).toMatchObject({ label: 'data-vol', filesystem: 'raw' });
  });

  it('clones a disk after saying what it takes', async () => {
    const r = app(svc);
    await openPart(r, 'scratch', 'disks');
    await select(r, 'data-vol');
    await press(r, 'a', /Actions: data-vol[\s\S]*c Clone disk/);
    await press(r, 'c', /copied byte for byte[\s\S]*needs 10 GB of free space/);
    await press(r, TAB, /\[ Clone disk \]/);
    await press(r, ENTER, 'Cloning data-vol into data-vol (copy)');
    await wait(r, /data-vol \(copy\)\s+10 GB/);
    expect((await disks()).map((d) => d.label).sort()).toEqual(['data-vol', 'data-vol (copy)']);
  });

  it('deletes a disk after a confirm; Cancel (the default) keeps it', async () => {
    const r = app(svc);
    await openPart(r, 'scratch', 'disks');
    await select(r, 'copy');
    await press(r, CTRL_D, /Delete disk data-vol \(copy\) \(10 GB\)\?/);
    await press(r, ENTER, (f) => !f.includes('Delete disk'));
    expect(await disks()).toHaveLength(2);
    await press(r, CTRL_D, 'Delete disk data-vol (copy)');
    await press(r, TAB, /\[ Delete \]/);
    await press(r, ENTER, 'Delete data-vol (copy): done');
    expect((await disks()).map((d) => d.label)).toEqual(['data-vol']);
  });
});
