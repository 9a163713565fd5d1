import { createFirewall, putRules, updateFirewall, type Firewall, type FirewallRules as Rules } from '../../api/firewalls.js';
import { instanceChoices } from '../../api/ips.js';
import type { FormSpec } from '../../components/form/types.js';
import { Firewall as FirewallSchema, FirewallRule, FirewallRules } from '../../model/firewalls.js';
import { onFormFields, prefixFields, shapedSchema, type FormShape } from './form-shape.js';
import { FIREWALL_WRITE } from './rule-forms.js';

const ruleFields = FirewallRule.fields!;
const addressFields = ruleFields.addresses!.fields!;

type Values = Record<string, unknown>;

/** A new firewall's first inbound rule as plain fields; more rules are added on its Rules screen. */
const createShape: FormShape = {
  name: 'firewall_create_form',
  fields: {
    label: FirewallSchema.fields.label!,
    protocol: { ...ruleFields.protocol!, title: 'Inbound protocol', default: 'TCP' },
    ports: { ...ruleFields.ports!, title: 'Inbound ports' },
    ipv4: { ...addressFields.ipv4!, title: 'From IPv4' },
    ipv6: { ...addressFields.ipv6!, title: 'From IPv6' },
    devices: { ...FirewallSchema.fields.devices!.fields!.vms!, title: 'Protect instances' },
    tags: FirewallSchema.fields.tags!,
  },
  target: FirewallSchema,
  toBody: (v: Values) => {
    const addresses = { ...(v.ipv4 !== undefined ? { ipv4: v.ipv4 } : {}), ...(v.ipv6 !== undefined ? { ipv6: v.ipv6 } : {}) };
    const rule = { protocol: v.protocol, ...(v.ports !== undefined ? { ports: v.ports } : {}), addresses };
    return {
      ...(v.label !== undefined ? { label: v.label } : {}),
      rules: { inbound: [rule], outbound: [] },
      ...(v.devices !== undefined ? { devices: { vms: v.devices } } : {}),
      ...(v.tags !== undefined ? { tags: v.tags } : {}),
    };
  },
  // "An open inbound rule is required" is about the addresses: it shows beside them.
  fieldOf: prefixFields([
    ['rules.inbound.0.addresses.ipv6', 'ipv6'],
    ['rules.inbound.0.addresses.ipv4', 'ipv4'],
    ['rules.inbound.0.addresses', 'ipv4'],
    ['rules.inbound.0.protocol', 'protocol'],
    ['rules.inbound.0.ports', 'ports'],
    ['rules.inbound', 'ipv4'],
    ['rules', 'ipv4'],
    ['devices.vms', 'devices'],
    ['devices', 'devices'],
  ]),
};

export const firewallCreateForm: FormSpec<Firewall> = {
  title: 'New firewall',
  schema: shapedSchema(createShape),
  fields: ['label', 'protocol', 'ports', 'ipv4', 'ipv6', 'devices', 'tags'],
  overrides: {
    ipv4: { help: 'Who may connect: addresses or networks, e.g. 203.0.113.0/24, or 0.0.0.0/0 for anywhere' },
    ipv6: { help: 'e.g. 2001:db8::/32, or ::/0 for anywhere' },
    devices: { choices: (client) => instanceChoices(client), help: 'Enter picks instances; an instance takes at most 3 enabled firewalls' },
  },
  submit: async (body, ctx) => {
    try {
      return await createFirewall(ctx.client, createShape.toBody(body));
    } catch (err) {
      throw onFormFields(err, (path) => createShape.fieldOf(path, body));
    }
  },
  done: (fw) => `Created firewall ${(fw as Firewall).label} (enabled); Enter on it shows its rules and devices`,
  scope: FIREWALL_WRITE,
};

export const firewallEditForm: FormSpec<Firewall> = {
  schema: FirewallSchema,
  fields: ['label', 'tags'],
  submit: (body, ctx, fw) => updateFirewall(ctx.client, fw!.id, body),
  scope: FIREWALL_WRITE,
};

const count = (rules: Partial<Rules>) => `${rules.inbound?.length ?? 0} inbound, ${rules.outbound?.length ?? 0} outbound`;

/** The whole ruleset as JSON, for changes too big for one rule at a time. */
export const rulesJsonForm: FormSpec<Firewall> = {
  title: 'Rules (JSON): the whole ruleset',
  schema: FirewallRules,
  fields: ['inbound', 'outbound'],
  overrides: {
    inbound: { lines: 8, help: 'JSON array of {"protocol","ports","addresses":{"ipv4":[…],"ipv6":[…]}}; at least one must list an address' },
    outbound: { lines: 5, help: 'JSON array; [] allows all outbound traffic, any rule blocks what it does not list' },
  },
  initial: (fw) => ({ inbound: fw!.rules.inbound, outbound: fw!.rules.outbound }),
  confirm: (body, fw) => `Replace all rules of ${fw!.label} (${count(fw!.rules)}) with ${count(body as Partial<Rules>)}? Traffic the new rules do not allow is blocked at once.`,
  submit: (body, ctx, fw) => putRules(ctx.client, fw!.id, body as unknown as Rules),
  done: (_r, fw) => `Replaced the rules of ${fw!.label}`,
  scope: FIREWALL_WRITE,
};
