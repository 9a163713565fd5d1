import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { BETA_ONLY_PATHS, routedUrl } from '../../src/server/app.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('regions and types', () => {
  it('lists regions without a token, as a page', async () => {
    const r = await call(svc, 'GET', '/regions', { token: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ page: 1, pages: 1 });
    expect(r.body.results).toBe(r.body.data.length);
    expect(r.body.data[0]).toEqual({
      id: 'us-east',
      country: 'us',
      capabilities: expect.arrayContaining(['VMs']),
      status: 'ok',
      resolvers: { ipv4: expect.any(String), ipv6: expect.any(String) },
    });
  });

  it('shows one region, 404 for an unknown one in the errors shape', async () => {
    expect((await call(svc, 'GET', '/regions/eu-central')).body.country).toBe('de');
    const missing = await call(svc, 'GET', '/regions/mars-1');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].reason).toMatch(/not found/i);
  });

  it('filters and orders types with X-Filter', async () => {
    const r = await call(svc, 'GET', '/vm/types', { filter: { vcpus: { '+gte': 4 }, '+order_by': 'memory', '+order': 'desc' } });
    expect(r.status).toBe(200);
    const memories = r.body.data.map((t: { memory: number }) => t.memory);
    expect(memories).toEqual([...memories].sort((a, b) => b - a));
    expect(r.body.data.every((t: { vcpus: number }) => t.vcpus >= 4)).toBe(true);
  });

  it('rejects unusable filters and page sizes with 400', async () => {
    expect((await call(svc, 'GET', '/vm/types', { headers: { 'x-filter': '{nope' } })).status).toBe(400);
    expect((await call(svc, 'GET', '/vm/types', { filter: { price: 5 } })).status).toBe(400);
    const small = await call(svc, 'GET', '/vm/types?page_size=10');
    expect(small.status).toBe(400);
    expect(small.body.errors[0].field).toBe('page_size');
  });

  it('serves the beta root too, and answers 405 and unknown paths in the errors shape', async () => {
    expect((await call(svc, 'GET', '/v4beta/regions')).status).toBe(200);
    const betaPage = await call(svc, 'GET', '/v4beta/regions?page=1&page_size=25');
    expect(betaPage.body).toMatchObject({ page: 1 });
    expect((await call(svc, 'GET', '/v4beta/regions/us-east')).body).toMatchObject({ id: 'us-east' });
    expect((await call(svc, 'DELETE', '/v4beta/regions')).status).toBe(405);
    expect((await call(svc, 'GET', '/v4beta/networking/firewallsx')).status).toBe(404);
    const wrong = await call(svc, 'DELETE', '/regions');
    expect(wrong.status).toBe(405);
    expect(wrong.body.errors[0].reason).toMatch(/GET/);
    const unknown = await call(svc, 'GET', '/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toHaveLength(1);
  });

  it('routes the beta root to the routes of the base root, firewalls included (served on both)', () => {
    expect(routedUrl('/v4beta/vm/instances?page=2')).toBe('/v4/vm/instances?page=2');
    expect(routedUrl('/v4beta/networking/firewalls/7/rules')).toBe('/v4/networking/firewalls/7/rules');
    expect(routedUrl('/v4beta/networking/firewalls?page=1')).toBe('/v4/networking/firewalls?page=1');
    expect(routedUrl('/v4beta/networking/firewallsx')).toBe('/v4/networking/firewallsx');
    expect(routedUrl('/v4/networking/firewalls')).toBe('/v4/networking/firewalls');
    expect(routedUrl('/object-storage/x')).toBe('/object-storage/x');
  });

  it('under --strict keeps the firewall paths on the beta root alone, as 4.83.1 serves them', () => {
    expect(BETA_ONLY_PATHS).toEqual(['/networking/firewalls']);
    expect(routedUrl('/v4beta/vm/instances?page=2', BETA_ONLY_PATHS)).toBe('/v4/vm/instances?page=2');
    expect(routedUrl('/v4beta/networking/firewalls/7/rules', BETA_ONLY_PATHS)).toBe('/v4beta/networking/firewalls/7/rules');
    expect(routedUrl('/v4beta/networking/firewalls?page=1', BETA_ONLY_PATHS)).toBe('/v4beta/networking/firewalls?page=1');
    expect(routedUrl('/v4beta/networking/firewallsx', BETA_ONLY_PATHS)).toBe('/v4/networking/firewallsx');
  });

  it('rejects a bad token with 401 even where no token is needed', async () => {
    expect((await call(svc, 'GET', '/regions', { token: 'not-a-token' })).status).toBe(401);
  });
});
