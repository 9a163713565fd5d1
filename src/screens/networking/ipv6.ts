import { defineScreen } from '../../app/screen.js';
import { IPV6_PATH, IPV6_POOLS_PATH, IPV6_RANGES_PATH, listIps, listIpv6Pools, listIpv6Ranges, type IPv6Block } from '../../api/ips.js';
import { listInstances } from '../../api/instances.js';
import type { ApiClient } from '../../api/client.js';
import { entityRoute } from '../events/entity-link.js';
import { IPV6_SCREEN } from './ids.js';

type Ipv6Row = IPv6Block & {
  kind: 'pool' | 'range';
  /** The instance a range is routed to; pools go to every instance of their region. */
  vm_id: number | null;
  instance: string;
};

/**
 * Pools (routed to every instance of a region) and ranges (a /64 routed to one
 * instance), in one list. 4.83.1's range has no instance field: the address
 * list presents each range as an address of type ipv6/range with its vm_id.
 */
async function ipv6Rows(client: ApiClient): Promise<Ipv6Row[]> {
  const [pools, ranges, ips, instances] = await Promise.all([listIpv6Pools(client), listIpv6Ranges(client), listIps(client), listInstances(client)]);
  const owner = new Map(ips.filter((ip) => ip.type === 'ipv6/range').map((ip) => [ip.address, ip.vm_id]));
  const labels = new Map(instances.map((vm) => [vm.id, vm.label]));
  return [
    ...pools.map((b) => ({ ...b, kind: 'pool' as const, vm_id: null, instance: `every instance in ${b.region}` })),
    ...ranges.map((b) => {
      const vmId = owner.get(b.range) ?? null;
      const instance = vmId === null ? 'unknown' : (labels.get(vmId) ?? `#${vmId}`);
      return { ...b, kind: 'range' as const, vm_id: vmId, instance };
    }),
  ];
}

export const ipv6 = defineScreen<Ipv6Row>({
  id: IPV6_SCREEN,
  title: 'IPv6',
  aliases: ['pools', 'ranges', 'v6'],
  description: 'IPv6 pools per region and /64 ranges per instance',
  count: async (client) => {
    const first = (path: string) => client.page(path, { page: 1, pageSize: 25 });
    const [pools, ranges] = await Promise.all([first(IPV6_POOLS_PATH), first(IPV6_RANGES_PATH)]);
    return pools.results + ranges.results;
  },
  list: {
    path: IPV6_PATH,
    load: (client) => ipv6Rows(client),
    rowKey: (b) => `${b.kind} ${b.range}/${b.prefix}`,
    label: (b) => `${b.range}/${b.prefix}`,
    columns: [
      { key: 'kind', title: 'Kind', width: 5 },
      { key: 'range', title: 'Range', flex: 2, format: (b) => `${b.range}/${b.prefix}` },
      { key: 'region', title: 'Region', width: 10 },
      { key: 'instance', title: 'Instance', flex: 2 },
      { key: 'route_target', title: 'Route target', flex: 2 },
    ],
    // Enter opens the instance a range is routed to; on a pool it shows the detail.
    drill: (b) => (b.vm_id === null ? undefined : entityRoute('vm', b.vm_id, b.instance)),
    detail: {
      sections: [
        { title: 'IPv6 block', fields: ['kind', 'range', 'prefix', 'region', 'route_target'] },
        { title: 'Routed to', fields: ['instance', 'vm_id'] },
      ],
    },
    empty: 'No IPv6 pools or ranges.',
  },
});
