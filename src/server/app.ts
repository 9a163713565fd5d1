import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { ApiError } from './errors.js';
import { API_METHODS, ApiRoutes, sendError, type Services } from './route.js';
import { areas, mountExtras } from './areas/index.js';
import { BASE_ROOT, BETA_ROOT } from './roots.js';

const BODY_LIMIT = 1024 * 1024;

/** Maps fastify's own failures (bad JSON, huge bodies, wrong media type) to the seed's error shape. */
function translate(err: { statusCode?: number; code?: string; message?: string }): ApiError {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, [{ reason: 'The request body is not valid JSON' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, [{ reason: `The request body is larger than ${BODY_LIMIT / 1024} KiB` }]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, [{ reason: 'Send the request body as application/json' }]);
  }
  if (err instanceof SyntaxError || err.statusCode === 400) return new ApiError(400, [{ reason: 'The request could not be read' }]);
  if (err.statusCode === 413) return new ApiError(413, [{ reason: 'The request body is too large' }]);
  return new ApiError(500, [{ reason: 'Internal error; the request was not applied' }]);
}

/** Paths of the areas served on the beta root only (firewalls). */
const betaOnlyPaths = [...new Set(areas.filter((a) => a.betaOnly).flatMap((a) => a.routes.map((r) => r.path.split('/{')[0]!)))];

/**
 * The beta root serves every path of the base root as well as its own: its
 * requests for the others are routed to the base root's routes, so each
 * route is registered once (registration is most of the service's start-up).
 */
export function routedUrl(url: string): string {
  if (!url.startsWith(`${BETA_ROOT}/`)) return url;
  const rest = url.slice(BETA_ROOT.length);
  const path = rest.split('?', 1)[0]!;
  return betaOnlyPaths.some((p) => path === p || path.startsWith(`${p}/`)) ? url : BASE_ROOT + rest;
}

const noSchemas = (): never => {
  throw new Error('routes carry no Fastify schemas: src/model checks requests');
};

export interface AppOptions {
  /** The server to answer on, given Fastify's request handler: the port the service opened first (src/server/port.ts). */
  server: FastifyServerFactory;
}

export function buildApp(services: Services, opts: AppOptions): FastifyInstance {
  const app = Fastify({
    // The service logs nothing: Fastify's logger (pino) is left out of the bundle (scripts/bundle-patches.mjs).
    logger: false,
    serverFactory: opts.server,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // The API has no HEAD: a HEAD is a wrong method (405), not a route of its own per GET.
    exposeHeadRoutes: false,
    rewriteUrl: (req) => routedUrl(req.url ?? '/'),
    // Requests are checked by src/model's rules, never by Fastify's JSON schemas: its schema compilers (Ajv, fast-json-stringify) are not even bundled.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
  });

  // An empty body on POST is normal (actions such as boot); parse it as absent.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, [{ reason: 'The request body is not valid JSON' }]), undefined);
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const apiError = err instanceof ApiError ? err : translate(err as { statusCode?: number; code?: string });
    if (apiError.status >= 500) req.log.error({ err }, 'unhandled error');
    return sendError(reply, apiError);
  });

  const routes = new ApiRoutes(services);
  for (const area of areas) routes.add(area.betaOnly ? BETA_ROOT : BASE_ROOT, area);
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
  mountExtras(app, services);
  return app;
}
