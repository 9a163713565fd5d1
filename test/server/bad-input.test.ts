import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const expectErrorsShape = (body: any) => {
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const e of body.errors) expect(typeof e.reason).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
};

describe('bad input never yields a 500 or a stack trace', () => {
  it('malformed JSON is a 400', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', { raw: '{"name": "x",' });
    expect(r.status).toBe(400);
    expectErrorsShape(r.body);
  });

  it('a body that is not an object is a 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const r = await call(svc, 'POST', '/managed/contacts', { raw });
      expect(r.status, raw).toBe(400);
      expectErrorsShape(r.body);
    }
  });

  it('wrong types are reported together, by field; an unknown field is named as ignored', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', { body: { name: 7, email: ['x'], shoe_size: 44 } });
    expect(r.status).toBe(400);
    const fields = r.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(['name', 'email']);
    expect(r.headers['x-ignored-fields']).toBe('shoe_size');
  });

  it('a huge body is a 413', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', { raw: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(r.status).toBe(413);
    expectErrorsShape(r.body);
  });

  it('a non-JSON media type is refused clearly', async () => {
    const r = await call(svc, 'POST', '/managed/contacts', { raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(415);
    expectErrorsShape(r.body);
  });

  it('unknown paths are 404 and wrong methods 405, in the errors shape', async () => {
    const unknown = await call(svc, 'GET', '/managed/nothing-here');
    expect(unknown.status).toBe(404);
    expectErrorsShape(unknown.body);
    const outside = await call(svc, 'GET', '/__nope');
    expect(outside.status).toBe(404);
    const wrong = await call(svc, 'PATCH', '/managed/contacts');
    expect(wrong.status).toBe(405);
    const put = await call(svc, 'PUT', '/managed/contacts');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST');
    expectErrorsShape(put.body);
    const head = await call(svc, 'HEAD', '/managed/contacts/7/');
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET, PUT, DELETE');
    // A path shaped like one with a parameter, one level too deep, is unknown.
    expect((await call(svc, 'DELETE', '/managed/contacts/7/extra')).status).toBe(404);
  });

  it('a non-integer id is a 404, not a crash', async () => {
    const r = await call(svc, 'GET', '/managed/contacts/abc');
    expect(r.status).toBe(404);
    expectErrorsShape(r.body);
  });

  it('authentication problems are 401 with a reason', async () => {
    expect((await call(svc, 'GET', '/managed/contacts', { token: null })).status).toBe(401);
    const malformed = await call(svc, 'GET', '/managed/contacts', { token: null, headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    expectErrorsShape(malformed.body);
  });

  it('bad paging parameters are a 400 naming the parameter', async () => {
    for (const q of ['page=0', 'page=x', 'page_size=101', 'page_size=24', 'page_size=-5']) {
      const r = await call(svc, 'GET', `/managed/contacts?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].field).toBe(q.split('=')[0]);
    }
  });
});
