import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { ApiError } from './errors.js';
import { answerClientError, answerConnect, BODY_LIMIT, frameworkRefusal, internalError } from './failures.js';
import { BODY_MAX_DEPTH, parseJsonInput } from './json-input.js';
import { API_METHODS, ApiRoutes, sendError } from './route.js';
import { areas, mountExtras } from './areas/index.js';
import { BASE_ROOT, BETA_ROOT } from './roots.js';
import type { Accounts } from './accounts.js';
import { observeRequests } from './request-hooks.js';

/** Paths 4.83.1 serves on the beta root only (firewalls); later releases moved them to the base root. */
export const BETA_ONLY_PATHS = [...new Set(areas.filter((a) => a.betaRoot).flatMap((a) => a.routes.map((r) => r.path.split('/{')[0]!)))];

/**
 * The beta root serves every path of the base root: its requests are routed
 * to the base root's routes, so each route is registered once (registration
 * is most of the service's start-up). `betaOnly` paths (under --strict) stay
 * on the beta root, registered there alone.
 */
export function routedUrl(url: string, betaOnly: readonly string[] = []): string {
  if (!url.startsWith(`${BETA_ROOT}/`)) return url;
  const rest = url.slice(BETA_ROOT.length);
  const path = rest.split('?', 1)[0]!;
  return betaOnly.some((p) => path === p || path.startsWith(`${p}/`)) ? url : BASE_ROOT + rest;
}

const noSchemas = (): never => {
  throw new Error('routes carry no Fastify schemas: src/model checks requests');
};

export interface AppOptions {
  /** The server to answer on, given Fastify's request handler: the port the service opened first (src/server/port.ts). */
  server: FastifyServerFactory;
}

/** The service's routes for its accounts: each request acts on its token's account. */
export function buildApp(accounts: Accounts, opts: AppOptions): FastifyInstance {
  const services = accounts.primary.services;
  // Strict serves firewalls where 4.83.1 does, on the beta root only; tolerant on both roots, as later releases do.
  const betaOnly = services.strict ? BETA_ONLY_PATHS : [];
  const app = Fastify({
    // The service logs nothing: Fastify's logger (pino) is left out of the bundle (scripts/bundle-patches.mjs).
    logger: false,
    serverFactory: opts.server,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // The API has no HEAD: a HEAD is a wrong method (405), not a route of its own per GET.
    exposeHeadRoutes: false,
    rewriteUrl: (req) => routedUrl(req.url ?? '/', betaOnly),
    // Requests are checked by src/model's rules, never by Fastify's JSON schemas: its schema compilers (Ajv, fast-json-stringify) are not even bundled.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
    // What Fastify and Node refuse themselves comes out in the seed's shape too.
    frameworkErrors: (err, _req, reply) => sendError(reply, frameworkRefusal(err) ?? new ApiError(400, [{ reason: 'The request could not be read' }])),
    clientErrorHandler: answerClientError,
  });
  app.server.on('connect', answerConnect);
  observeRequests(app, accounts);
  // The added accounts end with the service; the primary's store is its service's to close.
  app.addHook('onClose', (_app, done) => {
    accounts.closeAll();
    done();
  });

  // An empty body on POST is normal (actions such as boot); parse it as absent.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // JSON on the wire is UTF-8 (RFC 8259); a body declared in another charset would be read as garbage.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return done(new ApiError(415, [{ reason: `Send the request body as UTF-8 JSON, not ${charset}` }]), undefined);
    }
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonInput(text, { name: 'The request body', maxDepth: BODY_MAX_DEPTH }));
    } catch (err) {
      done(err as ApiError, undefined);
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const refusal = err instanceof ApiError ? err : frameworkRefusal(err as { statusCode?: number; code?: string });
    if (refusal && refusal.status < 500) return sendError(reply, refusal);
    const { id, error } = internalError(err, { method: req.method, url: req.url });
    return sendError(reply.header('X-Request-Id', id), error);
  });

  const routes = new ApiRoutes();
  for (const area of areas) routes.add(services.strict && area.betaRoot ? BETA_ROOT : BASE_ROOT, area);
  // A path the API does not have, or a method the path does not take.
  const notFound = (req: FastifyRequest, reply: FastifyReply) => {
    // req.url is rewritten already: beta requests for base paths name the base root here.
    const methods = routes.methodsOf(req.url);
    if (methods.length > 0) {
      return reply
        .code(405)
        .header('Allow', methods.join(', '))
        .send({ errors: [{ reason: `Method not allowed; this path accepts ${methods.join(', ')}` }] });
    }
    const onRoot = req.url.startsWith(`${BASE_ROOT}/`) || req.url.startsWith(`${BETA_ROOT}/`);
    return sendError(reply, new ApiError(404, [{ reason: onRoot ? 'Not found' : `No API at ${req.url.split('?')[0]}; the roots are ${BASE_ROOT} and ${BETA_ROOT}` }]));
  };
  app.setNotFoundHandler(notFound);
  for (const root of [BASE_ROOT, BETA_ROOT]) {
    app.route({ method: API_METHODS, url: `${root}/*`, handler: (req, reply) => routes.serve(req, reply) ?? notFound(req, reply) });
  }
  mountExtras(app, accounts);
  return app;
}
