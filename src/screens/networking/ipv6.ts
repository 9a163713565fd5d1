import { defineScreen } from '../../app/screen.js';
import { IPV6_PATH, IPV6_POOLS_PATH, IPV6_RANGES_PATH, listIpv6Pools, listIpv6Ranges, type IPv6Block } from '../../api/ips.js';
import type { ApiClient } from '../../api/client.js';
import { IPV6_SCREEN } from './ids.js';

type Ipv6Row = IPv6Block & { kind: 'pool' | 'range' };

/** Pools (routed to every instance of a region) and ranges (a /64 routed to one instance), in one list. */
async function ipv6Rows(client: ApiClient): Promise<Ipv6Row[]> {
  const [pools, ranges] = await Promise.all([listIpv6Pools(client), listIpv6Ranges(client)]);
  return [...pools.map((b) => ({ ...b, kind: 'pool' as const })), ...ranges.map((b) => ({ ...b, kind: 'range' as const }))];
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
      { key: 'route_target', title: 'Routed to', flex: 2 },
    ],
    detail: { sections: [{ title: 'IPv6 block', fields: ['kind', 'range', 'prefix', 'region', 'route_target'] }] },
    empty: 'No IPv6 pools or ranges.',
  },
});
