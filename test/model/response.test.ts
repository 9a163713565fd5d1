import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { itemPath, itemShape, pageShape, recordProblem, RESOURCE_LISTS } from '../../src/model/response.js';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, startTestService } from '../helpers/service.js';

let svc: RunningService;
let client: ApiClient;

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [] });
});
afterAll(() => svc?.close());

const root = (path: string) => (path.startsWith('/networking/firewalls') ? 'beta' : 'base');
/** Where a `{}` of a pattern gets its value: the first item of the list before it (by its field). */
const FILL: Record<string, [string, string]> = {
  '/object-storage/buckets/{}': ['/object-storage/clusters', 'id'],
  '/tags/{}': ['/tags', 'label'],
};

/** A pattern made a real path of the demo account: each `{}` filled from the first item of the list it follows. */
async function resolve(pattern: string): Promise<string | undefined> {
  let path = '';
  for (const part of pattern.split('/').filter(Boolean)) {
    if (part !== '{}') {
      path += `/${part}`;
      continue;
    }
    const [from, field] = FILL[`${path}/{}`] ?? [path, 'id'];
    const rows = (await client.page<Record<string, unknown>>(from, { root: root(from), pageSize: 25 })).data;
    const row = rows.find((r) => pattern !== '/vm/instances/{}/backups' || (r.backups as { enabled?: boolean })?.enabled);
    if (!row) return undefined;
    path += `/${encodeURIComponent(String(row[field]))}`;
  }
  return path;
}

describe('the response shapes', () => {
  it('read every list and item the real service sends, demo account throughout: no false alarm', async () => {
    const checked: string[] = [];
    for (const entry of RESOURCE_LISTS) {
      const path = await resolve(entry.list);
      expect(path, `the demo account has something at ${entry.list}`).toBeDefined();
      let rows: unknown[];
      if (entry.paged) rows = (await client.page(path!, { root: root(path!), flawed: 'fail' })).data;
      else {
        const body = await client.get<{ automatic: unknown[]; snapshot: { current: unknown } }>(path!);
        rows = [...body.automatic, body.snapshot.current].filter(Boolean);
      }
      checked.push(entry.list);
      const own = entry.item ? itemPath(path!, rows[0]) : undefined;
      if (entry.item && rows.length > 0) {
        expect(own, `an item path for ${entry.list}`).toBeDefined();
        await expect(client.get(own!, { root: root(own!) })).resolves.toBeTypeOf('object');
      }
    }
    expect(checked.length).toBe(RESOURCE_LISTS.length);
  });
});

describe('a record of nothing but its id', () => {
  it('is unreadable: a list marks it, a write says its answer could not be read', () => {
    const contact = pageShape('/managed/contacts')!;
    expect(recordProblem(contact, { id: 6, name: null, email: null, phone: null, group: null, updated: null })).toBe('every field but its id is null');
    expect(recordProblem(contact, { id: 6 })).toBe('every field but its id is null');
  });
  it('is readable with one field set, and a single resource without an id is never held to it', () => {
    expect(recordProblem(pageShape('/managed/contacts')!, { id: 6, name: null, updated: '2026-11-26T23:14:16' })).toBeUndefined();
    expect(recordProblem(itemShape('/profile/preferences')!, {})).toBeUndefined();
  });
});
