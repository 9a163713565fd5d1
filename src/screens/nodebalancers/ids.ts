/** Screen ids of the load balancer area, for drilling and pushing between its screens. */
export const BALANCERS_SCREEN = 'nodebalancers';
export const CONFIGS_SCREEN = 'nodebalancer-configs';
export const NODES_SCREEN = 'nodebalancer-nodes';
export const STATS_SCREEN = 'nodebalancer-stats';
