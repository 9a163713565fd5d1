import { describe, expect, it } from 'vitest';
import { changeLine, fieldChanges } from '../../src/model/history.js';
import { CHANGES_KEPT, ITEMS_KEPT, POINTS_KEPT, createHistoryStore, followLists } from '../../src/store/history.js';
import { createDataStore, type ListQuery } from '../../src/store/data.js';
import type { ApiClient } from '../../src/api/client.js';

describe('field changes between two sightings', () => {
  it('says scalars as before → after, lists of words as added and removed, nested fields by dotted name; never `updated`', () => {
    const before = { label: 'web-1', status: 'running', tags: ['old', 'db'], specs: { disk: 25600 }, updated: '2026-01-01T00:00:00' };
    const after = { label: 'web-2', status: 'offline', tags: ['db', 'web'], specs: { disk: 51200 }, updated: '2026-01-02T00:00:00' };
    expect(fieldChanges(before, after).map(changeLine)).toEqual(['label: web-1 → web-2', 'status: running → offline', 'tags: + web − old', 'specs.disk: 25600 → 51200']);
    expect(fieldChanges(before, { ...before })).toEqual([]);
  });

  it('names a field that appeared or went', () => {
    expect(fieldChanges({ a: 1 }, { b: 2 }).map(changeLine)).toEqual(['b: (none) → 2', 'a: 1 → (none)']);
  });

  it('follows a field that turned from a value into fields of its own and back, and nested fields that went; a nested `updated` is a field like any other', () => {
    const before = { alerts: null, specs: { disk: 1, vcpus: 2 }, backups: { schedule: { day: 'Sunday', window: 'W2' } } };
    const after = { alerts: { cpu: 90 }, specs: { disk: 1 }, backups: { schedule: null, updated: 'x' } };
    expect(fieldChanges(before, after).map(changeLine)).toEqual([
      'alerts.cpu: (none) → 90',
      'backups.schedule: (none) → null',
      'backups.updated: (none) → x',
      'alerts: null → (none)',
      'specs.vcpus: 2 → (none)',
      'backups.schedule.day: Sunday → (none)',
      'backups.schedule.window: W2 → (none)',
    ]);
    expect(fieldChanges(after, before).map(changeLine)).toEqual([
      'alerts: (none) → null',
      'specs.vcpus: (none) → 2',
      'backups.schedule.day: (none) → Sunday',
      'backups.schedule.window: (none) → W2',
      'alerts.cpu: 90 → (none)',
      'backups.schedule: null → (none)',
      'backups.updated: x → (none)',
    ]);
  });
});

describe('the history kept in memory', () => {
  it('keeps a point per change, the newest POINTS_KEPT of an item, and forgets the item seen longest ago', () => {
    const h = createHistoryStore();
    for (let i = 0; i <= POINTS_KEPT + 5; i++) h.getState().see('/vm/instances', '1', 'web', { id: 1, n: i }, i);
    const item = h.getState().get('/vm/instances', '1')!;
    expect(item.points).toHaveLength(POINTS_KEPT);
    expect(item.points.at(-1)!.changes.map(changeLine)).toEqual([`n: ${POINTS_KEPT + 4} → ${POINTS_KEPT + 5}`]);
    // The same record again is no new point.
    h.getState().see('/vm/instances', '1', 'web', { id: 1, n: POINTS_KEPT + 5 });
    expect(h.getState().get('/vm/instances', '1')!.points).toHaveLength(POINTS_KEPT);
    for (let i = 2; i <= ITEMS_KEPT + 1; i++) h.getState().see('/vm/instances', String(i), 'x', { id: i });
    expect(h.getState().get('/vm/instances', '1')).toBeUndefined();
    expect(h.getState().all()).toHaveLength(ITEMS_KEPT);
  });

  it('holds no copy of a record seen unchanged: its latest point takes the record just read', () => {
    const h = createHistoryStore();
    h.getState().see('/vm/instances', '1', 'web', { id: 1, status: 'running', updated: 'a' });
    const again = { id: 1, status: 'running', updated: 'a' };
    h.getState().see('/vm/instances', '1', 'web', again);
    expect(h.getState().get('/vm/instances', '1')!.points[0]!.record).toBe(again);
    // Only the write time differs: no point, and the record read last is the one held.
    const touched = { id: 1, status: 'running', updated: 'b' };
    h.getState().see('/vm/instances', '1', 'web', touched);
    expect(h.getState().get('/vm/instances', '1')!.points).toHaveLength(1);
    expect(h.getState().get('/vm/instances', '1')!.points[0]!.record).toBe(touched);
  });

  it('keeps CHANGES_KEPT changes in all: past it, the item changed longest ago keeps only its latest point', () => {
    const h = createHistoryStore();
    // Each item changes POINTS_KEPT - 1 times, one item after the other, until the changes pass the bound.
    const items = Math.ceil(CHANGES_KEPT / (POINTS_KEPT - 1)) + 1;
    for (let id = 1; id <= items; id++) for (let n = 0; n < POINTS_KEPT; n++) h.getState().see('/vm/instances', String(id), 'x', { id, n }, n);
    const held = h.getState().all().reduce((sum, item) => sum + item.points.length - 1, 0);
    expect(held).toBeLessThanOrEqual(CHANGES_KEPT);
    expect(held).toBeGreaterThan(CHANGES_KEPT - POINTS_KEPT);
    // The item changed longest ago is cut to its latest point; the one changed last keeps all of its points.
    expect(h.getState().get('/vm/instances', '1')!.points).toHaveLength(1);
    expect(h.getState().get('/vm/instances', '1')!.points[0]!.record).toEqual({ id: 1, n: POINTS_KEPT - 1 });
    expect(h.getState().get('/vm/instances', String(items))!.points).toHaveLength(POINTS_KEPT);
    // Its next change still shows as a change from what it was last seen as.
    h.getState().see('/vm/instances', '1', 'x', { id: 1, n: 99 });
    expect(h.getState().get('/vm/instances', '1')!.points.at(-1)!.changes.map(changeLine)).toEqual([`n: ${POINTS_KEPT - 1} → 99`]);
  });

  it('follows the records as the API sent them: a loader\'s list of the same path with a field of its own makes no change', async () => {
    const firewalls = [{ id: 1, label: 'web-public', status: 'enabled' }];
    const client = { page: async () => ({ data: firewalls.map((f) => ({ ...f })), page: 1, pages: 1, results: 1 }) } as unknown as ApiClient;
    const data = createDataStore({ client });
    const h = createHistoryStore();
    const stop = followLists(h, data);
    const plain: ListQuery = { path: '/networking/firewalls' };
    const counted: ListQuery = { path: '/networking/firewalls', load: async (_c, io) => (await io!.read(plain)).map((f) => ({ ...(f as object), device_count: 11 })) };
    for (let i = 0; i < 3; i++) {
      await data.getState().load(plain, true);
      await data.getState().load(counted, true);
    }
    expect(h.getState().get('/networking/firewalls', '1')!.points).toHaveLength(1);
    // A real change still shows.
    firewalls[0]!.status = 'disabled';
    await data.getState().load(plain, true);
    expect(h.getState().get('/networking/firewalls', '1')!.points.at(-1)!.changes.map(changeLine)).toEqual(['status: enabled → disabled']);
    stop();
  });
});
