import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, ENTER } from '../../helpers/ink.js';
import { app, jump, press, select, type App } from './harness.js';

const SPACE = ' ';
const APP_LOGS = '/object-storage/buckets/ap-south-1/logs-2026/object-list?prefix=app/&delimiter=/';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

/** The names in logs-2026's app/ folder, as the service lists them (every page). */
async function appLogs(): Promise<string[]> {
  const names: string[] = [];
  let marker = '';
  for (;;) {
    const res = await call(svc, 'GET', `${APP_LOGS}${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`);
    expect(res.status).toBe(200);
    const page = res.body.data as { name: string; is_truncated: boolean; next_marker: string | null }[];
    names.push(...page.map((e) => e.name));
    const last = page.at(-1);
    if (!last?.is_truncated) return names;
    marker = last.next_marker ?? last.name;
  }
}

/** logs-2026 opened at its top folder (app/ and nginx/). */
async function openLogs(opts: Parameters<typeof app>[1] = {}): Promise<App> {
  const r = app(svc, opts);
  await jump(r, 'buckets', /\d items/);
  await select(r, 'logs-2026');
  await press(r, ENTER, /ap-south-1\/logs-2026\/\s+2 items/);
  return r;
}

describe('marks in the object browser', { timeout: 60_000 }, () => {
  it('folders take no mark; three objects marked are deleted at once after the typed count, and are gone from the service', async () => {
    const r = await openLogs();
    const refused = await press(r, SPACE, /app\/ is a folder: only objects are marked/);
    expect(refused).not.toMatch(/\d marked/);
    await press(r, ENTER, /logs-2026\/app\/\s+75 items/);
    await press(r, SPACE, '1 marked');
    await press(r, SPACE, '2 marked');
    const three = await press(r, SPACE, '3 marked');
    expect(three).toMatch(/● 2026-09-01\.log/);
    expect(await appLogs()).toContain('app/2026-09-03.log');
    const confirm = await press(r, CTRL_D, 'Type 3 to confirm');
    for (const day of ['01', '02', '03']) expect(confirm).toContain(`• 2026-09-${day}.log`);
    await press(r, `3${ENTER}`, 'Delete: 3 of 3 succeeded');
    const after = await press(r, '', /logs-2026\/app\/\s+72 items/);
    expect(after).not.toMatch(/\d marked/);
    const left = await appLogs();
    expect(left).toHaveLength(72);
    for (const day of ['01', '02', '03']) expect(left).not.toContain(`app/2026-09-${day}.log`);
    expect(left).toContain('app/2026-09-04.log');
  });

  it('a delete the service refuses leaves its object marked with the reason; the other goes', async () => {
    const rule = await call(svc, 'POST', '/__control/faults', { body: { method: 'DELETE', path: '/__objects/*2026-09-11.log*', action: 'error', status: 503, reason: 'disk under repair' } });
    expect(rule.status).toBe(200);
    try {
      const r = await openLogs();
      await press(r, ENTER, /logs-2026\/app\/\s+\d+ items/);
      // Down from the first object (the first test deleted the 1st to the 3rd) to the 10th.
      for (let day = 5; day <= 10; day++) await press(r, 'j', new RegExp(`^› 2026-09-${String(day).padStart(2, '0')}\\.log`, 'm'));
      await press(r, SPACE, '1 marked');
      await press(r, SPACE, '2 marked');
      await press(r, CTRL_D, 'Type 2 to confirm');
      await press(r, `2${ENTER}`, /Delete: 1 of 2 succeeded, 1 failed \(2026-09-11\.log: HTTP 503: disk under repair\)/);
      const frame = await press(r, '', (f) => f.includes('Not done') && f.includes('1 marked') && !f.includes('2026-09-10.log'));
      expect(frame).toMatch(/● 2026-09-11\.log .*HTTP 503: disk under repair/);
      const left = await appLogs();
      expect(left).not.toContain('app/2026-09-10.log');
      expect(left).toContain('app/2026-09-11.log');
    } finally {
      await call(svc, 'DELETE', `/__control/faults/${rule.body.id}`);
    }
  });

  it('Ctrl-S writes the objects shown, or only the marked ones, as CSV and JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-objexport-'));
    const r = await openLogs({ session: { exportDir: dir } });
    await press(r, ENTER, /logs-2026\/app\/\s+\d+ items/);
    const shown = (await appLogs()).length;
    await press(r, CTRL_S, `Exported ${shown} items to`);
    await press(r, 'j', /› 2026-09-\d\d\.log/);
    await press(r, SPACE, '1 marked');
    await press(r, CTRL_S, 'Exported 1 item to');
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(4);
    const csvs = files.filter((f) => f.endsWith('.csv')).map((f) => readFileSync(join(dir, f), 'utf8').split('\r\n'));
    for (const f of files) expect(f).toMatch(/^objects-logs-2026-\d{8}-\d{6}(-2)?\.(csv|json)$/);
    const [all, one] = csvs.sort((a, b) => b.length - a.length);
    expect(all![0]).toBe('Name,Size,Last modified,ETag');
    expect(all).toHaveLength(shown + 2);
    expect(one).toHaveLength(3);
    const [allJson, oneJson] = files
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name: string; etag: string }[])
      .sort((a, b) => b.length - a.length);
    expect(allJson).toHaveLength(shown);
    // The marked object, its record as the service listed it.
    expect(oneJson).toHaveLength(1);
    expect(oneJson![0]!.name).toBe(`app/${one![1]!.split(',')[0]}`);
    expect(oneJson![0]!.etag).toMatch(/^[0-9a-f]{20,}/);
  });
});
