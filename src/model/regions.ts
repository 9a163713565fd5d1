import { defineResource, type FieldSpec } from './schema.js';

export const REGION_STATUSES = ['ok', 'outage'] as const;

export const Region = defineResource('region', {
  id: { kind: 'string', readOnly: true, title: 'ID' },
  country: { kind: 'string', readOnly: true },
  capabilities: { kind: 'array', items: { kind: 'string' }, readOnly: true },
  status: { kind: 'enum', values: REGION_STATUSES, readOnly: true },
  resolvers: {
    kind: 'object',
    readOnly: true,
    fields: { ipv4: { kind: 'string', readOnly: true }, ipv6: { kind: 'string', readOnly: true } },
  },
});

export const INSTANCE_TYPE_CLASSES = ['nanode', 'standard', 'dedicated', 'gpu', 'highmem'] as const;

const price = { kind: 'object', readOnly: true, fields: { hourly: { kind: 'number' }, monthly: { kind: 'number' } } } as const;
/** Later releases: the regions whose price differs from `price`, each with its own. */
const regionPrices: FieldSpec = {
  kind: 'array',
  readOnly: true,
  newer: true,
  title: 'Region prices',
  items: { kind: 'object', fields: { id: { kind: 'string' }, hourly: { kind: 'number' }, monthly: { kind: 'number' } } },
};

export const InstanceType = defineResource('type', {
  id: { kind: 'string', readOnly: true },
  label: { kind: 'string', readOnly: true, filterable: true },
  class: { kind: 'enum', values: INSTANCE_TYPE_CLASSES, readOnly: true, filterable: true },
  vcpus: { kind: 'integer', readOnly: true, filterable: true },
  memory: { kind: 'integer', readOnly: true, filterable: true, title: 'Memory (MB)' },
  disk: { kind: 'integer', readOnly: true, filterable: true, title: 'Disk (MB)' },
  transfer: { kind: 'integer', readOnly: true, filterable: true },
  network_out: { kind: 'integer', readOnly: true, filterable: true },
  gpus: { kind: 'integer', readOnly: true, filterable: true },
  price,
  region_prices: regionPrices,
  addons: { kind: 'object', readOnly: true, fields: { backups: { kind: 'object', fields: { price, region_prices: regionPrices } } } },
  successor: { kind: 'string', nullable: true, readOnly: true },
});
