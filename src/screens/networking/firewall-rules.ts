import { defineScreen } from '../../app/screen.js';
import { FIREWALLS_PATH, getRules, putRules, rulesPath } from '../../api/firewalls.js';
import { RULES_SCREEN } from './ids.js';
import { FIREWALL_WRITE, ruleCreateForm, ruleEditForm } from './rule-forms.js';
import { defineResource } from '../../model/schema.js';
import { FIREWALL_ACTIONS, FirewallRule } from '../../model/firewalls.js';
import { DIRECTIONS, actionOf, addressesText, assertRuleset, assertUnchanged, removeRule, ruleLabel, ruleRows, ruleText, statedPolicy, type RuleRow } from './ruleset.js';

/** A row: the rule, where it sits, and the ruleset's policies (later releases). */
const RuleRowSchema = defineResource('firewall rule', {
  ...FirewallRule.fields!,
  id: { kind: 'string' },
  direction: { kind: 'string' },
  index: { kind: 'integer' },
  inbound_policy: { kind: 'enum', values: FIREWALL_ACTIONS, newer: true },
  outbound_policy: { kind: 'enum', values: FIREWALL_ACTIONS, newer: true },
});

/** The policies a later release states for the ruleset, each direction's whether it has rules or not; nothing for 4.83.1, whose meaning the firewall's own screen says. */
function policiesText(rows: RuleRow[]): string | undefined {
  const stated = DIRECTIONS.flatMap((d) => {
    const policy = rows[0] && statedPolicy(rows[0], d);
    return policy ? [`${d} policy ${policy}`] : [];
  });
  return stated.length ? `${stated.join(' · ')} (for traffic no rule matches)` : undefined;
}

/** Any rule change shows in the firewall list's rule counts and the sections' summary. */
const touchesFirewalls = () => [FIREWALLS_PATH];

export const firewallRules = defineScreen<RuleRow>({
  id: RULES_SCREEN,
  title: 'Rules',
  params: ['fw'],
  list: {
    path: (p) => rulesPath(p.fw!),
    root: 'beta',
    load: async (client, p) => ruleRows(await getRules(client, p.fw!)),
    writeScope: FIREWALL_WRITE,
    label: ruleLabel,
    columns: [
      { key: 'direction', title: 'Direction', width: 9 },
      { key: 'index', title: '#', width: 3, align: 'right', format: (r) => String(r.index + 1) },
      { key: 'action', title: 'Action', width: 6, format: actionOf, color: (r) => (actionOf(r) === 'DROP' ? 'red' : 'green') },
      { key: 'protocol', title: 'Proto', width: 5 },
      { key: 'ports', title: 'Ports', flex: 1 },
      { key: 'addresses', title: 'Addresses', flex: 3, format: addressesText },
    ],
    detail: {
      sections: [{ title: 'Rule', fields: ['direction', 'action', 'label', 'description', 'protocol', 'ports', 'addresses.ipv4', 'addresses.ipv6', 'inbound_policy', 'outbound_policy'] }],
      schema: RuleRowSchema,
    },
    summary: policiesText,
    create: { ...ruleCreateForm, invalidates: touchesFirewalls },
    edit: { ...ruleEditForm, invalidates: touchesFirewalls },
    delete: {
      confirm: (r) => `Delete ${ruleLabel(r)} (${ruleText(r, r.direction)})? The whole ruleset is replaced without it; traffic only it allowed is blocked at once.`,
      submit: async (r, ctx) => {
        const current = await getRules(ctx.client, ctx.params.fw!);
        assertUnchanged(current, r);
        const next = removeRule(current, r);
        assertRuleset(next);
        return putRules(ctx.client, ctx.params.fw!, next);
      },
      invalidates: touchesFirewalls,
    },
    empty: 'No rules. Press c to add one: at least one open inbound rule is needed.',
  },
});
