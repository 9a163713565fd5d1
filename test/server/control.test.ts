import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { addInstance } from './managed-fixtures.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const control = (method: string, path: string, body?: unknown, token: string | null = OWNER_TOKEN) => call(svc, method, `/__control${path}`, { body, token });
const newService = async (label: string, extra: Record<string, unknown> = {}) =>
  (await call(svc, 'POST', '/managed/services', { body: { label, service_type: 'url', address: `https://${label}.example.com/`, timeout: 10, ...extra } })).body as {
    id: number;
  };
const statusOf = async (id: number) => (await call(svc, 'GET', `/managed/services/${id}`)).body.status;

describe('control interface access', () => {
  it('answers only the control token: 401 without one, 403 with another', async () => {
    expect(await control('GET', '/faults')).toMatchObject({ status: 200 });
    const none = await control('GET', '/faults', undefined, null);
    expect(none.status).toBe(401);
    expect(none.body.errors[0].reason).toMatch(/control token/);
    expect((await call(svc, 'GET', '/__control/faults', { headers: { authorization: 'Basic abc' }, token: null })).status).toBe(401);
    const other = await control('GET', '/faults', undefined, RESTRICTED_TOKEN);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ errors: [{ reason: expect.any(String) }] });
    expect((await control('POST', '/managed/issues', { services: [1] }, 'nope')).status).toBe(403);
  });

  it('says it is up to anyone, with no token and whatever the token, and nothing else', async () => {
    for (const token of [null, OWNER_TOKEN, RESTRICTED_TOKEN, 'nope']) {
      const health = await control('GET', '/health', undefined, token);
      expect(health).toMatchObject({ status: 200, body: { ok: true } });
      expect(Object.keys(health.body)).toEqual(['ok']);
    }
  });

  it('is not served under the API roots, and unknown control paths are 404 in the errors shape', async () => {
    expect((await call(svc, 'GET', '/v4/__control/health')).status).toBe(404);
    const unknown = await control('GET', '/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toHaveLength(1);
    expect((await control('POST', '/managed/issues/abc/resolve')).status).toBe(404);
  });
});

describe('control: managed issues', () => {
  it('opens an issue: services turn problem, the issue and its ticket event are visible through the API', async () => {
    const a = await newService('alpha');
    const b = await newService('beta');
    const opened = await control('POST', '/managed/issues', { services: [a.id, b.id], label: 'alpha and beta down' });
    expect(opened.status).toBe(200);
    const ticket = opened.body.entity.id;
    expect(opened.body).toEqual({
      id: expect.any(Number),
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      entity: { id: ticket, label: 'alpha and beta down', type: 'ticket', url: `/support/tickets/${ticket}` },
      services: [a.id, b.id],
    });
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['problem', 'problem']);
    expect((await call(svc, 'GET', '/managed/issues')).body.data).toContainEqual(opened.body);
    expect((await call(svc, 'GET', `/managed/issues/${opened.body.id}`)).body).toEqual(opened.body);
    const events = (await call(svc, 'GET', '/account/events', { filter: { action: 'ticket_create' } })).body.data;
    expect(events[0]).toMatchObject({ entity: { id: ticket, type: 'ticket', label: 'alpha and beta down' } });

    expect(await control('POST', `/managed/issues/${opened.body.id}/resolve`)).toMatchObject({ status: 200, body: {} });
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['ok', 'ok']);
    expect((await call(svc, 'GET', `/managed/issues/${opened.body.id}`)).status).toBe(404);
    expect((await control('POST', `/managed/issues/${opened.body.id}/resolve`)).status).toBe(404);
  });

  it('keeps a service in problem while another issue holds it; leaves a disabled service disabled', async () => {
    const a = await newService('gamma');
    const off = await newService('delta');
    await call(svc, 'POST', `/managed/services/${off.id}/disable`);
    const first = (await control('POST', '/managed/issues', { services: [a.id, off.id] })).body;
    expect(first.entity.label).toMatch(/gamma/);
    const second = (await control('POST', '/managed/issues', { services: [a.id] })).body;
    expect(await statusOf(off.id)).toBe('disabled');
    await control('POST', `/managed/issues/${first.id}/resolve`);
    expect(await statusOf(a.id)).toBe('problem');
    await control('POST', `/managed/issues/${second.id}/resolve`);
    expect(await statusOf(a.id)).toBe('ok');
    expect(await statusOf(off.id)).toBe('disabled');
  });

  it('a service enabled while an issue holds it goes back to problem after its check', async () => {
    const a = await newService('epsilon');
    await call(svc, 'POST', `/managed/services/${a.id}/disable`);
    await control('POST', '/managed/issues', { services: [a.id] });
    expect((await call(svc, 'POST', `/managed/services/${a.id}/enable`)).body.status).toBe('pending');
    expect(await statusOf(a.id)).toBe('problem');
  });

  it('validates the body with the model: every problem, no 500s', async () => {
    const r = await control('POST', '/managed/issues', { services: [987654, 'x'], label: '', extra: true });
    expect(r.status).toBe(400);
    expect(errorFields(r).sort()).toEqual(['label', 'services.0', 'services.1']);
    expect(r.headers['x-ignored-fields']).toBe('extra');
    expect(errorFields(await control('POST', '/managed/issues', {}))).toEqual(['services']);
    expect(errorFields(await control('POST', '/managed/issues', { services: [] }))).toEqual(['services']);
    expect((await call(svc, 'POST', '/__control/managed/issues', { raw: '{nope', token: OWNER_TOKEN })).status).toBe(400);
  });

  it('a deleted service leaves its issues', async () => {
    const a = await newService('zeta');
    const b = await newService('eta');
    const issue = (await control('POST', '/managed/issues', { services: [a.id, b.id] })).body;
    await call(svc, 'DELETE', `/managed/services/${a.id}`);
    expect((await call(svc, 'GET', `/managed/issues/${issue.id}`)).body.services).toEqual([b.id]);
  });
});

describe('control: statuses and events', () => {
  it('sets a managed service status', async () => {
    const a = await newService('theta');
    const r = await control('POST', `/managed/services/${a.id}/status`, { status: 'problem' });
    expect(r.body).toMatchObject({ id: a.id, status: 'problem' });
    expect(await statusOf(a.id)).toBe('problem');
    await control('POST', `/managed/services/${a.id}/status`, { status: 'pending' });
    expect(await statusOf(a.id)).toBe('pending');
    expect(errorFields(await control('POST', `/managed/services/${a.id}/status`, { status: 'broken' }))).toEqual(['status']);
    expect(errorFields(await control('POST', `/managed/services/${a.id}/status`, {}))).toEqual(['status']);
    expect((await control('POST', '/managed/services/987654/status', { status: 'ok' })).status).toBe(404);
  });

  it('sets an instance status directly', async () => {
    const vm = addInstance(svc, 'ctl-1');
    const r = await control('POST', `/vm/instances/${vm.id}/status`, { status: 'stopped' });
    expect(r.body).toEqual({ id: vm.id, status: 'stopped' });
    expect(svc.store.get<{ status: string }>('vm', vm.id)!.status).toBe('stopped');
    expect(errorFields(await control('POST', `/vm/instances/${vm.id}/status`, { status: 'exploded' }))).toEqual(['status']);
    expect((await control('POST', '/vm/instances/987654/status', { status: 'running' })).status).toBe(404);
  });

  it('emits an event, deriving the entity URL', async () => {
    const r = await control('POST', '/events', { action: 'vm_reboot', entity: { id: 42, label: 'web-42', type: 'vm' }, status: 'started', message: 'lassie' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ action: 'vm_reboot', status: 'started', message: 'lassie', username: 'system', entity: { id: 42, label: 'web-42', type: 'vm', url: '/v4/vm/instances/42' } });
    expect((await call(svc, 'GET', `/account/events/${r.body.id}`)).body).toEqual(r.body);
    const plain = await control('POST', '/events', { action: 'account_update', entity: null });
    expect(plain.body).toMatchObject({ status: 'notification', entity: null });
  });

  it('rejects unknown actions, entity types and missing entity fields', async () => {
    const r = await control('POST', '/events', { action: 'vm_explode', entity: { id: 'x', type: 'planet' }, status: 'done' });
    expect(errorFields(r).sort()).toEqual(['action', 'entity.id', 'entity.label', 'entity.type', 'status']);
    expect(errorFields(await control('POST', '/events', { action: 'vm_boot' }))).toEqual(['entity']);
  });
});
