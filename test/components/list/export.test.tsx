import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ENTER, jumpTo, press, renderApp } from '../../helpers/ink.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
  for (const [label, tags] of [
    ['web-1', ['prod']],
    ['web-2', ['=cmd|calc']],
    ['db-1', []],
  ] as const) {
    const res = await call(svc, 'POST', '/vm/instances', { body: { label, region: 'us-east', type: 'g6-nanode-1', tags } });
    expect(res.status).toBe(200);
  }
});
afterAll(() => svc.close());

const files = (dir: string) => readdirSync(dir).sort();

describe('Ctrl-S in a list', { timeout: 60_000 }, () => {
  it('writes the rows as shown, filtered and sorted, as CSV and JSON, and says where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-export-'));
    const r = renderApp({ svc, rows: 24, cols: 110, session: { exportDir: dir } });
    await jumpTo(r, 'instances', /^› web-1/m);
    await press(r, '/', /Enter keep/);
    await press(r, 'web', /2 of 3/);
    await press(r, ENTER, /Enter open/);
    await press(r, 'L', /Label ▲/).then(() => press(r, 'L', /Label ▼/));
    const frame = await press(r, CTRL_S, /Exported 2 items to/);
    const [csv, json] = files(dir);
    expect(csv).toMatch(/^instances-\d{8}-\d{6}\.csv$/);
    expect(json).toBe(csv!.replace(/csv$/, 'json'));
    expect(frame.replace(/\n/g, '')).toContain(join(dir, csv!).slice(0, 40));
    const lines = readFileSync(join(dir, csv!), 'utf8').split('\r\n');
    expect(lines[0]).toBe('Label,Status,Region,Type,IPv4,Tags,Created');
    expect(lines[1]).toMatch(/^web-2,offline,us-east,g6-nanode-1,45\.79\.0\.\d+,'=cmd\|calc,\d{4}-\d\d-\d\d$/);
    expect(lines[2]).toMatch(/^web-1,offline,/);
    expect(lines).toHaveLength(4);
    const records = JSON.parse(readFileSync(join(dir, json!), 'utf8'));
    expect(records.map((x: { label: string }) => x.label)).toEqual(['web-2', 'web-1']);
    // The records whole, as the API sent them.
    expect(records[0]).toMatchObject({ tags: ['=cmd|calc'], specs: { vcpus: 1 }, backups: { enabled: false } });
  });

  it('with marks, only the marked rows; a second export in the same second gets its own files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-export-'));
    const r = renderApp({ svc, rows: 24, cols: 110, session: { exportDir: dir } });
    await jumpTo(r, 'instances', /^› web-1/m);
    await press(r, 'j', /^› web-2/m);
    await press(r, ' ', /1 marked/);
    await press(r, CTRL_S, /Exported 1 item to/);
    await press(r, CTRL_S, (f) => files(dir).length === 4 && f.includes('Exported 1 item'));
    const csvs = files(dir).filter((f) => f.endsWith('.csv'));
    for (const csv of csvs) expect(readFileSync(join(dir, csv), 'utf8').split('\r\n').slice(1, -1).map((l) => l.split(',')[0])).toEqual(['web-2']);
  });

  it('an export folder that has gone is an error in the message line', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vmtui-export-')), 'gone');
    const r = renderApp({ svc, rows: 24, cols: 110, session: { exportDir: dir } });
    await jumpTo(r, 'instances', /^› web-1/m);
    await press(r, CTRL_S, `Cannot export: the folder ${dir} does not exist`);
  });
});
