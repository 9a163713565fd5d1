import type { FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { ResourceSchema, Mode, Reader, RuleContext } from '../model/schema.js';
import { validate } from '../model/schema.js';
import { type Auth, authenticate, requireScope } from './auth.js';
import { ApiError, assertValid, notFound, unauthorized } from './errors.js';
import type { Store, Page } from './store.js';
import type { Simulation } from './sim.js';
import { parseFilter, type FilterFields, type SqlFilter } from './filter.js';
import type { Trace } from './journal.js';
import type { Account, Services } from './accounts.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The journal's notes on this request; null on the control interface, which is not journaled. */
    trace: Trace | null;
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export const API_METHODS: Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * Who may call an endpoint: `none` any valid token; `optional` works without a
 * token (public items only) and checks the scope when a token is sent; `public`
 * has no scope listed; otherwise the scopes the token needs, all of them.
 */
export type Scope = 'none' | 'optional' | 'public' | string | string[];

export interface Ctx {
  req: FastifyRequest;
  reply: FastifyReply;
  store: Store;
  sim: Simulation;
  services: Services;
  /** The account the request acts on (its token's): its store, simulation, fault rules and journal. */
  account: Account;
  /** null only on optional/public endpoints called without a token. */
  auth: Auth | null;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** How this request's body is read; what it ignores is reported in X-Ignored-Fields. */
  reader: Reader;
}

/** A response body serialized ahead of time (a cached list page). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A handler returns the response body; undefined answers {}; a reply already sent is left alone. */
export type Handler = (ctx: Ctx) => unknown;

interface RouteDef {
  method: Method;
  path: string;
  scope: Scope;
  handler: Handler;
  /** Scope required for `optional` endpoints when a token is sent. */
  optionalScope?: string;
}

export interface Area {
  name: string;
  /** Served on the beta root only in 4.83.1 (firewalls); later releases serve it on the base root too. */
  betaRoot: boolean;
  routes: RouteDef[];
}

export class Router {
  readonly routes: RouteDef[] = [];
  get(path: string, scope: Scope, handler: Handler, optionalScope?: string) {
    this.routes.push({ method: 'GET', path, scope, handler, optionalScope });
  }
  post(path: string, scope: Scope, handler: Handler) {
    this.routes.push({ method: 'POST', path, scope, handler });
  }
  put(path: string, scope: Scope, handler: Handler) {
    this.routes.push({ method: 'PUT', path, scope, handler });
  }
  delete(path: string, scope: Scope, handler: Handler) {
    this.routes.push({ method: 'DELETE', path, scope, handler });
  }
}

/** Declares an area's endpoints the way the seed's tables list them. */
export function defineArea(name: string, build: (r: Router) => void, opts: { betaRoot?: boolean } = {}): Area {
  const r = new Router();
  build(r);
  return { name, betaRoot: opts.betaRoot ?? false, routes: r.routes };
}

/** Path parameters are integers unless the seed says otherwise. */
const STRING_PARAMS = new Set(['clusterId', 'bucket', 'imageId', 'stackscriptId', 'regionId', 'label', 'address', 'typeId', 'name', '*']);

const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function checkParams(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    if (!STRING_PARAMS.has(name) && !/^\d{1,15}$/.test(value)) throw notFound();
  }
}

/** The scopes a route needs of a token sent to it; none for a route any token (or none) may call. */
function neededScopes(def: RouteDef): string[] {
  if (def.scope === 'optional') return def.optionalScope ? [def.optionalScope] : [];
  if (def.scope === 'public' || def.scope === 'none') return [];
  return Array.isArray(def.scope) ? def.scope : [def.scope];
}

/**
 * Authenticates, then checks the route's scopes. Every authenticated answer,
 * a refusal too, tells the caller its token's scopes and what the endpoint
 * needs (as GitHub's API does): a client whose token may not list
 * /profile/tokens still learns what it may do.
 */
function authorize(ctx: Ctx, def: RouteDef): void {
  const header = ctx.req.headers.authorization;
  ctx.auth = authenticate(ctx.store, header);
  const needed = neededScopes(def);
  if (ctx.auth) {
    ctx.reply.header('X-OAuth-Scopes', scopesHeader(ctx.auth.token.scopes));
    if (needed.length > 0) ctx.reply.header('X-Accepted-OAuth-Scopes', needed.join(' '));
  }
  if (def.scope === 'public') return;
  if (!ctx.auth && def.scope !== 'optional') throw unauthorized('Authentication required: send "Authorization: Bearer <token>"');
  if (ctx.auth && needed.length > 0) requireScope(ctx.auth, needed);
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (reply.request.trace) reply.request.trace.errors = err.errors;
  return reply.code(err.status).headers(err.headers).type('application/json').send({ errors: err.errors });
}

/**
 * Serves one request to its account: due simulation jobs first, then the
 * caller's guard (authentication), then the handler in one transaction;
 * errors in the seed's shape, never a stack trace.
 */
export async function serveRequest(
  account: Account,
  req: FastifyRequest,
  reply: FastifyReply,
  guard: (ctx: Ctx) => void,
  handler: Handler,
  params = (req.params ?? {}) as Record<string, string>,
): Promise<FastifyReply> {
  const { services } = account;
  const ctx: Ctx = {
    req,
    reply,
    store: services.store,
    sim: services.sim,
    services,
    account,
    auth: null,
    params,
    query: (req.query ?? {}) as Record<string, unknown>,
    body: req.body,
    reader: { strict: services.strict === true, ignored: [] },
  };
  try {
    // An account removed while its request was on the way (a latency fault, a slow body): its token no longer works.
    if (account.closed) throw unauthorized('Invalid Token');
    services.sim.runDue();
    guard(ctx);
    checkParams(ctx.params);
    // Every request body of the API is a JSON object; absent is fine for actions.
    if (ctx.body !== undefined && (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body))) {
      throw new ApiError(400, [{ reason: 'The request body must be a JSON object' }]);
    }
    const reading = req.method === 'GET' || req.method === 'HEAD';
    const result = services.store.tx(() => handler(ctx), reading ? 'read' : 'write');
    if (!reading) account.wrote();
    if (reply.sent) return reply;
    reportIgnored(ctx);
    if (result instanceof RawJson) return reply.code(200).type('application/json; charset=utf-8').send(result.text);
    return reply.code(reply.statusCode || 200).send(result === undefined ? {} : result);
  } catch (err) {
    if (err instanceof ApiError) return sendError(reportIgnored(ctx), err);
    throw err;
  } finally {
    if (req.trace && ctx.auth) {
      req.trace.user = ctx.auth.user.username;
      req.trace.access = ctx.auth.decisions ?? null;
    }
  }
}

/** Paths named in one X-Ignored-Fields; a body may hold thousands, a client's header reader takes a few kilobytes. */
export const IGNORED_FIELDS_MAX = 40;
const IGNORED_PATH_MAX = 120;

/** A path as header text: its keys came from the body, so anything outside printable ASCII, a comma or a percent sign is percent-encoded. */
function headerPath(path: string): string {
  const encoded = path.slice(0, IGNORED_PATH_MAX).replace(/[^\x21-\x24\x26-\x2b\x2d-\x7e]/gu, (c) => encodeURIComponent(c.length === 1 && /[\ud800-\udfff]/.test(c) ? '\ufffd' : c));
  return path.length > IGNORED_PATH_MAX ? `${encoded}...` : encoded;
}

/** Scopes named in one X-OAuth-Scopes: the API has fewer than 20 groups, a token's free text may hold thousands of words. */
const SCOPES_HEADER_MAX = 40;

/** A token's scopes as header text, space-separated (the scopes field's own form), each word encoded as headerPath does. */
const scopesHeader = (scopes: string) => scopes.split(/[\s,]+/).filter(Boolean).slice(0, SCOPES_HEADER_MAX).map(headerPath).join(' ');

/**
 * What the tolerant reader took as absent, in the header X-Ignored-Fields, so
 * a client's developer sees it without the request failing.
 */
function reportIgnored(ctx: Ctx): FastifyReply {
  const paths = [...new Set(ctx.reader.ignored)];
  if (paths.length === 0) return ctx.reply;
  if (ctx.req.trace) ctx.req.trace.ignored = paths.slice(0, IGNORED_FIELDS_MAX);
  const named = paths.slice(0, IGNORED_FIELDS_MAX).map(headerPath);
  if (paths.length > IGNORED_FIELDS_MAX) named.push(`(${paths.length - IGNORED_FIELDS_MAX} more)`);
  return ctx.reply.header('X-Ignored-Fields', named.join(', '));
}

/** find-my-way keeps a handler per route; here the route's definition, kept as its store, is all a match needs. */
const definitionOnly = () => undefined;

/**
 * The API's routes, matched with find-my-way (Fastify's own router) behind
 * one Fastify route per root: a Fastify route costs the service's start-up
 * about half a millisecond (its context, its hooks, a turn of avvio's
 * queue), a find-my-way route a small part of that, and the API has over 160.
 */
export class ApiRoutes {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 2048 });

  /** An area's routes under one root. */
  add(prefix: string, area: Area): void {
    for (const def of area.routes) this.router.on(def.method, prefix + toFastifyPath(def.path), definitionOnly, def);
  }

  /** The methods a path takes, for the 405 (and its Allow header) of any other; none for a path the API does not have. */
  methodsOf(url: string): Method[] {
    return API_METHODS.filter((method) => this.router.find(method, url) !== null);
  }

  /** Serves a request to a root; undefined when no route has its path and method. */
  serve(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined {
    const found = this.router.find(req.method as Method, req.url);
    if (!found) return undefined;
    const def = found.store as RouteDef;
    if (req.trace) req.trace.operation = `${def.method} ${def.path}`;
    return serveRequest(req.account, req, reply, (ctx) => authorize(ctx, def), def.handler, found.params as Record<string, string>);
  }
}

// ---- helpers the area handlers share ----

const PAGE_SIZE_MIN = 25;
const PAGE_SIZE_MAX = 100;

function intQuery(ctx: Ctx, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new ApiError(400, [{ field: name, reason: `${name} must be an integer` }]);
  const n = Number(raw);
  if (n < min || n > max) throw new ApiError(400, [{ field: name, reason: `${name} must be between ${min} and ${max}` }]);
  return n;
}

/** page (>= 1, default 1) and page_size (25..100, default 100), per the seed's Limits. */
export function pageParams(ctx: Ctx): { page: number; pageSize: number } {
  return {
    page: intQuery(ctx, 'page', 1, 1, Number.MAX_SAFE_INTEGER),
    pageSize: intQuery(ctx, 'page_size', PAGE_SIZE_MAX, PAGE_SIZE_MIN, PAGE_SIZE_MAX),
  };
}

export function pageSizeParam(ctx: Ctx): number {
  return intQuery(ctx, 'page_size', PAGE_SIZE_MAX, PAGE_SIZE_MIN, PAGE_SIZE_MAX);
}

export function andFilters(...filters: (SqlFilter | undefined)[]): SqlFilter | undefined {
  const present = filters.filter((f): f is SqlFilter => f !== undefined);
  if (present.length === 0) return undefined;
  return {
    where: present.map((f) => `(${f.where})`).join(' AND '),
    params: present.flatMap((f) => f.params),
    orderBy: present.find((f) => f.orderBy)?.orderBy,
  };
}

export interface ListOptions<T> {
  parent?: string | null;
  /** Filterable fields; without them any X-Filter is refused. */
  filterable?: FilterFields;
  /** Extra restriction, e.g. what a restricted user may see. */
  restrict?: SqlFilter;
  descending?: boolean;
  present: (row: T) => unknown;
}

/** A paged list: page params, X-Filter, restriction, then each row presented. */
export function listPage<T extends Record<string, unknown>>(ctx: Ctx, kind: string, opts: ListOptions<T>): Page<unknown> {
  const { page, pageSize } = pageParams(ctx);
  const header = ctx.req.headers['x-filter'];
  const userFilter = parseFilter(header, opts.filterable ?? {});
  const result = ctx.store.page<T>(kind, {
    parent: opts.parent,
    filter: andFilters(userFilter, opts.restrict),
    page,
    pageSize,
    descending: opts.descending,
  });
  return { ...result, data: result.data.map(opts.present) };
}

/**
 * listPage for hot lists: the serialized page is reused while neither the
 * listed kind nor any kind its presenter reads (`reads`) has been written. The
 * presenter must depend on nothing else (not on the clock).
 */
export function cachedListPage<T extends Record<string, unknown>>(ctx: Ctx, kind: string, reads: readonly string[], opts: ListOptions<T>): RawJson {
  const key = JSON.stringify([
    kind,
    opts.parent ?? null,
    ctx.query.page ?? null,
    ctx.query.page_size ?? null,
    ctx.req.headers['x-filter'] ?? null,
    opts.restrict ?? null,
    opts.descending ?? false,
    ctx.store.versionOf([kind, ...reads]),
  ]);
  let text = ctx.store.responses.get(key);
  if (text === undefined) {
    text = JSON.stringify(listPage(ctx, kind, opts));
    ctx.store.responses.set(key, text);
  }
  return new RawJson(text);
}

/** The rule context of a request's body: its mode, the stored record on update, the request's reader, and the account's time. */
export const readingOf = (ctx: Ctx, mode: Mode, current?: Record<string, unknown>): RuleContext => ({ mode, current, reader: ctx.reader, now: ctx.store.clock.now() });

/** Validates the body against the schema and returns the accepted fields, or throws 400 with every problem. */
export function bodyFor(ctx: Ctx, schema: ResourceSchema, mode: Mode, current?: Record<string, unknown>): Record<string, unknown> {
  const body = ctx.body === undefined ? {} : ctx.body;
  const { value, errors } = validate(schema, body, readingOf(ctx, mode, current));
  assertValid(errors);
  return value;
}

/** Fetches a row or answers 404. */
export function mustGet<T extends Record<string, unknown>>(ctx: Ctx, kind: string, id: string | number, what = 'Not found'): T {
  const row = ctx.store.get<T>(kind, id);
  if (!row) throw notFound(what);
  return row;
}
