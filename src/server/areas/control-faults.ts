import type { FastifyInstance } from 'fastify';
import { FaultRule } from '../../model/faults.js';
import { badRequest, notFound } from '../errors.js';
import { FAULT_RULES_MAX, type FaultSpec } from '../faults.js';
import { bodyFor, type Ctx } from '../route.js';
import { mountControlRoutes, type ControlRoute } from './control.js';

/** Faults on demand, under /__control/faults: the calling account's rules, in the service's memory only, gone when it stops. */

/** serveRequest has checked the id is digits. */
const ruleId = (ctx: Ctx): number => Number(ctx.params.id);

const page = <T>(data: T[]) => ({ data, page: 1, pages: 1, results: data.length });

const routes: ControlRoute[] = [
  ['POST', '/faults', (ctx) => {
    const { faults } = ctx.account;
    const body = bodyFor(ctx, FaultRule, 'create');
    if (faults.size >= FAULT_RULES_MAX) throw badRequest(`There are ${FAULT_RULES_MAX} fault rules already; DELETE /__control/faults/{id} one first`);
    return faults.add({ ...body, method: body.method ?? '*', only_when_named: body.only_when_named ?? false } as FaultSpec);
  }],
  ['GET', '/faults', (ctx) => page(ctx.account.faults.list())],
  ['GET', '/faults/:id', (ctx) => {
    const rule = ctx.account.faults.get(ruleId(ctx));
    if (!rule) throw notFound('Fault rule not found');
    return rule;
  }],
  ['DELETE', '/faults/:id', (ctx) => {
    if (!ctx.account.faults.remove(ruleId(ctx))) throw notFound('Fault rule not found');
  }],
  ['DELETE', '/faults', (ctx) => {
    ctx.account.faults.clear();
  }],
];

export function mountControlFaults(app: FastifyInstance): void {
  mountControlRoutes(app, routes);
}
