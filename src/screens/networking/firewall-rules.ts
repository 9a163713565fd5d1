import { defineScreen } from '../../app/screen.js';
import { FIREWALLS_PATH, getRules, putRules, rulesPath } from '../../api/firewalls.js';
import { RULES_SCREEN } from './ids.js';
import { FIREWALL_WRITE, ruleCreateForm, ruleEditForm } from './rule-forms.js';
import { addressesText, assertRuleset, assertUnchanged, removeRule, ruleLabel, ruleRows, ruleText, type RuleRow } from './ruleset.js';

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
      { key: 'protocol', title: 'Proto', width: 5 },
      { key: 'ports', title: 'Ports', flex: 1 },
      { key: 'addresses', title: 'Addresses', flex: 3, format: addressesText },
    ],
    detail: { sections: [{ title: 'Rule', fields: ['direction', 'protocol', 'ports', 'addresses.ipv4', 'addresses.ipv6'] }] },
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
