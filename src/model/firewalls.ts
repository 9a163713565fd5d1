import { addressOrNetwork, firewallLabel, portString } from './formats.js';
import { defineResource, type CrossRule, type FieldError, type FieldSpec } from './schema.js';

export const FIREWALL_STATUSES = ['enabled', 'disabled', 'deleted'] as const;
export const FIREWALL_PROTOCOLS = ['TCP', 'UDP', 'ICMP'] as const;
export const FIREWALL_DEVICE_TYPES = ['vm'] as const;
/** What later releases' policies and rule actions do with traffic. */
export const FIREWALL_ACTIONS = ['ACCEPT', 'DROP'] as const;

/** Seed limits: rules per firewall (inbound plus outbound), addresses per rule, active firewalls per service. */
export const MAX_FIREWALL_RULES = 25;
export const MAX_RULE_ADDRESSES = 255;
export const MAX_ACTIVE_FIREWALLS = 3;

const addressList = (family: 'ipv4' | 'ipv6'): FieldSpec => ({
  kind: 'array',
  title: family === 'ipv4' ? 'IPv4 addresses' : 'IPv6 addresses',
  help: family === 'ipv4' ? 'Addresses or networks, e.g. 203.0.113.7 or 0.0.0.0/0' : 'Addresses or networks, e.g. 2001:db8::/32 or ::/0',
  items: { kind: 'string', check: addressOrNetwork(family) },
});

/** The 4.83.1 rule has exactly these three fields; later releases add an action, a label and a description. */
export const FirewallRule: FieldSpec = {
  kind: 'object',
  title: 'Rule',
  fields: {
    protocol: { kind: 'enum', values: FIREWALL_PROTOCOLS, required: true, title: 'Protocol' },
    ports: { kind: 'string', check: portString, title: 'Ports', help: 'e.g. 22, 80, 443 or 8000-8080; none for ICMP' },
    addresses: { kind: 'object', title: 'Addresses', fields: { ipv4: addressList('ipv4'), ipv6: addressList('ipv6') } },
    action: { kind: 'enum', values: FIREWALL_ACTIONS, newer: true, title: 'Action' },
    label: { kind: 'string', newer: true, title: 'Label' },
    description: { kind: 'string', newer: true, title: 'Description' },
  },
};

const ruleList = (title: string, help: string, required = false): FieldSpec => ({ kind: 'array', title, help, required, items: FirewallRule });

const rulesFields: Record<string, FieldSpec> = {
  inbound: ruleList('Inbound rules', 'Traffic not allowed here is blocked; at least one open rule', true),
  outbound: ruleList('Outbound rules', 'Empty allows all outbound traffic; otherwise unlisted traffic is blocked'),
  inbound_policy: { kind: 'enum', values: FIREWALL_ACTIONS, newer: true, title: 'Inbound policy' },
  outbound_policy: { kind: 'enum', values: FIREWALL_ACTIONS, newer: true, title: 'Outbound policy' },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (prefix: string, path: string) => (prefix ? `${prefix}.${path}` : path);

function addressCount(rule: Record<string, unknown>): number {
  const addresses = rule.addresses;
  if (!isObject(addresses)) return 0;
  return ['ipv4', 'ipv6'].reduce((n, family) => n + (Array.isArray(addresses[family]) ? (addresses[family] as unknown[]).length : 0), 0);
}

/**
 * The ruleset rules that span fields: ports by protocol, addresses per rule,
 * rules per firewall, and an open inbound rule. "Open" means the rule lets
 * some traffic in, i.e. it lists at least one address or network.
 */
export function rulesetErrors(rules: unknown, prefix: string): FieldError[] {
  if (!isObject(rules)) return [];
  const errors: FieldError[] = [];
  let total = 0;
  for (const direction of ['inbound', 'outbound']) {
    const list = rules[direction];
    if (!Array.isArray(list)) continue;
    total += list.length;
    list.forEach((rule, i) => {
      if (!isObject(rule)) return;
      const path = at(prefix, `${direction}.${i}`);
      if (rule.protocol === 'ICMP' && rule.ports !== undefined) {
        errors.push({ field: `${path}.ports`, reason: 'ports must not be given for ICMP rules' });
      }
      if ((rule.protocol === 'TCP' || rule.protocol === 'UDP') && rule.ports === undefined) {
        errors.push({ field: `${path}.ports`, reason: `ports must name at least one port for ${rule.protocol} rules` });
      }
      if (addressCount(rule) > MAX_RULE_ADDRESSES) {
        errors.push({ field: `${path}.addresses`, reason: `a rule may list at most ${MAX_RULE_ADDRESSES} addresses or networks across ipv4 and ipv6` });
      }
    });
  }
  if (total > MAX_FIREWALL_RULES) {
    const reason = `a firewall may have at most ${MAX_FIREWALL_RULES} rules across inbound and outbound (got ${total})`;
    errors.push(prefix ? { field: prefix, reason } : { reason });
  }
  const inbound = rules.inbound;
  if (Array.isArray(inbound) && !inbound.some((r) => isObject(r) && addressCount(r) > 0)) {
    errors.push({ field: at(prefix, 'inbound'), reason: 'at least one open inbound rule (one listing an address or network) is required' });
  }
  return errors;
}

/** Body of GET/PUT .../rules; PUT replaces the whole ruleset. */
export const FirewallRules = defineResource('firewall_rules', rulesFields, [(body) => rulesetErrors(body, '')]);

const noDeletedStatus: CrossRule = (body, { mode }) =>
  mode === 'update' && body.status === 'deleted' ? [{ field: 'status', reason: 'status cannot be set to deleted; delete the firewall instead' }] : [];

const oneDevicePerInstance: CrossRule = (body) => {
  const vms = isObject(body.devices) ? body.devices.vms : undefined;
  if (!Array.isArray(vms)) return [];
  return vms.flatMap((id, i) => (vms.indexOf(id) < i ? [{ field: `devices.vms.${i}`, reason: `instance ${String(id)} is listed twice` }] : []));
};

export const Firewall = defineResource(
  'firewall',
  {
    id: { kind: 'integer', readOnly: true, filterable: true, title: 'ID' },
    label: {
      kind: 'string',
      title: 'Label',
      help: '3..32: letters, digits, - _ . ; starts and ends with a letter or digit; a default is assigned when empty',
      minLength: 3,
      maxLength: 32,
      check: firewallLabel,
      filterable: true,
    },
    created: { kind: 'datetime', readOnly: true, filterable: true, title: 'Created' },
    updated: { kind: 'datetime', readOnly: true, filterable: true, title: 'Updated' },
    status: { kind: 'enum', values: FIREWALL_STATUSES, updateOnly: true, title: 'Status', help: 'enabled or disabled; delete the firewall to remove it' },
    rules: { kind: 'object', required: true, createOnly: true, title: 'Rules', fields: rulesFields },
    tags: { kind: 'array', title: 'Tags', items: { kind: 'string', minLength: 3, maxLength: 50 }, filterable: true },
    devices: {
      kind: 'object',
      writeOnly: true,
      createOnly: true,
      title: 'Devices',
      fields: { vms: { kind: 'array', title: 'Instances', help: 'Instance IDs to protect; one device per ID', items: { kind: 'integer', min: 1 } } },
    },
  },
  [(body) => rulesetErrors(body.rules, 'rules'), noDeletedStatus, oneDevicePerInstance],
);

/** Body of POST .../devices: the entity to protect. */
export const FirewallDeviceCreate = defineResource('firewall_device_create', {
  id: { kind: 'integer', required: true, min: 1, title: 'Instance ID', help: 'The ID of the instance to protect' },
  type: { kind: 'enum', values: FIREWALL_DEVICE_TYPES, required: true, title: 'Type', default: 'vm' },
});

export const FirewallDevice = defineResource('firewall_device', {
  id: { kind: 'integer', readOnly: true, filterable: true, title: 'Device ID' },
  created: { kind: 'datetime', readOnly: true, filterable: true, title: 'Created' },
  updated: { kind: 'datetime', readOnly: true, filterable: true, title: 'Updated' },
  entity: {
    kind: 'object',
    readOnly: true,
    title: 'Protected service',
    fields: {
      id: { kind: 'integer', readOnly: true },
      type: { kind: 'enum', values: FIREWALL_DEVICE_TYPES, readOnly: true },
      label: { kind: 'string', readOnly: true },
      url: { kind: 'string', readOnly: true },
    },
  },
});
