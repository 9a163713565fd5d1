import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
let narrow: string;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'vms only', scopes: 'vms:read_only' } });
  expect(made.status).toBe(200);
  narrow = made.body.token;
});
afterAll(() => svc.close());

describe('every authenticated answer tells the token its scopes (X-OAuth-Scopes) and what the endpoint needs (X-Accepted-OAuth-Scopes)', () => {
  it('an allowed read: the scopes and the scope it needed', async () => {
    const r = await call(svc, 'GET', '/vm/instances', { token: narrow });
    expect(r.status).toBe(200);
    expect(r.headers['x-oauth-scopes']).toBe('vms:read_only');
    expect(r.headers['x-accepted-oauth-scopes']).toBe('vms:read_only');
  });

  it('a refusal for a scope: the 403 carries both, so a client learns what it lacks', async () => {
    const r = await call(svc, 'POST', '/vm/instances', { token: narrow, body: { region: 'us-east', type: 'g6-nanode-1' } });
    expect(r.status).toBe(403);
    expect(r.headers['x-oauth-scopes']).toBe('vms:read_only');
    expect(r.headers['x-accepted-oauth-scopes']).toBe('vms:read_write');
    const tokens = await call(svc, 'GET', '/profile/tokens', { token: narrow });
    expect(tokens.status).toBe(403);
    expect(tokens.headers['x-oauth-scopes']).toBe('vms:read_only');
    expect(tokens.headers['x-accepted-oauth-scopes']).toBe('account:read_only');
  });

  it('an endpoint needing two scopes names both; one any token may call names none', async () => {
    const assign = await call(svc, 'POST', '/networking/ipv4/assign', { token: narrow, body: {} });
    expect(assign.status).toBe(403);
    expect(assign.headers['x-accepted-oauth-scopes']).toBe('ips:read_write vms:read_write');
    const profile = await call(svc, 'GET', '/profile', { token: narrow });
    expect(profile.status).toBe(200);
    expect(profile.headers['x-oauth-scopes']).toBe('vms:read_only');
    expect(profile.headers).not.toHaveProperty('x-accepted-oauth-scopes');
  });

  it('the owner token says *; a public endpoint called with a token tells its scopes and needs none', async () => {
    const all = await call(svc, 'GET', '/nodebalancers');
    expect(all.headers['x-oauth-scopes']).toBe('*');
    expect(all.headers['x-accepted-oauth-scopes']).toBe('nodebalancers:read_only');
    const regions = await call(svc, 'GET', '/regions', { token: narrow });
    expect(regions.status).toBe(200);
    expect(regions.headers['x-oauth-scopes']).toBe('vms:read_only');
    expect(regions.headers).not.toHaveProperty('x-accepted-oauth-scopes');
  });

  it('without a valid token there are no scopes to tell', async () => {
    const anonymous = await call(svc, 'GET', '/regions', { token: '' });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers).not.toHaveProperty('x-oauth-scopes');
    const wrong = await call(svc, 'GET', '/vm/instances', { token: 'not-a-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers).not.toHaveProperty('x-oauth-scopes');
    expect(wrong.headers).not.toHaveProperty('x-accepted-oauth-scopes');
  });

  it('scopes written with commas or several spaces are told in the scopes field\'s own form, one space apart', async () => {
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'commas', scopes: 'vms:read_only,  ips:read_only' } });
    expect(made.status).toBe(200);
    const r = await call(svc, 'GET', '/vm/instances', { token: made.body.token });
    expect(r.headers['x-oauth-scopes']).toBe('vms:read_only ips:read_only');
  });
});
