import { ipv4Address } from './formats.js';
import { defineResource } from './schema.js';

export const IP_TYPES = ['ipv4', 'ipv6', 'ipv6/pool', 'ipv6/range'] as const;
export const ALLOCATABLE_IP_TYPES = ['ipv4'] as const;

/** How many IPv4 addresses of each kind an instance may hold; allocation beyond them is refused. */
export const MAX_PUBLIC_IPV4 = 2;
export const MAX_PRIVATE_IPV4 = 1;

/** A DNS host name: dot-separated labels of letters, digits and inner dashes, at least two labels, at most 253 characters. */
export function hostname(v: string): string | null {
  const name = v.endsWith('.') ? v.slice(0, -1) : v;
  if (name.length === 0 || name.length > 253) return 'rdns must be a host name of at most 253 characters';
  const labels = name.split('.');
  if (labels.length < 2) return 'rdns must be a fully qualified host name, e.g. www.example.com';
  const bad = labels.find((l) => !/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l));
  return bad === undefined ? null : `rdns: "${bad}" is not a valid host name label`;
}

/** An address as the API returns it. */
export interface IPAddressResponse {
  address: string;
  gateway: string | null;
  subnet_mask: string;
  prefix: number;
  type: (typeof IP_TYPES)[number];
  public: boolean;
  rdns: string | null;
  vm_id: number;
  region: string;
}

export const IPAddress = defineResource('ip', {
  address: { kind: 'string', readOnly: true, title: 'Address' },
  gateway: { kind: 'string', nullable: true, readOnly: true, title: 'Gateway' },
  subnet_mask: { kind: 'string', readOnly: true, title: 'Subnet mask' },
  prefix: { kind: 'integer', readOnly: true, title: 'Prefix' },
  type: { kind: 'enum', values: IP_TYPES, readOnly: true, title: 'Type' },
  public: { kind: 'boolean', readOnly: true, title: 'Public' },
  rdns: {
    kind: 'string',
    nullable: true,
    requiredOnUpdate: true,
    check: hostname,
    title: 'Reverse DNS',
    help: 'A host name whose forward DNS already points here; empty resets a public IPv4 to the default',
  },
  vm_id: { kind: 'integer', readOnly: true, title: 'Instance ID' },
  region: { kind: 'string', readOnly: true, filterable: true, title: 'Region' },
});

export const IpAllocation = defineResource('ip_allocation', {
  vm_id: { kind: 'integer', required: true, min: 1, title: 'Instance ID' },
  public: { kind: 'boolean', required: true, title: 'Public', help: 'A public address, or a private one (at most one per instance)' },
  type: { kind: 'enum', values: ALLOCATABLE_IP_TYPES, required: true, title: 'Type', default: 'ipv4' },
});

export const IpAssignment = defineResource('ip_assignment', {
  region: { kind: 'string', required: true, title: 'Region', help: 'Every address and instance must be in this region' },
  assignments: {
    kind: 'array',
    required: true,
    minItems: 1,
    title: 'Assignments',
    items: {
      kind: 'object',
      fields: {
        address: { kind: 'string', required: true, check: ipv4Address, title: 'Address' },
        vm_id: { kind: 'integer', required: true, min: 1, title: 'Instance ID' },
      },
    },
  },
});

export const IpShare = defineResource('ip_share', {
  vm_id: { kind: 'integer', required: true, min: 1, title: 'Instance ID', help: 'The instance that may also bring these addresses up' },
  ips: {
    kind: 'array',
    required: true,
    title: 'Addresses',
    help: 'Replaces the addresses shared with the instance; empty stops sharing',
    items: { kind: 'string', check: ipv4Address },
  },
});

export const IPv6Pool = defineResource('ipv6_pool', {
  range: { kind: 'string', readOnly: true, title: 'Range' },
  prefix: { kind: 'integer', readOnly: true, title: 'Prefix' },
  region: { kind: 'string', readOnly: true, filterable: true, title: 'Region' },
  route_target: { kind: 'string', nullable: true, readOnly: true, title: 'Route target' },
});

export const IPv6Range = defineResource('ipv6_range', {
  range: { kind: 'string', readOnly: true, title: 'Range' },
  prefix: { kind: 'integer', readOnly: true, title: 'Prefix' },
  region: { kind: 'string', readOnly: true, title: 'Region' },
  route_target: { kind: 'string', nullable: true, readOnly: true, title: 'Route target' },
});
