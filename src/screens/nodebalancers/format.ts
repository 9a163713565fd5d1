import type { NBConfig, NBNode } from '../../api/nodebalancers.js';

/** Text and colors shared by the load balancer screens. */

/** Transfer is counted in megabytes. */
export function megabytes(mb: number | null | undefined): string {
  if (mb === null || mb === undefined) return '—';
  if (mb >= 1024 * 1024) return `${(mb / (1024 * 1024)).toFixed(1)} TB`;
  if (mb >= 1024) return `${(mb / 1024).toFixed(1)} GB`;
  return `${mb.toFixed(1)} MB`;
}

/** Traffic series are in bits per second. */
export function bitsPerSecond(bits: number): string {
  const units = ['b/s', 'kb/s', 'Mb/s', 'Gb/s'];
  let v = bits;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export const perSecond = (v: number) => `${v >= 100 ? Math.round(v) : v.toFixed(1)}/s`;

export const nodeStatusColor = (status: NBNode['status']) => (status === 'UP' ? 'green' : status === 'DOWN' ? 'red' : 'gray');

/** "3 up", "2 up, 1 down", with the nodes the checks have not seen yet as unknown; null nodes: their list came unreadable. */
export function nodesText(c: Pick<NBConfig, 'nodes_status'> & { nodes?: unknown[] | null }): string {
  const { up, down } = c.nodes_status;
  const unknown = c.nodes ? c.nodes.length - up - down : 0;
  if (c.nodes?.length === 0) return 'no nodes';
  const unreadable = c.nodes === null ? ['unreadable'] : [];
  return [`${up} up`, ...(down > 0 ? [`${down} down`] : []), ...(unknown > 0 ? [`${unknown} unknown`] : []), ...unreadable].join(', ');
}

export const nodesColor = (c: Pick<NBConfig, 'nodes_status'>) => (c.nodes_status.down > 0 ? 'red' : c.nodes_status.up > 0 ? 'green' : 'gray');

export const portLabel = (c: Pick<NBConfig, 'port' | 'protocol'>) => `port ${c.port} (${c.protocol})`;
