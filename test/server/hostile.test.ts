import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, OWNER_TOKEN, startTestService, type Reply } from '../helpers/service.js';
import { FILTER_MAX_TERMS } from '../../src/server/filter.js';
import { BODY_MAX_DEPTH } from '../../src/server/json-input.js';
import type { RunningService } from '../../src/server/service.js';

/** The requests that answered 500 before (issue 12), each by hand, and what the service owes them instead. */

let svc: RunningService;
let vmId: number;
beforeAll(async () => {
  svc = await startTestService();
  const vm = await call(svc, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', label: 'hostile-probe' } });
  vmId = vm.body.id;
});
afterAll(() => svc.close());

/** A refusal in the seed's shape: below 500, an errors array of reasons, no trace of how the service is built. */
function expectRefusal(r: Reply, status: number): { field?: string; reason: string }[] {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(Array.isArray(r.body?.errors) && r.body.errors.length > 0).toBe(true);
  for (const e of r.body.errors) expect(typeof e.reason).toBe('string');
  expect(JSON.stringify(r.body)).not.toMatch(/FST_ERR|node:internal|\.(ts|js):\d+/);
  return r.body.errors;
}

/** Raw bytes on a socket, for what no HTTP client sends: the whole answer, as text. */
function rawExchange(text: string): Promise<string> {
  const { port } = new URL(svc.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(answer)}`));
    });
  });
}

const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('keys named after Object.prototype members are data', () => {
  it('is an unknown field like any other, top level and nested: ignored and named, or refused under --strict', async () => {
    const strict = await startTestService({ strict: true });
    try {
      const vm = await call(strict, 'POST', '/vm/instances', { body: { region: 'us-east', type: 'g6-standard-1', label: 'hostile-strict' } });
      for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
        const top = await call(svc, 'POST', '/managed/contacts', { raw: `{"name":"x${key}","${key}":{}}` });
        expect(top.status, JSON.stringify(top.body)).toBe(200);
        expect(top.headers['x-ignored-fields']).toBe(key);
        const nested = await call(svc, 'PUT', `/vm/instances/${vmId}`, { raw: `{"alerts":{"${key}":1}}` });
        expect(nested.status, JSON.stringify(nested.body)).toBe(200);
        expect(nested.headers['x-ignored-fields']).toBe(`alerts.${key}`);

        const strictTop = await call(strict, 'POST', '/managed/contacts', { raw: `{"name":"x${key}","${key}":{}}` });
        expect(expectRefusal(strictTop, 400)).toContainEqual({ field: key, reason: `${key} is not a known field` });
        const strictNested = await call(strict, 'PUT', `/vm/instances/${vm.body.id}`, { raw: `{"alerts":{"${key}":1}}` });
        expect(expectRefusal(strictNested, 400)).toContainEqual({ field: `alerts.${key}`, reason: `alerts.${key} is not a known field` });
      }
    } finally {
      await strict.close();
    }
  });

  it('refuses __proto__ anywhere in a body, naming where', async () => {
    const top = await call(svc, 'POST', '/managed/contacts', { raw: '{"name":"xy","__proto__":{}}' });
    expect(expectRefusal(top, 400)[0]!.field).toBe('__proto__');
    const rules = { inbound_policy: 'DROP', outbound_policy: 'ACCEPT', inbound: [{ action: 'ACCEPT', protocol: 'TCP', addresses: { ipv4: ['1.2.3.4/32'] } }] };
    const raw = JSON.stringify({ label: 'fw-proto', rules }).replace('"ipv4"', '"__proto__":{"x":1},"ipv4"');
    const deep = await call(svc, 'POST', '/v4beta/networking/firewalls', { raw });
    expect(expectRefusal(deep, 400)[0]!.field).toBe('rules.inbound.0.addresses.__proto__');
  });

  it('in a config devices map', async () => {
    const r = await call(svc, 'POST', `/vm/instances/${vmId}/configs`, { raw: '{"label":"cfg","devices":{"constructor":{"disk_id":1}}}' });
    expect(expectRefusal(r, 400).map((e) => e.field)).toContain('devices.constructor');
  });

  it('in X-Filter, as a field or as the order', async () => {
    for (const filter of [{ constructor: 1 }, { toString: { '+gt': 1 } }, { '+order_by': 'constructor' }, { '+order_by': 'valueOf', '+order': 'desc' }, { '+or': [{ hasOwnProperty: 'x' }] }]) {
      const r = await call(svc, 'GET', '/vm/instances', { filter });
      expect(expectRefusal(r, 400)[0]!.field, JSON.stringify(filter)).toBe('X-Filter');
    }
  });

  it('as the name of a StackScript field', async () => {
    const script = ['#!/bin/bash', '# <UDF name="constructor" label="Builder" />', '# <UDF name="toString" label="Text" default="x" />', 'echo'].join('\n');
    const created = await call(svc, 'POST', '/vm/stackscripts', { body: { label: 'proto-udf', images: ['vm/debian12'], script } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const deploy = (data: unknown) =>
      call(svc, 'POST', '/vm/instances', {
        body: { region: 'us-east', type: 'g6-standard-1', image: 'vm/debian12', root_pass: 'c0rrect-Horse-battery-staple!', stackscript_id: Number(created.body.id), stackscript_data: data },
      });
    const missing = await deploy({});
    expect(expectRefusal(missing, 400), JSON.stringify(missing.body)).toContainEqual({ field: 'stackscript_data.constructor', reason: 'constructor (Builder) is required' });
    expect((await deploy({ constructor: 'make' })).status).toBe(200);
  });
});

describe('free text that would drive a terminal (issue 29)', () => {
  // The report's payload, 7-bit and 8-bit: the service stores text, it does not judge what a terminal would make of it.
  const payload = 'x\x1b]0;PWNED-TITLE\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J\x1b[31mRED\u202e\u200b\x9b2J\x7f\ufeff';

  it('is kept exactly where the API takes free text: a StackScript description and revision note, a managed service note', async () => {
    const script = await call(svc, 'POST', '/vm/stackscripts', { body: { label: 'terminal-probe', images: ['vm/debian12'], script: '#!/bin/bash\necho', description: payload, rev_note: payload } });
    expect(script.status, JSON.stringify(script.body)).toBe(200);
    const read = await call(svc, 'GET', `/vm/stackscripts/${script.body.id}`);
    expect([read.body.description, read.body.rev_note]).toEqual([payload, payload]);
    const service = await call(svc, 'POST', '/managed/services', { body: { label: 'terminal-probe', service_type: 'url', address: 'https://example.com', timeout: 10, notes: payload } });
    expect(service.status, JSON.stringify(service.body)).toBe(200);
    expect((await call(svc, 'GET', `/managed/services/${service.body.id}`)).body.notes).toBe(payload);
  });

  it('is refused in a label, whose pattern allows none of it', async () => {
    const r = await call(svc, 'PUT', `/vm/instances/${vmId}`, { body: { label: 'web\x1b]0;T\x07' } });
    expect(expectRefusal(r, 400)[0]!.field).toBe('label');
  });
});

describe('limits on what a request may hold', () => {
  it(`refuses an X-Filter of more than ${FILTER_MAX_TERMS} comparisons, and serves one of exactly that many`, async () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));
    expect((await call(svc, 'GET', '/vm/instances', { filter: { '+or': terms(FILTER_MAX_TERMS) } })).status).toBe(200);
    for (const filter of [{ '+or': terms(1_000) }, { '+and': terms(FILTER_MAX_TERMS + 1) }, { '+or': Array.from({ length: 1_000 }, () => ({})) }]) {
      const [error] = expectRefusal(await call(svc, 'GET', '/vm/instances', { filter }), 400);
      expect(error!.reason).toMatch(`at most ${FILTER_MAX_TERMS} comparisons`);
    }
  });

  it(`refuses a body nested deeper than ${BODY_MAX_DEPTH} levels, and takes one that deep`, async () => {
    const nested = (n: number) => `${'{"a":'.repeat(n - 1)}{}${'}'.repeat(n - 1)}`;
    expect((await call(svc, 'PUT', '/profile/preferences', { raw: nested(BODY_MAX_DEPTH) })).status).toBe(200);
    for (const depth of [BODY_MAX_DEPTH + 1, 4_500, 100_000]) {
      const [error] = expectRefusal(await call(svc, 'PUT', '/profile/preferences', { raw: nested(depth) }), 400);
      expect(error!.reason).toBe(`The request body is nested deeper than ${BODY_MAX_DEPTH} levels`);
    }
  });

  it('refuses a lone UTF-16 surrogate in a tag label or an object name, naming the field', async () => {
    const tag = await call(svc, 'POST', '/tags', { raw: '{"label":"ab\\ud800"}' });
    expect(expectRefusal(tag, 400)[0]).toEqual({ field: 'label', reason: 'The request body: label holds a lone UTF-16 surrogate, which is not valid Unicode' });
    const url = await call(svc, 'POST', '/object-storage/buckets/us-east-1/any-bucket/object-url', { raw: '{"name":"file-\\udc00","method":"GET"}' });
    expect(expectRefusal(url, 400)[0]!.field).toBe('name');
    // A pair is one character, and fine.
    expect((await call(svc, 'POST', '/tags', { body: { label: 'ok-😀' } })).status).toBe(200);
  });

  it('reads a UTF-8 X-Filter as UTF-8', async () => {
    expect((await call(svc, 'POST', '/managed/contacts', { body: { name: 'Zoe', group: 'équipe' } })).status).toBe(200);
    expect((await call(svc, 'POST', '/managed/contacts', { body: { name: 'Max', group: 'equipe' } })).status).toBe(200);
    const headers = { 'x-filter': Buffer.from(JSON.stringify({ group: 'équipe' })).toString('latin1') };
    const r = await call(svc, 'GET', '/managed/contacts', { headers });
    expect(r.status).toBe(200);
    expect(r.body.data.map((c: { name: string }) => c.name)).toEqual(['Zoe']);
  });
});

describe("Fastify's and Node's own refusals, in the seed's shape", () => {
  it('a bad percent-encoding in the URL is a 400', async () => {
    for (const path of ['/v4/tags/%', '/v4/vm/instances/%zz', '/%E0%A4%A']) expectRefusal(await call(svc, 'GET', path), 400);
  });

  it('a path parameter over 2048 characters is a 414', async () => {
    expectRefusal(await call(svc, 'POST', `/__control/managed/issues/${'1'.repeat(3_000)}/resolve`), 414);
  });

  it('headers over the limit are a 431', async () => {
    const answer = await rawExchange(`GET /v4/regions HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1.1 431 /);
    expect(jsonOf(answer).errors[0].reason).toMatch(/larger than 16 KiB/);
  });

  it('CONNECT gets an answer (405), not a dropped connection', async () => {
    const answer = await rawExchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 405 /);
    expect(answer).toMatch(/\r\nAllow: GET, POST, PUT, DELETE\r\n/);
    expect(jsonOf(answer).errors[0].reason).toMatch(/not a proxy/);
  });

  it('an unknown method and bytes that are not HTTP are answered in JSON', async () => {
    const method = await rawExchange('BREW /v4/regions HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(method).toMatch(/^HTTP\/1.1 405 /);
    expect(jsonOf(method).errors[0].reason).toMatch(/Unknown HTTP method/);
    const garbage = await rawExchange('GET /v4/regions HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400 /);
    expect(jsonOf(garbage).errors[0].reason).toBe('The request is not valid HTTP/1.1');
  });
});

describe('an internal error', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a 500 with an id in its reason and X-Request-Id, logged with that id and without secrets', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    // A broken service: the simulation's step, which every request runs first, fails; its message quotes what it read.
    // Its timer is stopped meanwhile, so the failure is the request's alone.
    svc.sim.stop();
    const runDue = vi.spyOn(svc.sim, 'runDue').mockImplementation(() => {
      throw new Error('could not read "root_pass=Hunter2-secret" from the job');
    });
    const r = await call(svc, 'POST', '/managed/credentials?token=query-secret', { body: { label: 'c1', password: 'Body-secret-9' } });
    runDue.mockRestore();
    stderr.mockRestore();
    svc.sim.start();

    const [error] = expectRefusal({ ...r, status: 400 }, 400);
    expect(r.status).toBe(500);
    const id = r.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(error!.reason).toBe(`Internal error (id ${id}); please report it with this id`);

    const log = written.join('');
    expect(log).toContain(`vmtui service: internal error ${id} on POST /v4/managed/credentials\n`);
    expect(log).toMatch(/Error: could not read "…" from the job/);
    expect(log).toMatch(/^\s+at /m);
    for (const secret of [OWNER_TOKEN, 'Hunter2-secret', 'Body-secret-9', 'query-secret']) expect(log).not.toContain(secret);
  });

  it('leaves the service answering', async () => {
    expect((await call(svc, 'GET', '/regions')).status).toBe(200);
  });
});

describe('memory stays bounded whatever filters come', () => {
  it('keeps no statement or response per filter shape beyond the caches’ bounds', async () => {
    const fields = ['id', 'group', 'image', 'region'];
    for (let i = 0; i < 300; i++) {
      const filter = { '+or': Array.from({ length: 1 + (i % 50) }, (_, j) => ({ [fields[(Math.floor(i / 50) + j) % 4]!]: `v${j}` })) };
      expect((await call(svc, 'GET', '/vm/instances', { filter })).status).toBe(200);
    }
    // The SQL fixed in code is all that is kept prepared: some thirty statements.
    expect(svc.store.cachedStatements).toBeLessThanOrEqual(40);
    expect(svc.store.responses.size).toBeLessThanOrEqual(svc.store.responses.maxEntries);
    expect(svc.store.responses.size).toBeGreaterThan(0);
  });
});

describe('a body declared in a charset other than UTF-8', () => {
  it('is refused with 415 naming the charset, and UTF-8 declared either way is read', async () => {
    let n = 0;
    const post = (contentType: string) =>
      fetch(`${svc.baseUrl}/tags`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'content-type': contentType },
        body: JSON.stringify({ label: `charset-${++n}` }),
      });
    const refused = await post('application/json; charset=utf-16');
    expect(refused.status).toBe(415);
    expect((await refused.json()).errors[0].reason).toMatch(/UTF-8.*utf-16/);
    expect((await post('application/json; charset=UTF-8')).status).toBe(200);
    expect((await post('application/json;charset="utf8"')).status).toBe(200);
  });
});
