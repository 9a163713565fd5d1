import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccountEvent, EventEmit, entityUrl } from '../../model/events.js';
import { INSTANCE_STATUSES } from '../../model/instances.js';
import { IssueOpen, ManagedIssue, ManagedService, ServiceStatusChange, type ServiceStatus } from '../../model/managed.js';
import { defineResource, present, type FieldError } from '../../model/schema.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import { emitEvent, type EntityRef, type EventStatus } from '../events.js';
import { bodyFor, defineArea, mustGet, serveRequest, type Ctx, type Handler } from '../route.js';
import { isoSeconds } from '../../model/time.js';
import { openIssue, resolveIssue, setServiceStatus } from '../monitoring.js';
import { acceptBody } from './managed-common.js';
import { CONTROL_PREFIX } from '../request-hooks.js';

/**
 * The control interface: how a developer (or a test) makes the provider's side
 * happen: monitoring issues, service and instance states, arbitrary events.
 * It lives beside the API roots, not under them, and answers only the control token.
 */

/** Nothing of the control interface is served under the API roots; mountControl serves it at /__control. */
export default defineArea('control', () => {});

const InstanceStatusChange = defineResource('instance_status', {
  status: { kind: 'enum', title: 'Status', values: INSTANCE_STATUSES, required: true },
});

export function checkControlToken(header: string | undefined, controlToken: string | undefined): void {
  if (!header) throw unauthorized('The control interface needs "Authorization: Bearer <control token>"');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('The Authorization header must be "Bearer <control token>"');
  const given = Buffer.from(m[1]!);
  const wanted = Buffer.from(controlToken ?? '');
  if (wanted.length === 0 || given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw forbidden('That is not the control token');
}

/** For a control route the shared mount cannot serve (it answers by itself: a stream, an import awaited): the refusals serveRequest and mountControlRoutes give the rest. */
export function checkControlRequest(req: FastifyRequest): void {
  if (req.account.closed) throw unauthorized('Invalid Token');
  checkControlToken(req.headers.authorization, req.account.services.controlToken);
}

const missingServices = (ctx: Ctx, ids: unknown): FieldError[] =>
  Array.isArray(ids)
    ? ids.flatMap((id, i) =>
        Number.isInteger(id) && !ctx.store.get('managed_service', id as number) ? [{ field: `services.${i}`, reason: `service ${id} does not exist` }] : [],
      )
    : [];

/** A route of the control interface, its path under /__control. */
export type ControlRoute = [method: 'GET' | 'POST' | 'DELETE', path: string, handler: Handler];

const routes: ControlRoute[] = [
  ['POST', '/managed/issues', (ctx) => {
    const body = acceptBody(ctx, IssueOpen, 'create', undefined, (v) => missingServices(ctx, v.services));
    const issue = openIssue(ctx.store, [...new Set(body.services as number[])], { label: body.label as string | undefined });
    return present(ManagedIssue, issue);
  }],
  ['POST', '/managed/issues/:id/resolve', (ctx) => {
    if (!resolveIssue(ctx.store, Number(ctx.params.id))) throw notFound('Issue not found');
  }],
  ['POST', '/managed/services/:id/status', (ctx) => {
    const { id } = mustGet(ctx, 'managed_service', ctx.params.id!, 'Service not found');
    const body = bodyFor(ctx, ServiceStatusChange, 'create');
    return present(ManagedService, setServiceStatus(ctx.store, id as number, body.status as ServiceStatus)!);
  }],

  ['POST', '/vm/instances/:id/status', (ctx) => {
    const vm = mustGet(ctx, 'vm', ctx.params.id!, 'Instance not found');
    const { status } = bodyFor(ctx, InstanceStatusChange, 'create');
    ctx.store.put('vm', vm.id as number, { ...vm, status, updated: isoSeconds(ctx.store.clock.now()) });
    return { id: vm.id, status };
  }],

  ['POST', '/events', (ctx) => {
    const body = bodyFor(ctx, EventEmit, 'create');
    const entity = body.entity as Omit<EntityRef, 'url'> & { url?: string } | null;
    const event = emitEvent(ctx.store, {
      action: body.action as string,
      entity: entity && { ...entity, url: entity.url ?? entityUrl(entity.type, entity.id) },
      status: body.status as EventStatus | undefined,
      message: body.message as string | null | undefined,
    });
    return present(AccountEvent, event);
  }],
];

/** Serves the control interface: same error shape, one transaction per request, due simulation jobs first. */
export function mountControl(app: FastifyInstance): void {
  // Whatever waits for the service to be up (a CI step, a supervisor) holds no token; the answer tells it nothing else.
  app.get(`${CONTROL_PREFIX}/health`, (_req, reply) => reply.send({ ok: true }));
  mountControlRoutes(app, routes);
}

/**
 * Serves routes of the control interface (this module's, and the other
 * control-* modules'), each acting on the account of the token that calls
 * it, to that account's control token only; `guard` adds a check of its own.
 */
export function mountControlRoutes(app: FastifyInstance, routes: readonly ControlRoute[], guard?: (ctx: Ctx) => void): void {
  for (const [method, path, handler] of routes) {
    app.route({
      method,
      url: CONTROL_PREFIX + path,
      handler: (req, reply) =>
        serveRequest(req.account, req, reply, (ctx) => {
          checkControlToken(req.headers.authorization, ctx.services.controlToken);
          guard?.(ctx);
        }, handler),
    });
  }
}
