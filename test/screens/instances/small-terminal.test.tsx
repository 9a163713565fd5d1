import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ESC } from '../../helpers/ink.js';
import { SLOW_TEST_MS, app, jump, press, select, wait } from './helpers.js';

let svc: RunningService;
let label: string;

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  label = (await call(svc, 'GET', '/vm/instances')).body.data[0].label;
});
afterAll(() => svc.close());

const small = () => app(svc, { rows: 24, cols: 80 });

describe('instances at 80×24', { timeout: SLOW_TEST_MS }, () => {
  it('types that share a prefix stay apart, and the footer keeps its most useful keys whole', async () => {
    const r = small();
    const frame = await jump(r, 'instances', /\d+ items/);
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    const types = (await call(svc, 'GET', '/vm/instances')).body.data.map((vm: { type: string }) => vm.type) as string[];
    expect(new Set(types).size).toBeGreaterThan(1);
    // Each row's Type cell: the distinct plans of the rows give distinct cells.
    const header = lines.find((l) => /Label\s+Status/.test(l))!;
    const at = header.indexOf('Type');
    const next = header.indexOf('IPv4');
    const cells = lines.filter((l) => /^[› ] \S/.test(l) && l !== header).map((l) => l.slice(at, next).trim());
    const shownTypes = new Set(cells);
    const rowsTypes = new Set(types.slice(0, cells.length));
    expect(shownTypes.size).toBe(rowsTypes.size);
    const footer = lines.at(-2)!;
    for (const key of ['? help', 'Enter open', 'c create', 'e edit', '^D delete', 'a actions', '/ filter']) expect(footer).toContain(key);
    expect(footer).not.toContain('…');
  });

  it('the create form scrolls with a sign that more fields follow, down to its last field', async () => {
    const r = small();
    await jump(r, 'instances', /\d+ items/);
    const form = await press(r, 'c', 'New instance');
    expect(form.split('\n').length).toBeLessThanOrEqual(23);
    const below = /↓ (\d+) more: (.*)$/m.exec(form);
    expect(below).not.toBeNull();
    const count = Number(below![1]);
    for (let i = 0; i < 40; i++) r.stdin.write('\t');
    const end = await wait(r, /^› \[ Submit \]/m);
    expect(end).toMatch(/↑ \d+ above/);
    expect(end).not.toContain('more:');
    expect(count).toBeGreaterThan(0);
  });

  it('emptying the label is refused; what a change will send (field: old → new) shows before it is sent', async () => {
    const r = small();
    await jump(r, 'instances', /\d+ items/);
    await select(r, label);
    await press(r, 'e', `Edit ${label}`);
    r.stdin.write('\x15');
    await wait(r, (f) => !new RegExp(`Label \\*?\\s+${label}`).test(f));
    await press(r, CTRL_S, /Label must be/);

    // Group is below the first screenful: reached by moving, shown with its neighbours.
    r.stdin.write(`${label}-x`);
    for (let i = 0; i < 2; i++) r.stdin.write('\t');
    await wait(r, /› Group/);
    const review = await wait(r, `Will change: Label: ${label} → ${label}-x`);
    expect(review.split('\n').length).toBeLessThanOrEqual(23);
    await press(r, CTRL_S, `Saved ${label}`);
    expect((await call(svc, 'GET', '/vm/instances')).body.data.some((vm: { label: string }) => vm.label === `${label}-x`)).toBe(true);
    await press(r, ESC, /home › instances$/m);
  });
});
