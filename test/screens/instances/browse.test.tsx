import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { RESTRICTED_TOKEN, startTestService } from '../../helpers/service.js';
import { ENTER, ESC } from '../../helpers/ink.js';
import { app, jump, press, select, wait, SLOW_TEST_MS } from './helpers.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('instances list and drill-down (demo data)', { timeout: SLOW_TEST_MS }, () => {
  it('lists every instance with status, region, type, public IPv4, tags and created day', async () => {
    const r = app(svc);
    const frame = await jump(r, 'vms', '21 items');
    expect(frame).toMatch(/Label\s+Status\s+Region\s+Type\s+IPv4\s+Tags\s+Created/);
    expect(frame).toMatch(/web-1\s+running\s+us-east\s+g6-standard-2\s+45\.79\.0\.2\s+web, produc\S*\s+2024-02-05/);
    expect(frame).toMatch(/worker-2\s+offline\s+us-central/);
    // The first public address, not the private one listed after it.
    expect(frame).not.toContain('192.168.');
  });

  it('drills into an instance: overview, then disks, configs and backups, and Esc back at each level', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'db-primary');
    await select(r, 'db-primary');
    await press(r, ENTER, /home › instances › db-primary › overview/);
    const overview = await wait(r, /Address\s+private/);
    expect(overview).toMatch(/Instance\s+running\s+db-primary · us-east · g6-dedicated-4/);
    expect(overview).toMatch(/Disks\s+2\s+160 GB of 160 GB used, 0 MB free · Debian 12 Disk 159\.5 GB, 512 MB Swap Image 512 MB/);
    expect(overview).toMatch(/Configs\s+1\s+My Debian 12 Disk Profile: sda=Debian 12 Disk sdb=512 MB Swap Image/);
    expect(overview).toMatch(/Backups\s+4\s+Sunday W2 · 3 automatic · snapshot before-pg16-upgrade/);
    expect(overview).toMatch(/Address\s+public\s+45\.79\.0\.7 · 45-79-0-7\.ip\.vmcloud\.example/);
    expect(overview).toMatch(/Address\s+private\s+192\.168\.128\.7/);
    expect(overview).toMatch(/Address\s+ipv6\s+2600:/);

    await press(r, 'j', /^› Disks/m);
    await press(r, ENTER, /overview › disks/);
    const disks = await wait(r, '2 items');
    expect(disks).toMatch(/Debian 12 Disk\s+159\.5 GB\s+ext4\s+ready/);
    expect(disks).toMatch(/512 MB Swap Image\s+512 MB\s+swap\s+ready/);
    await press(r, ESC, /^› Disks/m);

    await press(r, 'j', /^› Configs/m);
    await press(r, ENTER, /overview › configs/);
    expect(await wait(r, '1 item')).toMatch(/My Debian 12 Disk Profile\s+vm\/latest-64bit\s+paravirt\s+default\s+\/dev\/sda\s+sda=Debian 12 Disk sdb=512 MB Swap Image/);
    await press(r, ESC, /^› Configs/m);

    await press(r, 'j', /^› Backups/m);
    await press(r, ENTER, /overview › backups/);
    const backups = await wait(r, '4 items');
    expect(backups).toMatch(/automatic\s+successful\s+\d{4}-\d\d-\d\d 02:00\s+\d{4}-\d\d-\d\d 02:25\s+Debian 12 Disk 159\.5 GB/);
    expect(backups).toMatch(/snapshot\s+successful\s+before-pg16-upgrade/);
    await press(r, ESC, /^› Backups/m);

    await press(r, ESC, /^home › instances$/m);
    expect(r.lastFrame()).toMatch(/^› db-primary/m);
  });

  it('shows the detail in sections (d) and the raw record (y)', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'web-1');
    const detail = await press(r, 'd', 'Specs');
    expect(detail).toMatch(/^Instance$/m);
    expect(detail).toMatch(/label\s+web-1/);
    expect(detail).toMatch(/ipv4\s+45\.79\.0\.2, 192\.168\.128\.2/);
    expect(detail).toMatch(/^Alerts/m);
    await press(r, ESC, /^home › instances$/m);
    const json = await press(r, 'y', 'web-1 · JSON');
    expect(json).toContain('"label": "web-1"');
    expect(json).toContain('"ipv6": "2600:3c00::');
  });

  it('goes straight to an instance part from its actions menu', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'db-replica');
    await select(r, 'db-replica');
    const menu = await press(r, 'a', 'Actions: db-replica');
    expect(menu).toMatch(/r Reboot[\s\S]*s Shut down[\s\S]*c Clone…[\s\S]*n Take snapshot…[\s\S]*x Cancel backups[\s\S]*D Disks →[\s\S]*C Configs →[\s\S]*K Backups →/);
    // Only what applies: a running instance with backups offers no boot and no enable.
    expect(menu).not.toContain('Boot');
    expect(menu).not.toContain('Enable backups');
    await press(r, 'K', /db-replica › backups/);
    await wait(r, 'before-pg16-upgrade');
    await press(r, ESC, /^home › instances$/m);
  });

  it('marks for a restricted user what its grants do not allow: read-only instances, and creating one', async () => {
    const r = app(svc, { token: RESTRICTED_TOKEN });
    await jump(r, 'instances', 'api-1');
    await wait(r, () => r.ctx.session.getState().grants !== null);
    await press(r, '?', 'Create a new item  (needs the add_vms grant)');
    await press(r, ESC, /› web-1/);
    // web-1 is granted read_write, api-1 read_only.
    expect(await press(r, 'a', 'Actions: web-1')).not.toContain('grant');
    await press(r, ESC, /› web-1/);
    await select(r, 'api-1');
    const menu = await press(r, 'a', 'Actions: api-1');
    expect(menu).toMatch(/r Reboot {2}\(read-only grant\)/);
    // Going to its lists needs no write access: not marked.
    expect(menu).toMatch(/D Disks →\s*│/);
    await press(r, ESC, /› api-1/);
    await press(r, '?', 'Edit the selected item  (read-only grant)');
    await press(r, ESC, /› api-1/);
    // Its own lists belong to it: the same grant applies there.
    await press(r, ENTER, /api-1 › overview[\s\S]*Tag/);
    await press(r, 'a', /Actions: api-1[\s\S]*r Reboot {2}\(read-only grant\)/);
  });
});
