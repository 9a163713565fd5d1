import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { FLAW } from '../../src/model/response.js';
import { createDataStore } from '../../src/store/data.js';
import { INSTANCES_LIST, cachedRow, readableRows } from '../../src/store/lists.js';

const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 't', retryDelaysMs: [], timeoutMs: 2000 });

/** Rows whose ids count their reads: a scan of the list reads every one. */
function counted(n: number) {
  let reads = 0;
  const rows: unknown[] = Array.from({ length: n }, (_, i) => ({
    get id() {
      reads++;
      return 100 + i;
    },
    label: `web-${i}`,
  }));
  rows.push({ id: 5, [FLAW]: { reason: 'no label', key: '5', raw: { id: 5 } } });
  return { rows, reads: () => reads };
}

describe('cached lists looked at by id', () => {
  it('a row by id from an index made once per list: a second look scans nothing; the list read again is indexed again', () => {
    const data = createDataStore({ client });
    const list = counted(1000);
    data.getState().put(INSTANCES_LIST, list.rows);
    expect(cachedRow<{ id: number; label: string }>(data, INSTANCES_LIST, 600)?.label).toBe('web-500');
    const once = list.reads();
    expect(once).toBeGreaterThanOrEqual(1000);
    expect(cachedRow<{ id: number; label: string }>(data, INSTANCES_LIST, 1099)?.label).toBe('web-999');
    // The unreadable row is not an instance to find.
    expect(cachedRow(data, INSTANCES_LIST, 5)).toBeUndefined();
    expect(list.reads()).toBe(once);
    data.getState().put(INSTANCES_LIST, [{ id: 600, label: 'renamed' }]);
    expect(cachedRow<{ id: number; label: string }>(data, INSTANCES_LIST, 600)?.label).toBe('renamed');
  });

  it('the readable rows of a list are worked out once per list', async () => {
    const data = createDataStore({ client });
    const list = counted(3);
    data.getState().put(INSTANCES_LIST, list.rows);
    const read = (q: typeof INSTANCES_LIST) => data.getState().rows(q);
    const first = await readableRows(read, INSTANCES_LIST);
    expect(first).toHaveLength(3);
    expect(await readableRows(read, INSTANCES_LIST)).toBe(first);
  });
});
