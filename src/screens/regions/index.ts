import { defineScreen, type DetailSection } from '../../app/screen.js';
import { REGIONS_PATH, TYPES_PATH, type InstanceType, type Region } from '../../api/regions.js';

const gb = (mb: number) => `${Math.round(mb / 1024)} GB`;

export const regions = defineScreen<Region>({
  id: 'regions',
  title: 'Regions',
  aliases: ['region', 'dc'],
  description: 'Data centers and their capabilities',
  list: {
    path: REGIONS_PATH,
    rowKey: (r) => r.id,
    label: (r) => r.id,
    columns: [
      { key: 'id', title: 'ID', width: 14, identifier: true },
      { key: 'country', title: 'Country', width: 8 },
      { key: 'status', title: 'Status', width: 7, color: (r) => (r.status === 'ok' ? 'green' : 'red') },
      { key: 'capabilities', title: 'Capabilities', flex: 2 },
      { key: 'resolvers.ipv4', title: 'Resolvers (IPv4)', flex: 1 },
    ],
    detail: {
      sections: [
        { title: 'Region', fields: ['id', 'country', 'status'] },
        { title: 'Capabilities', fields: ['capabilities'] },
        { title: 'Resolvers', fields: ['resolvers.ipv4', 'resolvers.ipv6'] },
      ],
    },
  },
});

const regional = (t: InstanceType) => (t.region_prices?.length ?? 0) > 0;

/** Later releases price some regions apart: their prices get sections of their own where the type has them. */
const typeSections = (t: InstanceType): DetailSection[] => [
  { title: 'Type', fields: ['id', 'label', 'class', 'vcpus', 'memory', 'disk', 'transfer', 'network_out', 'gpus', 'successor'] },
  { title: 'Price (US$)', fields: ['price.hourly', 'price.monthly', 'addons.backups.price.hourly', 'addons.backups.price.monthly'] },
  ...(regional(t) ? [{ title: 'Region prices (where they differ)', fields: ['region_prices'] }] : []),
  ...(t.addons?.backups?.region_prices?.length ? [{ title: 'Backup region prices', fields: ['addons.backups.region_prices'] }] : []),
];

export const types = defineScreen<InstanceType>({
  id: 'types',
  title: 'Types',
  aliases: ['type', 'plans'],
  description: 'Instance types: size and price',
  list: {
    path: TYPES_PATH,
    rowKey: (t) => t.id,
    label: (t) => t.id,
    columns: [
      { key: 'id', title: 'ID', width: 20, identifier: true },
      { key: 'label', title: 'Label', flex: 1 },
      { key: 'class', title: 'Class', width: 9 },
      { key: 'vcpus', title: 'CPUs', width: 6, align: 'right' },
      { key: 'memory', title: 'Memory', width: 7, align: 'right', format: (t) => gb(t.memory), sortValue: (t) => t.memory },
      { key: 'disk', title: 'Disk', width: 7, align: 'right', format: (t) => gb(t.disk), sortValue: (t) => t.disk },
      { key: 'price.monthly', title: '$/month', width: 8, align: 'right', format: (t) => `${t.price.monthly.toFixed(2)}${regional(t) ? '*' : ''}`, sortValue: (t) => t.price.monthly },
    ],
    detail: { sections: typeSections },
    summary: (rows) => (rows.some(regional) ? '* other prices in some regions (d shows them; the plan pickers price the region chosen)' : undefined),
  },
});

export default [regions, types];
