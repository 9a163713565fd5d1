import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());
beforeEach(async () => {
  await call(svc, 'DELETE', '/__control/faults');
});

const addRule = async (rule: Record<string, unknown>) => {
  const r = await call(svc, 'POST', '/__control/faults', { body: rule });
  expect(r.status).toBe(200);
  return r.body as { id: number; hits: number; seed: number };
};
const rules = async () => (await call(svc, 'GET', '/__control/faults')).body.data as { id: number; hits: number; matched: number; active: boolean; remaining: number | null }[];
const regions = (headers: Record<string, string> = {}) => call(svc, 'GET', '/regions', { headers });

describe('fault rules: the control interface', () => {
  it('answers only the control token', async () => {
    expect((await call(svc, 'GET', '/__control/faults', { token: null })).status).toBe(401);
    expect((await call(svc, 'POST', '/__control/faults', { token: RESTRICTED_TOKEN, body: { path: '*', action: 'drop' } })).status).toBe(403);
    expect(await rules()).toEqual([]);
  });

  it('validates a rule with the model: every problem named, in the errors shape', async () => {
    const r = await call(svc, 'POST', '/__control/faults', { body: { method: 'PATCH', path: 'v4/x', action: 'explode', probability: 2, count: 0, expires_in: -1 } });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['action', 'count', 'expires_in', 'method', 'path', 'probability']);
    expect(errorFields(await call(svc, 'POST', '/__control/faults', { body: {} })).sort()).toEqual(['action', 'path']);
    const mixed = await call(svc, 'POST', '/__control/faults', { body: { path: '*', action: 'rate_limit', status: 503, reason: 'x' } });
    expect(mixed.body.errors).toEqual([
      { field: 'status', reason: 'status applies to action error only' },
      { field: 'reason', reason: 'reason applies to action error only' },
    ]);
    expect(errorFields(await call(svc, 'POST', '/__control/faults', { body: { path: '*', action: 'latency' } }))).toEqual(['latency_ms']);
    expect(errorFields(await call(svc, 'POST', '/__control/faults', { body: { path: '*', action: 'error', status: 302 } }))).toEqual(['status']);
    const proto = await call(svc, 'POST', '/__control/faults', { raw: '{"path":"*","action":"drop","__proto__":{"only_when_named":true}}' });
    expect(proto.status).toBe(400);
    expect((await call(svc, 'POST', '/__control/faults', { raw: '[1]' })).status).toBe(400);
    expect(await rules()).toEqual([]);
    const extra = await call(svc, 'POST', '/__control/faults', { body: { path: '/v4/regions', action: 'drop', colour: 'red' } });
    expect(extra.status).toBe(200);
    expect(extra.headers['x-ignored-fields']).toBe('colour');
  });

  it('lists rules with their counts, shows one, deletes one and all', async () => {
    const a = await addRule({ path: '/v4/nothing-here', action: 'error', status: 502 });
    const b = await addRule({ method: 'POST', path: '/v4/vm/*', action: 'rate_limit', count: 3, expires_in: 60 });
    expect(await rules()).toEqual([
      expect.objectContaining({ id: a.id, method: '*', action: 'error', status: 502, reason: null, probability: 1, count: null, remaining: null, expires: null, only_when_named: false, active: true, hits: 0, matched: 0 }),
      expect.objectContaining({ id: b.id, method: 'POST', retry_after: 1, count: 3, remaining: 3, expires: expect.stringMatching(/^\d{4}-/) }),
    ]);
    expect((await call(svc, 'GET', `/__control/faults/${b.id}`)).body).toMatchObject({ id: b.id, path: '/v4/vm/*' });
    expect(await call(svc, 'DELETE', `/__control/faults/${a.id}`)).toMatchObject({ status: 200, body: {} });
    expect((await call(svc, 'DELETE', `/__control/faults/${a.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', `/__control/faults/${a.id}`)).status).toBe(404);
    expect((await call(svc, 'GET', '/__control/faults/abc')).status).toBe(404);
    expect((await rules()).map((r) => r.id)).toEqual([b.id]);
    await call(svc, 'DELETE', '/__control/faults');
    expect(await rules()).toEqual([]);
  });

  it('never faults the control interface itself', async () => {
    await addRule({ path: '*', action: 'error', status: 500 });
    expect((await call(svc, 'GET', '/__control/faults')).status).toBe(200);
    expect((await call(svc, 'GET', '/__control/health')).status).toBe(200);
    expect((await regions()).status).toBe(500);
  });
});

describe('fault rules: what they do', () => {
  it('error: the status and reason in the errors shape, on the matching method and path only', async () => {
    const rule = await addRule({ method: 'GET', path: '/v4/regions*', action: 'error', status: 503, reason: 'Regions are down' });
    const r = await regions();
    expect(r).toMatchObject({ status: 503, body: { errors: [{ reason: 'Regions are down' }] } });
    expect((await call(svc, 'GET', '/regions/us-east')).status).toBe(503);
    expect((await call(svc, 'GET', '/account/events')).status).toBe(200);
    expect((await call(svc, 'POST', '/regions')).status).toBe(405);
    expect((await rules())[0]).toMatchObject({ id: rule.id, hits: 2, matched: 2 });
  });

  it('matches the path as the client sent it: a beta-root rule leaves the base root alone', async () => {
    await addRule({ path: '/v4beta/regions', action: 'error', status: 500 });
    expect((await call(svc, 'GET', '/v4beta/regions')).status).toBe(500);
    expect((await regions()).status).toBe(200);
    expect((await call(svc, 'GET', '/v4beta/regions?page=1')).status).toBe(500);
  });

  it('rate_limit: 429 with Retry-After', async () => {
    await addRule({ path: '/v4/regions', action: 'rate_limit', retry_after: 7 });
    const r = await regions();
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('7');
    expect(r.body.errors[0].reason).toMatch(/Too many requests/);
  });

  it('latency: the real answer, late; with an error, the error late', async () => {
    await addRule({ path: '/v4/regions', action: 'latency', latency_ms: 300 });
    let t = performance.now();
    expect((await regions()).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    await call(svc, 'DELETE', '/__control/faults');
    await addRule({ path: '/v4/regions', action: 'error', status: 504, latency_ms: 200 });
    t = performance.now();
    expect((await regions()).status).toBe(504);
    expect(performance.now() - t).toBeGreaterThanOrEqual(190);
  });

  it('drop: the connection closes with no answer', async () => {
    await addRule({ path: '/v4/regions', action: 'drop' });
    await expect(request(`${svc.baseUrl}/regions`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } })).rejects.toThrow();
    expect((await call(svc, 'GET', '/account/events')).status).toBe(200);
  });

  it('malformed: the real status, a body that is not JSON', async () => {
    await addRule({ path: '/v4/regions', action: 'malformed' });
    const res = await request(`${svc.baseUrl}/regions`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    const text = await res.body.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/Bad Gateway/);
  });

  it('malformed and truncate spoil the answer of a request that was served: its write happened', async () => {
    await addRule({ method: 'POST', path: '/v4/managed/contacts', action: 'malformed', count: 1 });
    const res = await request(`${svc.baseUrl}/managed/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'spoiled-answer' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(await res.body.text()).toMatch(/^<html>/);
    const contacts = (await call(svc, 'GET', '/managed/contacts')).body.data as { name: string }[];
    expect(contacts.map((c) => c.name)).toContain('spoiled-answer');
  });

  it('truncate: the headers promise the whole body, half comes, the connection closes', async () => {
    await addRule({ path: '/v4/regions', action: 'truncate' });
    const res = await request(`${svc.baseUrl}/regions`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
    await expect(res.body.text()).rejects.toThrow();
    expect((await call(svc, 'GET', '/account/events')).status).toBe(200);
  });
});

describe('fault rules: how often and how long', () => {
  it('count: the next N matching requests, then the rule is spent', async () => {
    const rule = await addRule({ path: '/v4/regions', action: 'error', status: 500, count: 2 });
    expect([(await regions()).status, (await regions()).status, (await regions()).status]).toEqual([500, 500, 200]);
    expect((await rules())[0]).toMatchObject({ id: rule.id, hits: 2, remaining: 0, active: false });
  });

  it('probability with a seed: the same requests get the same faults, run after run', async () => {
    const run = async () => {
      await call(svc, 'DELETE', '/__control/faults');
      await addRule({ path: '/v4/regions', action: 'error', status: 500, probability: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await regions()).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
    const listed = (await rules())[0]!;
    expect(listed).toMatchObject({ matched: 24, hits: first.filter((s) => s === 500).length });
    const unseeded = await addRule({ path: '/v4/nothing', action: 'drop', probability: 0.1 });
    expect(unseeded.seed).toEqual(expect.any(Number));
  });

  it('expires_in: the rule stops applying when its time is up', async () => {
    const rule = await addRule({ path: '/v4/regions', action: 'error', status: 500, expires_in: 1 });
    expect((await regions()).status).toBe(500);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await regions()).status).toBe(200);
    expect((await rules())[0]).toMatchObject({ id: rule.id, active: false, hits: 1 });
  });
});

describe('fault rules: X-Vm-Fault, one request at a time', () => {
  it('a rule kept for naming applies only to the requests that name it, whatever their path', async () => {
    const rule = await addRule({ path: '/v4/regions', action: 'error', status: 418, only_when_named: true });
    expect((await regions()).status).toBe(200);
    expect((await regions({ 'x-vm-fault': String(rule.id) })).status).toBe(418);
    expect((await call(svc, 'GET', '/account/events', { headers: { 'x-vm-fault': String(rule.id) } })).status).toBe(418);
    expect((await regions()).status).toBe(200);
    expect((await rules())[0]).toMatchObject({ hits: 2 });
  });

  it('a named request is left alone by every other rule', async () => {
    await addRule({ path: '*', action: 'error', status: 500 });
    const quiet = await addRule({ path: '/v4/nothing', action: 'latency', latency_ms: 1, only_when_named: true });
    expect((await regions()).status).toBe(500);
    expect((await regions({ 'x-vm-fault': String(quiet.id) })).status).toBe(200);
  });

  it('a header naming no rule is a 400 that says so', async () => {
    for (const value of ['999', 'abc', '']) {
      const r = await regions({ 'x-vm-fault': value });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ field: 'X-Vm-Fault', reason: expect.stringMatching(/names no fault rule/) });
    }
  });
});
