import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { startTestService } from '../../helpers/service.js';
import { ENTER, ESC } from '../../helpers/ink.js';
import { app, jump, press, select, wait } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('buckets and the object browser', () => {
  it('lists the buckets with counts and human sizes', async () => {
    const r = app(svc);
    const frame = await jump(r, 'buckets', '4 items');
    expect(frame).toMatch(/Bucket\s+Cluster\s+Hostname\s+Objects\s+Size\s+Created/);
    expect(frame).toMatch(/logs-2026\s+ap-south-1\s+logs-2026\.\S+\s+105\s+[\d.]+ KB\s+2026-01-01/);
    expect(frame).toMatch(/scratch\s+us-east-1\s+\S+\s+0\s+0 B/);
  });

  it('descends into folders, pages by marker past 100 entries, and Esc goes back up', async () => {
    const r = app(svc);
    await jump(r, 'buckets', '4 items');
    await select(r, 'logs-2026');
    const root = await press(r, ENTER, /ap-south-1\/logs-2026\/\s+2 items/);
    expect(root).toMatch(/› app\/\s+folder/);
    expect(root).toMatch(/nginx\/\s+folder/);
    const app1 = await press(r, ENTER, /logs-2026\/app\/\s+75 items/);
    expect(app1).toMatch(/› 2026-09-01\.log\s+\d+ B\s+2026-09-01 23:00\s+[0-9a-f]{20}/);
    expect(app1).toContain('home › buckets › logs-2026 › objects › app/ › objects');
    await press(r, ESC, /logs-2026\/\s+2 items/);
    await press(r, ESC, /home › buckets$/m);
  });

  it('lists every name without folders: the first 100, then the next page by marker at the end', async () => {
    const r = app(svc);
    await jump(r, 'buckets', '4 items');
    await select(r, 'logs-2026');
    await press(r, 'a', 'Actions: logs-2026');
    const first = await press(r, 'o', /logs-2026\/ \(all names, no folders\)\s+100 items · more on the server \(m\)/);
    expect(first).toMatch(/› app\/2026-09-01\.log/);
    // The end of what is loaded is the "… more" line: reaching it fetches the next page.
    await press(r, 'G', /105 items/);
    // The selection stays where the "… more" line was: on the first entry of the new page.
    const next = await wait(r, /› nginx\/access-2026-11-23\.log/);
    expect(next).not.toContain('more on the server');
    await press(r, 'G', /› nginx\/access-2026-12-21\.log/);
    await press(r, 'g', /› app\/2026-09-01\.log/);
  });

  it('m loads the next page too, and the pages stay when coming back from a folder', async () => {
    const r = app(svc);
    await jump(r, 'buckets', '4 items');
    await select(r, 'logs-2026');
    await press(r, 'a', 'Actions: logs-2026');
    await press(r, 'o', /100 items · more on the server \(m\)/);
    await press(r, 'm', /105 items/);
    await press(r, ESC, /home › buckets$/m);
  });
});
