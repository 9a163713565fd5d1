import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas } from '../../src/server/areas/index.js';
import { OBJECT_DATA_ROOT } from '../../src/server/roots.js';
import { BASE_ROOT, BETA_ROOT } from '../../src/server/roots.js';
import type { ResourceSchema } from '../../src/model/schema.js';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { bodyText, filterValue, modelSchemas, pathValue, queryText, toJson } from './fuzz-arbitraries.js';

/**
 * Property: whatever a client sends to whichever route, the service answers
 * in time, below 500, and every refusal is in the seed's errors shape. CI runs
 * a fixed seed and a few requests per route; VMTUI_FUZZ_RUNS=20000 (and
 * VMTUI_FUZZ_SEED) start a longer or a different run.
 */
const RUNS = Number(process.env.VMTUI_FUZZ_RUNS ?? 600);
const SEED = Number(process.env.VMTUI_FUZZ_SEED ?? 4_831);
/** A request that takes this long counts as a hang. */
const HANG_MS = 10_000;

interface Route {
  method: string;
  /** With {param} placeholders, under its root. */
  path: string;
}

/** The API's routes under their roots, the control interface (its token is the owner's here) and pre-signed object data. */
const routes: Route[] = [
  ...areas.flatMap((a) => a.routes.map((r) => ({ method: r.method, path: (a.betaRoot ? BETA_ROOT : BASE_ROOT) + r.path }))),
  // A base path asked for under the beta root, which serves it too.
  { method: 'GET', path: `${BETA_ROOT}/vm/instances` },
  ...['/managed/issues', '/managed/issues/{issueId}/resolve', '/managed/services/{serviceId}/status', '/vm/instances/{vmId}/status', '/events'].map((p) => ({ method: 'POST', path: `/__control${p}` })),
  { method: 'GET', path: '/__control/health' },
  ...[['GET', ''], ['POST', ''], ['DELETE', '/{name}'], ['POST', '/{name}/restore'], ['GET', '/{name}/export']].map(([method, p]) => ({ method: method!, path: `/__control/snapshots${p}` })),
  { method: 'POST', path: '/__control/reset' },
  // Fault rules are read and removed here, never added: a valid random rule (a drop on *) would fault the rest of the run.
  ...[['GET', '/faults'], ['GET', '/faults/{faultId}'], ['DELETE', '/faults/{faultId}'], ['DELETE', '/faults'], ['GET', '/requests']].map(([method, p]) => ({ method: method!, path: `/__control${p}` })),
  // Accounts are read and removed here (the primary, the only one, stays): a valid random body would add one per hit.
  ...[['GET', '/accounts'], ['GET', '/accounts/{accountId}'], ['DELETE', '/accounts/{accountId}']].map(([method, p]) => ({ method: method!, path: `/__control${p}` })),
  ...['GET', 'PUT', 'DELETE'].map((method) => ({ method, path: `${OBJECT_DATA_ROOT}/{clusterId}/{bucket}/{label}` })),
];

let svc: RunningService;
let schemas: ResourceSchema[];
/** Ids that exist, by path parameter name, read from the lists the API serves. */
const pools = new Map<string, string[]>();

const get = async (path: string) => {
  const res = await request(svc.origin + path, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
  const text = await res.body.text();
  return res.statusCode === 200 ? (JSON.parse(text) as { data?: Record<string, unknown>[] }) : undefined;
};

/** Fills the pools from every list whose own parameters are known already: three passes reach the nested lists. */
async function harvest(): Promise<void> {
  for (let pass = 0; pass < 3; pass++) {
    for (const route of routes) {
      const m = /^(.*)\/\{(\w+)\}$/.exec(route.path);
      if (route.method !== 'GET' || !m || pools.has(m[2]!) || !routes.some((r) => r.method === 'GET' && r.path === m[1])) continue;
      const parents = [...m[1]!.matchAll(/\{(\w+)\}/g)].map((p) => p[1]!);
      if (parents.some((p) => !pools.has(p))) continue;
      // The last parent is tried with each of its ids: the first cluster may hold no bucket.
      const last = parents.at(-1);
      for (const lastValue of last ? pools.get(last)! : ['']) {
        const list = m[1]!.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(name === last ? lastValue : pools.get(name)![0]!));
        const items = (await get(list))?.data ?? [];
        // A list under another's path names it by the parameter's word: the buckets list gives clusterId its `cluster`.
        const named = m[2]!.replace(/Id$/, '');
        const ids = [...new Set(items.map((item) => item[named] ?? item.id ?? item.address ?? item.label).filter((v) => typeof v === 'string' || typeof v === 'number').map(String))];
        if (ids.length === 0) continue;
        if (last && last !== parents[0]) pools.set(last, [lastValue, ...pools.get(last)!.filter((v) => v !== lastValue)]);
        pools.set(m[2]!, ids.slice(0, 20));
        break;
      }
    }
  }
}

beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  schemas = await modelSchemas();
  await harvest();
}, 60_000);
afterAll(() => svc?.close());

/** The schemas a route most likely takes: those whose name's words start the path's words (nb_config ~ /nodebalancers/{id}/configs). */
function schemasFor(route: Route): ResourceSchema[] {
  const words = route.path.toLowerCase().split(/[/{}-]+/).filter((w) => w && !w.endsWith('id'));
  const last = words.at(-1) ?? '';
  const scored = schemas.map((s) => ({ s, score: s.name.toLowerCase().split(/[_-]/).filter((t) => t.length > 1 && words.some((w) => w.startsWith(t) || (t.startsWith(w) && w.length > 2))).length + (last.startsWith(s.name.split('_').at(-1)!) ? 1 : 0) }));
  const best = Math.max(...scored.map((x) => x.score));
  return best > 0 ? scored.filter((x) => x.score === best).map((x) => x.s) : schemas;
}

interface Sent {
  method: string;
  url: string;
  token: string | null;
  body?: string;
  filter?: string;
}

/** Bodies and filters of each schema, built once: building arbitraries costs more than a request. */
const bySchema = new Map<ResourceSchema, { body: fc.Arbitrary<string>; filter: fc.Arbitrary<string> }>();
function inputsOf(schema: ResourceSchema) {
  let inputs = bySchema.get(schema);
  if (!inputs) bySchema.set(schema, (inputs = { body: bodyText(schema), filter: filterValue(schema).map(toJson) }));
  return inputs;
}

function requestFor(route: Route): fc.Arbitrary<Sent> {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const reads = route.method === 'GET' || route.method === 'DELETE';
  const inputs = (s: ResourceSchema) =>
    fc.record({
      body: fc.option(inputsOf(s).body, { freq: reads ? 6 : 1, nil: undefined }),
      filter: route.method === 'GET' ? fc.option(inputsOf(s).filter, { freq: 2, nil: undefined }) : fc.constant(undefined),
    });
  const likely = schemasFor(route);
  return fc
    .record({
      values: fc.tuple(...params.map((p) => pathValue(pools.get(p) ?? []))),
      query: queryText,
      token: fc.constantFrom<string | null>(OWNER_TOKEN, OWNER_TOKEN, OWNER_TOKEN, RESTRICTED_TOKEN, null, 'not-a-token'),
      // Mostly the route's own schema; sometimes any other.
      inputs: fc.oneof({ weight: 4, arbitrary: fc.oneof(...likely.map(inputs)) }, { weight: 1, arbitrary: fc.oneof(...schemas.map(inputs)) }),
    })
    .map(({ values, query, token, inputs: { body, filter } }) => {
      let i = 0;
      const url = route.path.replace(/\{\w+\}/g, () => values[i++]!) + query;
      return { method: route.method, url, token, body, filter };
    });
}

const STACK_TRACE = /\bat .+\.(ts|js|mjs):\d+|node:internal|FST_ERR_/;

/** Sends one request; the property fails on a hang, a 5xx, or a refusal outside the errors shape. */
async function check(sent: Sent): Promise<void> {
  const headers: Record<string, string> = {};
  if (sent.token) headers.authorization = `Bearer ${sent.token}`;
  if (sent.body !== undefined) headers['content-type'] = 'application/json';
  // A header goes out as bytes: its UTF-8, as clients send JSON (undici takes byte strings only).
  if (sent.filter !== undefined) headers['x-filter'] = Buffer.from(sent.filter).toString('latin1');
  const res = await request(svc.origin + sent.url, {
    method: sent.method as 'GET',
    headers,
    body: sent.body,
    headersTimeout: HANG_MS,
    bodyTimeout: HANG_MS,
  });
  const text = await res.body.text();
  const what = `${sent.method} ${sent.url.slice(0, 200)} -> ${res.statusCode} ${text.slice(0, 300)}`;
  expect(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode < 400) return;
  expect(String(res.headers['content-type']), what).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { errors?: unknown };
  expect(Array.isArray(body.errors) && body.errors.length > 0, what).toBe(true);
  for (const e of body.errors as { field?: unknown; reason?: unknown }[]) {
    expect(typeof e.reason, what).toBe('string');
    if (e.field !== undefined) expect(typeof e.field, what).toBe('string');
  }
  expect(text, what).not.toMatch(STACK_TRACE);
}

describe('the service under generated hostile requests', () => {
  it('finds ids to aim at', () => {
    // Without them every request would stop at a 404 before its body is read.
    for (const param of ['vmId', 'contactId', 'nodeBalancerId', 'configId', 'firewallId', 'clusterId', 'bucket']) expect(pools.get(param)?.length, param).toBeGreaterThan(0);
  });

  it(
    `answers every route below 500, in the errors shape, in time (${RUNS} requests, seed ${SEED})`,
    async () => {
      const perRoute = Math.max(1, Math.ceil(RUNS / routes.length));
      for (const [i, route] of routes.entries()) {
        await fc.assert(
          fc.asyncProperty(requestFor(route), (sent) => check(sent)),
          { seed: SEED + i, numRuns: perRoute, endOnFailure: true },
        );
      }
    },
    Math.max(60_000, RUNS * 200),
  );
});
