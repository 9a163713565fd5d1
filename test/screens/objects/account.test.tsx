import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { ENTER, ESC } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('clusters', () => {
  it('lists clusters, shows one, and lists the buckets in it', async () => {
    const r = app(svc);
    const frame = await jump(r, 'clusters', '3 items');
    expect(frame).toMatch(/us-east-1\s+us-east\s+available\s+us-east-1\.\S+/);
    await select(r, 'eu-central-1');
    await press(r, 'd', /domain\s+eu-central-1\.objects/);
    r.stdin.write(ESC);
    await gone(r, 'Endpoints');
    const buckets = await press(r, ENTER, /home › clusters › eu-central-1 › buckets/);
    await wait(r, '1 item');
    expect(r.lastFrame()).toMatch(/backups-db\s+eu-central-1/);
    expect(buckets).toBeTruthy();
  });
});

describe('object storage as a whole', () => {
  it('shows the transfer used and totals', async () => {
    const r = app(svc);
    const frame = await jump(r, 'transfer', '1 item');
    expect(frame).toMatch(/12\.1 GB\s+4\s+174\s+[\d.]+ KB\s+2/);
    const detail = await press(r, 'd', 'Outbound transfer this month');
    expect(detail).toMatch(/used_text\s+12\.1 GB \(12956600198 bytes\)/);
    expect(detail).toMatch(/logs-2026 \(ap-south-1\): 105 objects/);
  });

  it('cancels only after "object-storage" is typed, and the service refuses while buckets hold objects', async () => {
    const r = app(svc);
    await jump(r, 'transfer', '1 item');
    await press(r, 'a', 'Actions: object-storage');
    const dialog = await press(r, 'C', 'Type object-storage to confirm');
    expect(dialog).toMatch(/Not possible yet: every bucket must be empty first, and 3 still hold/);
    await press(r, 'object-storage', /object-storage/);
    await press(r, ENTER, /failed: .*All buckets must be empty/);
    expect((await call(svc, 'GET', '/object-storage/buckets')).body.results).toBe(4);

    for (const [cluster, bucket] of [['us-east-1', 'assets-prod'], ['eu-central-1', 'backups-db'], ['ap-south-1', 'logs-2026']]) {
      await call(svc, 'DELETE', `/object-storage/buckets/${cluster}/${bucket}?force=true`);
    }
    await press(r, 'r', /\s1\s+0\s+0 B\s+2/);
    await press(r, 'a', 'Actions: object-storage');
    const ready = await press(r, 'C', 'Type object-storage to confirm');
    expect(ready).not.toContain('Not possible yet');
    // Typing the name moves the focus to the button that cancels object storage.
    await press(r, 'object-storage', /object-storage/);
    await press(r, ENTER, /Object storage cancelled: buckets and access keys deleted/);
    expect((await call(svc, 'GET', '/object-storage/buckets')).body.results).toBe(0);
    expect((await call(svc, 'GET', '/object-storage/keys')).body.results).toBe(0);
  });
});
