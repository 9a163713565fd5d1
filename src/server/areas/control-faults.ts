import type { FastifyInstance } from 'fastify';
import { FaultRule } from '../../model/faults.js';
import { badRequest, notFound } from '../errors.js';
import { FAULT_RULES_MAX, type FaultRules, type FaultSpec } from '../faults.js';
import { bodyFor, type Ctx, type Services } from '../route.js';
import { mountControlRoutes, type ControlRoute } from './control.js';

/** Faults on demand, under /__control/faults: the rules are the service's memory only, gone when it stops. */

/** serveRequest has checked the id is digits. */
const ruleId = (ctx: Ctx): number => Number(ctx.params.id);

const page = <T>(data: T[]) => ({ data, page: 1, pages: 1, results: data.length });

function routes(faults: FaultRules): ControlRoute[] {
  return [
    ['POST', '/faults', (ctx) => {
      const body = bodyFor(ctx, FaultRule, 'create');
      if (faults.size >= FAULT_RULES_MAX) throw badRequest(`There are ${FAULT_RULES_MAX} fault rules already; DELETE /__control/faults/{id} one first`);
      return faults.add({ ...body, method: body.method ?? '*', only_when_named: body.only_when_named ?? false } as FaultSpec);
    }],
    ['GET', '/faults', () => page(faults.list())],
    ['GET', '/faults/:id', (ctx) => {
      const rule = faults.get(ruleId(ctx));
      if (!rule) throw notFound('Fault rule not found');
      return rule;
    }],
    ['DELETE', '/faults/:id', (ctx) => {
      if (!faults.remove(ruleId(ctx))) throw notFound('Fault rule not found');
    }],
    ['DELETE', '/faults', () => {
      faults.clear();
    }],
  ];
}

export function mountControlFaults(app: FastifyInstance, services: Services, faults: FaultRules): void {
  mountControlRoutes(app, services, routes(faults));
}
