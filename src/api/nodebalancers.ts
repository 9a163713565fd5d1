import type { NodeBalancerResponse as NodeBalancer } from '../model/nodebalancers.js';
import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';
import { regionChoices } from './regions.js';

/** Load balancers, their configs (one per port), backend nodes and statistics. */

export type { NodeBalancerResponse as NodeBalancer } from '../model/nodebalancers.js';

export interface NBConfig {
  id: number;
  nodebalancer_id: number;
  port: number;
  protocol: 'http' | 'https' | 'tcp';
  algorithm: string;
  stickiness: string;
  check: string;
  check_interval: number;
  check_timeout: number;
  check_attempts: number;
  check_path: string;
  check_body: string;
  check_passive: boolean;
  proxy_protocol: string;
  cipher_suite: string;
  ssl_commonname: string | null;
  ssl_fingerprint: string | null;
  /** "<REDACTED>" when set: the service never returns certificates or keys. */
  ssl_cert: string | null;
  ssl_key: string | null;
  nodes_status: { up: number; down: number };
}

export interface NBNode {
  id: number;
  config_id: number;
  nodebalancer_id: number;
  address: string;
  label: string;
  status: 'UP' | 'DOWN' | 'unknown';
  weight: number;
  mode: string;
}

/**
 * A config with its nodes, as the configs screen shows it (and the rebuild
 * form starts from); `nodes` is undefined while they are read, null when the
 * server's node list could not be read, `nodesUnreadable` saying why.
 */
export type ConfigWithNodes = NBConfig & { nodes?: NBNode[] | null; nodesUnreadable?: string };

/** [epoch milliseconds, value] pairs, 5-minute averages over the last day. */
export type StatSeries = [number, number][];

export interface NBStats {
  title: string;
  data: { connections: StatSeries; traffic: { in: StatSeries; out: StatSeries } };
}

export const NODEBALANCERS_PATH = '/nodebalancers';

const id = (v: number | string) => encodeURIComponent(String(v));
export const balancerPath = (nb: number | string) => `${NODEBALANCERS_PATH}/${id(nb)}`;
export const configsPath = (nb: number | string) => `${balancerPath(nb)}/configs`;
export const configPath = (nb: number | string, cfg: number | string) => `${configsPath(nb)}/${id(cfg)}`;
export const nodesPath = (nb: number | string, cfg: number | string) => `${configPath(nb, cfg)}/nodes`;
export const nodePath = (nb: number | string, cfg: number | string, node: number | string) => `${nodesPath(nb, cfg)}/${id(node)}`;

type Body = Record<string, unknown>;

export const listBalancers = (client: ApiClient) => fetchAllPages<NodeBalancer>(client, NODEBALANCERS_PATH);
export const getBalancer = (client: ApiClient, nb: number | string) => client.get<NodeBalancer>(balancerPath(nb));
export const createBalancer = (client: ApiClient, body: Body) => client.post<NodeBalancer>(NODEBALANCERS_PATH, body);
export const updateBalancer = (client: ApiClient, nb: number | string, body: Body) => client.put<NodeBalancer>(balancerPath(nb), body);
export const deleteBalancer = (client: ApiClient, nb: number | string) => client.delete<unknown>(balancerPath(nb));
export const getBalancerStats = (client: ApiClient, nb: number | string) => client.get<NBStats>(`${balancerPath(nb)}/stats`);

export const listConfigs = (client: ApiClient, nb: number | string) => fetchAllPages<NBConfig>(client, configsPath(nb));
export const getConfig = (client: ApiClient, nb: number | string, cfg: number | string) => client.get<NBConfig>(configPath(nb, cfg));
export const createConfig = (client: ApiClient, nb: number | string, body: Body) => client.post<NBConfig>(configsPath(nb), body);
export const updateConfig = (client: ApiClient, nb: number | string, cfg: number | string, body: Body) => client.put<NBConfig>(configPath(nb, cfg), body);
export const deleteConfig = (client: ApiClient, nb: number | string, cfg: number | string) => client.delete<unknown>(configPath(nb, cfg));
/** Replaces the config's nodes: listed with an id are updated, without one created, left out deleted. Returns the balancer. */
export const rebuildConfig = (client: ApiClient, nb: number | string, cfg: number | string, body: Body) =>
  client.post<NodeBalancer>(`${configPath(nb, cfg)}/rebuild`, body);

export const getNode = (client: ApiClient, nb: number | string, cfg: number | string, node: number | string) => client.get<NBNode>(nodePath(nb, cfg, node));
export const createNode = (client: ApiClient, nb: number | string, cfg: number | string, body: Body) => client.post<NBNode>(nodesPath(nb, cfg), body);
export const updateNode = (client: ApiClient, nb: number | string, cfg: number | string, node: number | string, body: Body) =>
  client.put<NBNode>(nodePath(nb, cfg, node), body);
export const deleteNode = (client: ApiClient, nb: number | string, cfg: number | string, node: number | string) => client.delete<unknown>(nodePath(nb, cfg, node));

/** Regions where a balancer can be created. */
export const balancerRegionChoices = (client: ApiClient) => regionChoices(client, 'NodeBalancers');
