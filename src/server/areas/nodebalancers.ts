import { NodeBalancer } from '../../model/nodebalancers.js';
import { filterableFields } from '../../model/schema.js';
import { grantFilter, requireGlobal, requireUnrestricted } from '../auth.js';
import { finishEvent } from '../events.js';
import { filterFields } from '../filter.js';
import { defineArea, listPage, readingOf } from '../route.js';
import { onJob } from '../sim.js';
import { registerTags } from '../tagging.js';
import { isoSeconds } from '../../model/time.js';
import { configRoutes } from './nodebalancers-configs.js';
import {
  addBalancer,
  addConfigWithNodes,
  balancerEvent,
  balancerFor,
  checkBody,
  deleteBalancer,
  grantCreator,
  joinNodePorts,
  labelErrors,
  presentBalancer,
  regionErrors,
  saveBalancer,
  type BalancerRecord,
} from './nodebalancers-records.js';
import { balancerStats } from './nodebalancers-stats.js';

const CREATE_FINISHED = 'nodebalancer:create-finished';

onJob(CREATE_FINISHED, (store, payload) => finishEvent(store, payload.event as number));

const filterable = filterFields(filterableFields(NodeBalancer), ['tags']);

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t) => b.includes(t));

/** Load balancers, their configs (one per port) and backend nodes, per the seed's "Load balancers" table. */
export default defineArea('nodebalancers', (r) => {
  r.get('/nodebalancers', 'nodebalancers:read_only', (ctx) =>
    listPage<BalancerRecord>(ctx, 'nodebalancer', { filterable, restrict: grantFilter(ctx.auth, 'nodebalancer'), present: presentBalancer }),
  );

  r.post('/nodebalancers', 'nodebalancers:read_write', (ctx) => {
    requireGlobal(ctx.auth, 'add_nodebalancers');
    const body = checkBody(NodeBalancer, ctx.body, readingOf(ctx, 'create'), (raw) => [...regionErrors(ctx.store, raw.region), ...labelErrors(ctx.store, raw.label)]);
    // Only the tolerant reader lets tags through on create, as later releases take them.
    const tags = [...new Set((body.tags as string[] | undefined) ?? [])];
    if (tags.length > 0) requireUnrestricted(ctx.auth, 'add or change tags');
    const nb = addBalancer(ctx.store, {
      region: body.region as string,
      label: body.label as string | undefined,
      client_conn_throttle: body.client_conn_throttle as number | undefined,
      tags,
    });
    registerTags(ctx.store, tags);
    const configs = (body.configs as Record<string, unknown>[] | undefined) ?? [];
    configs.forEach((config, i) => addConfigWithNodes(ctx.store, nb.id, { ...config, nodes: joinNodePorts(ctx.reader, config.nodes, `configs.${i}.nodes`) }));
    grantCreator(ctx.store, ctx.auth, nb.id);
    const event = balancerEvent(ctx, 'nodebalancer_create', nb, { status: 'started' });
    ctx.sim.schedule(CREATE_FINISHED, { event }, 10);
    return presentBalancer(nb);
  });

  r.get('/nodebalancers/{nodeBalancerId}', 'nodebalancers:read_only', (ctx) => presentBalancer(balancerFor(ctx, 'read_only')));

  r.put('/nodebalancers/{nodeBalancerId}', 'nodebalancers:read_write', (ctx) => {
    const nb = balancerFor(ctx, 'read_write');
    const body = checkBody(NodeBalancer, ctx.body, readingOf(ctx, 'update', nb), (raw) => labelErrors(ctx.store, raw.label, nb.id));
    const tags = body.tags === undefined ? nb.tags : [...new Set(body.tags as string[])];
    if (!sameTags(tags, nb.tags)) requireUnrestricted(ctx.auth, 'add or change tags');
    const next: BalancerRecord = {
      ...nb,
      label: (body.label as string | undefined) ?? nb.label,
      client_conn_throttle: (body.client_conn_throttle as number | undefined) ?? nb.client_conn_throttle,
      tags,
      updated: isoSeconds(ctx.store.clock.now()),
    };
    saveBalancer(ctx.store, next);
    registerTags(ctx.store, tags);
    balancerEvent(ctx, 'nodebalancer_update', next);
    return presentBalancer(next);
  });

  r.delete('/nodebalancers/{nodeBalancerId}', 'nodebalancers:read_write', (ctx) => {
    const nb = balancerFor(ctx, 'read_write');
    deleteBalancer(ctx.store, nb.id);
    balancerEvent(ctx, 'nodebalancer_delete', nb);
  });

  r.get('/nodebalancers/{nodeBalancerId}/stats', 'nodebalancers:read_only', (ctx) => {
    const nb = balancerFor(ctx, 'read_only');
    return balancerStats(nb, ctx.store.count('nb_config', String(nb.id)) > 0, ctx.store.clock.now());
  });

  configRoutes(r);
});
