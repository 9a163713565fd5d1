import { createJobsStore } from '../../src/store/jobs.js';
import { uncachedIo } from '../../src/store/data.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient, type Method, type RequestOptions } from '../../src/api/client.js';
import type { ScreenCtx, ScreenDef } from '../../src/app/screen.js';
import { itemPath } from '../../src/model/response.js';
import { screens } from '../../src/screens/index.js';

/**
 * Every endpoint of the seed is called by some view. Two ways a request is
 * counted as a view's:
 *  - driving: every screen's list spec is run against a recording client
 *    (its path, loader, count, detail fetch or the row's own endpoint, form
 *    submits, delete, actions,
 *    loaded form choices) with a stand-in for every row, param and body;
 *  - reference: every function exported by src/api/*.ts is run against the
 *    recording client the same way, and its requests count when the app's
 *    code outside src/api (what src/cli.ts imports, transitively) names it,
 *    or names an api function whose source names it.
 * Requests are compared by method and path template, `{…}` params normalized.
 */

/** The seed's endpoint tables, as the repository keeps them. */
const SEED = join(import.meta.dirname, 'seed-endpoints.md');
const SRC = join(import.meta.dirname, '../../src');
/** What every id, label, param and body stands in as; a path segment equal to it is a `{param}`. */
const ARG = 'P4R4M';

/** (method, path) from the seed's endpoint tables; `{beta_url}` paths are on the beta root. */
function seedEndpoints(): string[] {
  const rows = readFileSync(SEED, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const m = /^\| (GET|POST|PUT|DELETE) \| (\S+) \|/.exec(line);
      return m ? [`${m[1]} ${m[2]!.replace(/\{[^}/]+\}/g, '{}').replace(/^\{\}(?=\/)/, '{beta}')}`] : [];
    });
  return [...new Set(rows)];
}

/** An id, row, param bag or body all at once: any property is another one, and as text it is ARG. */
function standIn(): any {
  const proxy: any = new Proxy(
    {},
    {
      get: (_t, prop) => {
        if (prop === Symbol.toPrimitive || prop === 'toString' || prop === 'valueOf') return () => ARG;
        if (prop === 'then' || typeof prop === 'symbol') return undefined;
        return proxy;
      },
    },
  );
  return proxy;
}

/** A row whose every field is ARG: what the generic list's d reads from the row's own endpoint. */
const flatRow = () =>
  new Proxy(
    {},
    {
      get: (_t, prop) => (typeof prop === 'string' ? ARG : undefined),
      getOwnPropertyDescriptor: (_t, prop) => (typeof prop === 'string' ? { value: ARG, writable: true, enumerable: true, configurable: true } : undefined),
    },
  );

class RecordingClient extends ApiClient {
  readonly seen = new Set<string>();
  constructor() {
    super({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'recording', retryDelaysMs: [], timeoutMs: 1 });
  }
  override async request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
    // A stand-in id reads as ARG, or NaN once made a number; a param a screen never got reads as undefined.
    const bare = path.split('?')[0]!.replace(new RegExp(`(?<=/)(${ARG}|NaN|undefined)(?=/|$)`, 'g'), '{}');
    this.seen.add(`${method} ${opts.root === 'beta' ? '{beta}' : ''}${bare}`);
    return { data: [], page: 1, pages: 1, results: 0 } as T;
  }
}

/** Calls fn and waits for it, whatever it throws: only its requests matter. */
async function drive(fn: unknown, ...args: unknown[]): Promise<void> {
  if (typeof fn !== 'function') return;
  try {
    await fn(...args);
  } catch {
    // A stand-in is not a real row: code past the request may trip on it.
  }
}

function ctxFor(client: ApiClient): ScreenCtx {
  return { client, params: standIn(), invalidate: () => {}, notify: () => {}, push: () => {}, jobs: createJobsStore() };
}

async function driveForm(form: any, client: ApiClient, row: unknown) {
  if (!form) return;
  await drive(form.submit, standIn(), ctxFor(client), row);
  for (const override of Object.values<any>(form.overrides ?? {})) await drive(override.choices, client, { row, params: standIn(), values: standIn() });
}

async function driveScreen(def: ScreenDef, client: RecordingClient): Promise<void> {
  await drive(def.count, client);
  const list = def.list;
  if (!list) return;
  const row = standIn();
  const ctx = ctxFor(client);
  const path = typeof list.path === 'function' ? list.path(standIn()) : list.path;
  // Outside a data store, as :all reads another account: the lists a loader joins are read straight from the client.
  if (list.load) await drive(list.load, client, standIn(), undefined, uncachedIo(client));
  else await drive(() => client.page(path, { root: list.root }));
  // d: the detail's own fetch, else GET of the row's own endpoint (src/components/list/use-record.ts).
  if (list.detail?.fetch) await drive(list.detail.fetch, row, ctx);
  else {
    const own = itemPath(path, flatRow());
    if (own) await drive(() => client.get(own, { root: list.root }));
  }
  await driveForm(list.create, client, undefined);
  await driveForm(list.edit, client, row);
  await drive(list.delete?.submit, row, ctx);
  for (const action of list.actions ?? []) {
    await drive(action.run, row, ctx);
    await driveForm(action.form, client, row);
  }
}

/**
 * The app's own code the running app loads: every file reachable by imports from
 * src/cli.ts, without the API layer (counted by name), the model and the
 * service. A file no registered screen or store imports does not count.
 */
function viewFiles(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)) {
      const base = join(dirname(file), m[1]!).replace(/\.js$/, '');
      const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => existsSync(f));
      if (found) visit(found);
    }
  };
  visit(join(SRC, 'cli.ts'));
  return [...seen].filter((f) => !/\/src\/(api|model|server)\//.test(f));
}

/** Requests of each function exported by src/api, by name, with the api names its source mentions. */
async function apiFunctions(): Promise<Map<string, { requests: Set<string>; mentions: string }>> {
  const out = new Map<string, { requests: Set<string>; mentions: string }>();
  for (const file of readdirSync(join(SRC, 'api')).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(join(SRC, 'api', file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function' || /^[A-Z]/.test(name)) continue;
      const client = new RecordingClient();
      await drive(value, client, standIn(), standIn(), standIn(), standIn());
      out.set(name, { requests: client.seen, mentions: String(value) });
    }
  }
  return out;
}

describe('endpoint coverage', { timeout: 60_000 }, () => {
  it('every endpoint of the seed is called by some view', async () => {
    const seed = seedEndpoints();
    // The seed's tables as read: a parse gone wrong must not pass as "nothing missing".
    expect(seed.length).toBeGreaterThan(140);
    expect(seed).toContain('GET /networking/ipv6/ranges');
    expect(seed).toContain('GET {beta}/networking/firewalls/{}/rules');

    const called = new Set<string>();
    const driven = new RecordingClient();
    for (const def of screens) await driveScreen(def, driven);
    for (const r of driven.seen) called.add(r);

    const api = await apiFunctions();
    const views = viewFiles();
    expect(views.some((f) => f.endsWith('src/screens/networking/ipv6.ts'))).toBe(true);
    const viewText = views.map((f) => readFileSync(f, 'utf8')).join('\n');
    const named = (text: string, name: string) => new RegExp(`\\b${name}\\b`).test(text);
    const reached = new Set([...api.keys()].filter((name) => named(viewText, name)));
    // An api function a reached one calls by name is reached too.
    for (let grew = true; grew; ) {
      grew = false;
      for (const [name, fn] of api) {
        if (reached.has(name) || ![...reached].some((by) => named(api.get(by)!.mentions, name))) continue;
        reached.add(name);
        grew = true;
      }
    }
    for (const name of reached) for (const r of api.get(name)!.requests) called.add(r);

    // The recording itself works: most views' requests are the seed's, spelled the same way, and
    // no stand-in is left in a path. (The client also calls endpoints the seed's tables do not list:
    // instance boot/reboot/shutdown, types, events.)
    expect([...driven.seen].filter((r) => seed.includes(r)).length).toBeGreaterThan(100);
    expect([...called].filter((r) => /P4R4M|object Object|\/\//.test(r))).toEqual([]);

    const uncalled = seed.filter((e) => !called.has(e));
    expect(uncalled, `seed endpoints no view calls:\n${uncalled.join('\n')}`).toEqual([]);
  });
});
