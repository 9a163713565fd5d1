import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLine } from '../../src/model/history.js';
import { createHistoryStore } from '../../src/store/history.js';
import { SAVE_DELAY_MS, historyFile, keepHistory, readHistory } from '../../src/store/history-file.js';
import { createSessionStore } from '../../src/store/session.js';

const folders: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

const session = () => createSessionStore({ endpoint: 'https://api.example/v4', embedded: false, readOnly: false, refreshSeconds: 5 });

describe('history kept across runs (history: true)', () => {
  it('writes the changes seen to a private file per account once the user is known, and the next run reads them back', () => {
    vi.useFakeTimers();
    const folder = mkdtempSync(join(tmpdir(), 'vmtui-history-'));
    folders.push(folder);
    const s1 = session();
    const h1 = createHistoryStore();
    const stop = keepHistory(h1, s1, join(folder, 'state'));
    h1.getState().see('/vm/instances', '7', 'web-1', { id: 7, label: 'web-1', status: 'running' });
    h1.getState().see('/vm/instances', '8', 'db', { id: 8, label: 'db' });
    s1.setState({ user: 'alice' });
    h1.getState().see('/vm/instances', '7', 'web-1', { id: 7, label: 'web-1', status: 'offline' });
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    const file = historyFile(join(folder, 'state'), 'https://api.example/v4', 'alice');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Only what changed: a record merely seen is not history.
    expect(readHistory(file).map((i) => i.id)).toEqual(['7']);
    stop();

    // The next run: this run's first sighting is a change from where the saved history ends.
    const s2 = session();
    const h2 = createHistoryStore();
    h2.getState().see('/vm/instances', '7', 'web-1', { id: 7, label: 'web-1', status: 'running' });
    keepHistory(h2, s2, join(folder, 'state'));
    s2.setState({ user: 'alice' });
    const points = h2.getState().get('/vm/instances', '7')!.points;
    expect(points.map((p) => p.changes.map(changeLine).join())).toEqual(['', 'status: running → offline', 'status: offline → running']);
    // Another account on the same endpoint has a file of its own.
    expect(historyFile(join(folder, 'state'), 'https://api.example/v4', 'bob')).not.toBe(file);
  });

  it('reads a damaged or foreign file as no history', () => {
    const folder = mkdtempSync(join(tmpdir(), 'vmtui-history-'));
    folders.push(folder);
    const file = join(folder, 'history.json');
    writeFileSync(file, '{"format": 1, "items": [{"path": 3}, null]');
    expect(readHistory(file)).toEqual([]);
    writeFileSync(file, '{"format": 1, "items": [{"path": "/x", "id": "1", "label": "x", "points": []}, 5]}');
    expect(readHistory(file)).toEqual([]);
  });
});
