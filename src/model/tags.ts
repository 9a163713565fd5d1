import { defineResource, type FieldSpec } from './schema.js';

const ids = (title: string): FieldSpec => ({
  kind: 'array',
  title,
  help: 'IDs to tag now; you need write access to each',
  writeOnly: true,
  createOnly: true,
  items: { kind: 'integer', min: 1 },
});

/** A tag; create may also tag objects right away (the id arrays are request-only). */
export const Tag = defineResource('tag', {
  label: { kind: 'string', title: 'Label', required: true, createOnly: true, minLength: 3, maxLength: 50 },
  vms: ids('Instances'),
  nodebalancers: ids('Load balancers'),
  domains: ids('Domains'),
  volumes: ids('Volumes'),
});

/** The body key of each kind a tag create may list, with the tagged-object type the API reports. */
export const TAG_TARGETS = [
  { field: 'vms', type: 'vm' },
  { field: 'nodebalancers', type: 'nodebalancer' },
  { field: 'domains', type: 'domain' },
  { field: 'volumes', type: 'volume' },
] as const;
