import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('images', () => {
  it('lists public and private images with kind, size and end of life', async () => {
    const r = app(svc);
    const frame = await jump(r, 'images', '10 items');
    expect(frame).toMatch(/ID\s+Label\s+Kind\s+Vendor\s+Size\s+By\s+EOL/);
    expect(frame).toMatch(/vm\/debian12\s+Debian 12\s+public\s+Debian\s+1\.3 GB\s+vm/);
    expect(frame).toMatch(/private\/1\s+golden-web-2026-10\s+private\s+\S*\s*79\.5 GB\s+demo-owner/);
  });

  it('creates an image from a disk chosen by instance, then deletes it only after its label is typed', async () => {
    const r = app(svc);
    await jump(r, 'images', '10 items');
    await press(r, 'c', 'New image from a disk');
    await wait(r, /Disk \*\s+— choose \(Enter\) —/);
    await press(r, ENTER, 'Disk: choose');
    const picker = await wait(r, /web-1 › /);
    expect(picker).not.toMatch(/Swap/i);
    // The first disk listed is web-1's root disk.
    await press(r, ENTER, /Disk \*\s+◂ web-1 › /);
    await press(r, TAB, /› Label/);
    await press(r, 'bad/label', /✗ .*letters, digits, spaces/);
    r.stdin.write('\x15');
    await press(r, 'golden web 3', /› Label\s+golden web 3\s*$/m);
    await press(r, CTRL_S, /Capturing golden web 3 as private\/\d+/);
    await wait(r, '11 items');

    await select(r, 'golden web 3');
    await press(r, CTRL_D, 'Delete golden web 3');
    const dialog = await wait(r, 'Type golden web 3 to confirm');
    expect(dialog).toMatch(/Delete the private image golden web 3/);
    // Enter alone stays on Cancel: nothing happens.
    r.stdin.write(ENTER);
    await gone(r, 'Type golden web 3 to confirm');
    await press(r, CTRL_D, 'Type golden web 3 to confirm');
    await press(r, 'golden web', 'golden web');
    await press(r, ENTER, /Type golden web 3 exactly/);
    await press(r, ' 3', /golden web 3/);
    await press(r, ENTER, /Delete golden web 3: done|0 of 10|Nothing matches/);
    const images = (await call(svc, 'GET', '/images')).body.data as { label: string }[];
    expect(images.map((i) => i.label)).not.toContain('golden web 3');
  });

  it('refuses to edit or delete a public image, and edits a private one', async () => {
    const r = app(svc);
    await jump(r, 'images', '10 items');
    await select(r, 'Debian 12');
    await press(r, 'e', /Public images cannot be changed or deleted/);
    await press(r, ESC, /10 items/);
    await select(r, 'db-base');
    await press(r, 'e', 'Edit db-base');
    await press(r, TAB, /› Description/);
    r.stdin.write('\x15');
    await press(r, 'PostgreSQL 16, no data', /PostgreSQL 16, no data/);
    await press(r, CTRL_S, /Saved db-base/);
    const image = (await call(svc, 'GET', '/images/private%2F2')).body;
    expect(image.description).toBe('PostgreSQL 16, no data');
  });

  it('shows the service refusing a fourth private image beside the form', async () => {
    await call(svc, 'POST', '/images', { body: { disk_id: (await call(svc, 'GET', '/vm/instances/41003/disks')).body.data[0].id, label: 'third' } });
    const r = app(svc);
    await jump(r, 'images', '11 items');
    await press(r, 'c', 'New image from a disk');
    await wait(r, /Disk \*\s+— choose \(Enter\) —/);
    await press(r, ENTER, 'Disk: choose');
    await press(r, ENTER, /Disk \*\s+◂ web-1 › /);
    await press(r, CTRL_S, /already has 3 private images/);
  });
});
