import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const listed = async (id: number) => (await call(svc, 'GET', '/vm/instances')).body.data.find((vm: { id: number }) => vm.id === id);

describe('cached instance pages', () => {
  it('reflect writes to instances and to the addresses they present', async () => {
    const created = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', label: 'cache-probe' } });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const first = await listed(id);
    expect(first.label).toBe('cache-probe');
    expect((await listed(id)).ipv4).toEqual(first.ipv4);

    expect((await call(svc, 'PUT', `/vm/instances/${id}`, { body: { label: 'cache-probe-2' } })).status).toBe(200);
    expect((await listed(id)).label).toBe('cache-probe-2');

    const added = await call(svc, 'POST', '/networking/ips', { body: { vm_id: id, public: true, type: 'ipv4' } });
    expect(added.status).toBe(200);
    expect((await listed(id)).ipv4).toContain(added.body.address);
  });

  it('keeps pages, filters and users apart', async () => {
    const all = await call(svc, 'GET', '/vm/instances');
    const filtered = await call(svc, 'GET', '/vm/instances', { filter: { label: 'no-such-label' } });
    expect(filtered.body.results).toBe(0);
    expect(all.body.results).toBeGreaterThan(0);
    const restricted = await call(svc, 'GET', '/vm/instances', { token: 'test-restricted-token-0123456789' });
    expect(restricted.body.results).toBe(0);
  });
});
