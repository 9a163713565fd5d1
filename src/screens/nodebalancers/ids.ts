import type { Params } from '../../store/nav.js';

/** Screen ids of the load balancer area, for drilling and pushing between its screens. */
export const BALANCERS_SCREEN = 'nodebalancers';
export const CONFIGS_SCREEN = 'nodebalancer-configs';
export const NODES_SCREEN = 'nodebalancer-nodes';
export const STATS_SCREEN = 'nodebalancer-stats';

/** A balancer's configs and nodes need a read_write grant on the balancer (a restricted user). */
export const BALANCER_GRANT = { kind: 'nodebalancer', id: (_row: unknown, p: Params) => p.nb } as const;
