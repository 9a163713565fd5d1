import type { ApiClient } from '../../api/client.js';
import { getRules, putRules, type Direction, type FirewallRule } from '../../api/firewalls.js';
import type { FormSpec } from '../../components/form/types.js';
import { FirewallRule as RuleSpec, rulesetErrors } from '../../model/firewalls.js';
import { defineResource, type FieldError } from '../../model/schema.js';
import { DIRECTIONS, assertRuleset, assertUnchanged, placeRule, ruleLabel, ruleOf, statedPolicy, type RuleRow } from './ruleset.js';

export const FIREWALL_WRITE = 'firewall:read_write';

/**
 * One rule's own cross-field rules (ports by protocol, addresses per rule),
 * from the model's ruleset check run on a ruleset holding just this rule.
 */
function singleRuleErrors(body: Record<string, unknown>): FieldError[] {
  const { direction, ...rule } = body;
  const dir = direction === 'outbound' ? 'outbound' : 'inbound';
  const prefix = `${dir}.0.`;
  return rulesetErrors({ [dir]: [rule] }, '').flatMap((e) => (e.field?.startsWith(prefix) ? [{ ...e, field: e.field.slice(prefix.length) }] : []));
}

/** A rule and the direction it applies to; the rule's fields are the model's. */
const RuleForm = defineResource(
  'firewall_rule_form',
  {
    direction: { kind: 'enum', values: DIRECTIONS, required: true, title: 'Direction', default: 'inbound', help: 'inbound: traffic to the instances; outbound: traffic from them' },
    ...RuleSpec.fields!,
  },
  [singleRuleErrors],
);

const FIELDS = ['direction', 'protocol', 'ports', 'addresses.ipv4', 'addresses.ipv6'];
const OVERRIDES = {
  'addresses.ipv4': { title: 'IPv4', help: 'Comma-separated addresses or networks, e.g. 203.0.113.7, 10.0.0.0/8, 0.0.0.0/0 (anywhere)' },
  'addresses.ipv6': { title: 'IPv6', help: 'Comma-separated, e.g. 2001:db8::/32, ::/0 (anywhere)' },
};

const split = (body: Record<string, unknown>) => {
  const { direction, ...rule } = body;
  return { direction: direction as Direction, rule: ruleOf(rule as unknown as FirewallRule) };
};

/**
 * PUT /rules replaces the whole ruleset: the current one is fetched, the rule
 * put in place, the result checked with the model, then sent.
 */
async function saveRule(body: Record<string, unknown>, fw: string, client: ApiClient, row?: RuleRow) {
  const { direction, rule: edited } = split(body);
  const current = await getRules(client, fw);
  // The form edits what 4.83.1 has; an edited rule keeps its action, label and description, and a new one
  // on a server with policies states that it allows, as every rule this form makes does.
  const kept: Partial<FirewallRule> = row ? ruleOf(row) : statedPolicy(current, direction) ? { action: 'ACCEPT' } : {};
  const rule = ruleOf({ ...edited, action: kept.action, label: kept.label, description: kept.description });
  if (row) assertUnchanged(current, row);
  const { rules, index } = placeRule(current, rule, direction, row);
  assertRuleset(rules, { direction, index });
  return putRules(client, fw, rules);
}

export const ruleCreateForm: FormSpec<RuleRow> = {
  title: 'New firewall rule',
  schema: RuleForm,
  fields: FIELDS,
  overrides: OVERRIDES,
  submit: (body, ctx) => saveRule(body, ctx.params.fw!, ctx.client),
  done: () => 'Rule added; the ruleset was replaced',
  scope: FIREWALL_WRITE,
};

export const ruleEditForm: FormSpec<RuleRow> = {
  schema: RuleForm,
  // The whole rule is sent in its place, changed fields or not.
  mode: 'create',
  fields: FIELDS,
  overrides: OVERRIDES,
  initial: (r) => ({ direction: r!.direction, ...ruleOf(r!) }),
  submit: (body, ctx, r) => saveRule(body, ctx.params.fw!, ctx.client, r),
  done: (_res, r) => `Saved ${ruleLabel(r!)}; the ruleset was replaced`,
  scope: FIREWALL_WRITE,
};
