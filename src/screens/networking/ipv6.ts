import { defineScreen } from '../../app/screen.js';
import { IPV6_PATH, type IPAddress, type IPv6Block } from '../../api/ips.js';
import type { LoadIo } from '../../store/data.js';
import { flawOf } from '../../model/response.js';
import { IPS_LIST, IPV6_POOLS_LIST, IPV6_RANGES_LIST, readableRows } from '../../store/lists.js';
import { instanceLabels } from './instance-labels.js';
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
async function ipv6Rows(io: LoadIo): Promise<Ipv6Row[]> {
  const [pools, ranges, ips, labels] = await Promise.all([
    io.read(IPV6_POOLS_LIST) as Promise<IPv6Block[]>,
    io.read(IPV6_RANGES_LIST) as Promise<IPv6Block[]>,
    readableRows<IPAddress>(io.read, IPS_LIST),
    instanceLabels(io),
  ]);
  const owner = new Map(ips.filter((ip) => ip.type === 'ipv6/range').map((ip) => [ip.address, ip.vm_id]));
  const range = (b: IPv6Block): Ipv6Row => {
    const vmId = owner.get(b.range) ?? null;
    const instance = vmId === null ? 'unknown' : (labels.get(vmId) ?? `#${vmId}`);
    return { ...b, kind: 'range', vm_id: vmId, instance };
  };
  // A block the client could not read stays as it came, marked.
  return [
    ...pools.map((b) => (flawOf(b) ? (b as Ipv6Row) : { ...b, kind: 'pool' as const, vm_id: null, instance: `every instance in ${b.region}` })),
    ...ranges.map((b) => (flawOf(b) ? (b as Ipv6Row) : range(b))),
  ];
}

export const ipv6 = defineScreen<Ipv6Row>({
  id: IPV6_SCREEN,
  title: 'IPv6',
  aliases: ['pools', 'ranges', 'v6'],
  description: 'IPv6 pools per region and /64 ranges per instance',
  // The two lists the loader below joins, counted as the data store counts a list: their first page caches them whole when it holds them.
  count: async (_client, data) => {
    const [pools, ranges] = await Promise.all([data.getState().countList(IPV6_POOLS_LIST), data.getState().countList(IPV6_RANGES_LIST)]);
    return pools + ranges;
  },
  list: {
    path: IPV6_PATH,
    load: (_client, _p, _data, io) => ipv6Rows(io),
    rowKey: (b) => `${b.kind} ${b.range}/${b.prefix}`,
    label: (b) => `${b.range}/${b.prefix}`,
    columns: [
      { key: 'kind', title: 'Kind', width: 5 },
      { key: 'range', title: 'Range', flex: 2, identifier: true, format: (b) => `${b.range}/${b.prefix}` },
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
