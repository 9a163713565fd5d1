import type { Direction, FirewallAction, FirewallRule, FirewallRules } from '../../api/firewalls.js';
import { FirewallRules as RulesSchema } from '../../model/firewalls.js';
import { assertBody } from './form-shape.js';

/**
 * One rule as a row of the rules list: where it sits in the ruleset, the rule
 * itself, and the policies the server states for the ruleset (later releases),
 * both on every row: a direction with no rule has a policy too.
 */
export interface RuleRow extends FirewallRule, Partial<Pick<FirewallRules, 'inbound_policy' | 'outbound_policy'>> {
  id: string;
  direction: Direction;
  index: number;
}

export const DIRECTIONS: Direction[] = ['inbound', 'outbound'];

const POLICY_FIELD = { inbound: 'inbound_policy', outbound: 'outbound_policy' } as const;

export function ruleRows(rules: FirewallRules): RuleRow[] {
  const { inbound_policy, outbound_policy } = rules;
  const policies = defined({ inbound_policy, outbound_policy });
  return DIRECTIONS.flatMap((direction) => (rules[direction] ?? []).map((rule, index) => ({ ...rule, id: `${direction}.${index}`, direction, index, ...policies })));
}

/** The policy a server states for a direction (later releases), or undefined (4.83.1). */
export const statedPolicy = (rules: Partial<FirewallRules>, direction: Direction): FirewallAction | undefined => rules[POLICY_FIELD[direction]];

/**
 * What happens to traffic no rule matches: the stated policy, else 4.83.1's
 * fixed meaning (inbound: blocked; outbound: allowed while there is no
 * outbound rule, blocked once there is one).
 */
export function policyOf(rules: Partial<FirewallRules>, direction: Direction): FirewallAction {
  const stated = statedPolicy(rules, direction);
  if (stated) return stated;
  return direction === 'inbound' || (rules.outbound?.length ?? 0) > 0 ? 'DROP' : 'ACCEPT';
}

/** What a rule does with the traffic it matches: its action (later releases); a 4.83.1 rule allows. */
export const actionOf = (r: FirewallRule): FirewallAction => r.action ?? 'ACCEPT';

/** "only what the rules allow", "all but what the rules drop", "all allowed", "all blocked". */
export function trafficText(rules: Partial<FirewallRules>, direction: Direction): string {
  const policy = policyOf(rules, direction);
  const overriding = (rules[direction] ?? []).some((r) => actionOf(r) !== policy);
  if (policy === 'ACCEPT') return overriding ? 'all but what the rules drop' : 'all allowed';
  return overriding ? 'only what the rules allow' : 'all blocked';
}

/** "inbound: only what the rules allow", with the policy named where the server states it. */
export function directionText(rules: Partial<FirewallRules>, direction: Direction): string {
  const stated = statedPolicy(rules, direction);
  return `${direction}: ${trafficText(rules, direction)}${stated ? ` (policy ${stated})` : ''}`;
}

/** The heading of a direction's rules in a firewall's detail. */
export function rulesHeading(rules: Partial<FirewallRules>, direction: Direction): string {
  const title = direction === 'inbound' ? 'Inbound rules' : 'Outbound rules';
  const stated = statedPolicy(rules, direction);
  if (stated) return `${title} (policy ${stated}: traffic no rule matches is ${stated === 'ACCEPT' ? 'allowed' : 'blocked'})`;
  // 4.83.1's fixed meaning.
  return direction === 'inbound' ? `${title} (unlisted inbound traffic is blocked)` : `${title} (none: all outbound traffic allowed)`;
}

export const addressesText = (r: FirewallRule) => [...(r.addresses?.ipv4 ?? []), ...(r.addresses?.ipv6 ?? [])].join(', ');

/** "TCP 80, 443 from 0.0.0.0/0, ::/0" (inbound) or "… to …" (outbound); "DROP TCP …" where the rule states its action. */
export function ruleText(r: FirewallRule, direction: Direction): string {
  const addresses = addressesText(r) || 'nowhere';
  return `${r.action ? `${r.action} ` : ''}${r.protocol}${r.ports ? ` ${r.ports}` : ''} ${direction === 'inbound' ? 'from' : 'to'} ${addresses}`;
}

export const ruleLabel = (r: Pick<RuleRow, 'direction' | 'index'>) => `${r.direction} rule ${r.index + 1}`;

/** Only the rule's own fields, the way the API takes them: a later server's action, label and description kept. */
export function ruleOf(r: FirewallRule): FirewallRule {
  const { protocol, ports, addresses, action, label, description } = r;
  return { protocol, ...(ports !== undefined ? { ports } : {}), ...(addresses ? { addresses } : {}), ...defined({ action, label, description }) };
}

const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** A copy to change: the rule lists, and the policies a later server states (its read-only version and fingerprint are not sent back). */
function copyRules(rules: FirewallRules): FirewallRules {
  const { inbound_policy, outbound_policy } = rules;
  return { inbound: [...(rules.inbound ?? [])], outbound: [...(rules.outbound ?? [])], ...defined({ inbound_policy, outbound_policy }) };
}

const sameRule = (a: FirewallRule | undefined, b: FirewallRule) => a !== undefined && JSON.stringify(ruleOf(a)) === JSON.stringify(ruleOf(b));

/** Where a rule sits; the list it came from must still hold it there, or someone changed the rules meanwhile. */
export function assertUnchanged(rules: FirewallRules, at: Pick<RuleRow, 'direction' | 'index'> & FirewallRule): void {
  if (!sameRule(rules[at.direction]?.[at.index], at)) {
    throw new Error(`The rules changed since this list was loaded (${ruleLabel(at)} is no longer what it was); press r to refresh and try again`);
  }
}

/** The ruleset with `rule` added to `direction`, or put in place of the rule at `from` (moved to the end of the other list when its direction changed). */
export function placeRule(rules: FirewallRules, rule: FirewallRule, direction: Direction, from?: Pick<RuleRow, 'direction' | 'index'>): { rules: FirewallRules; index: number } {
  const next = copyRules(rules);
  if (from && from.direction === direction) {
    next[direction][from.index] = rule;
    return { rules: next, index: from.index };
  }
  if (from) next[from.direction].splice(from.index, 1);
  next[direction].push(rule);
  return { rules: next, index: next[direction].length - 1 };
}

export function removeRule(rules: FirewallRules, at: Pick<RuleRow, 'direction' | 'index'>): FirewallRules {
  const next = copyRules(rules);
  next[at.direction].splice(at.index, 1);
  return next;
}

/**
 * The whole new ruleset, checked with the model before the PUT replaces the
 * old one; problems of the rule being edited land on its fields, the rest
 * (an open inbound rule, the rule limit) on the form.
 */
export function assertRuleset(rules: FirewallRules, edited?: { direction: Direction; index: number }): void {
  const prefix = edited ? `${edited.direction}.${edited.index}.` : undefined;
  const fieldOf = (path: string) => (prefix && path.startsWith(prefix) ? path.slice(prefix.length) : undefined);
  assertBody(RulesSchema, { ...rules }, 'create', fieldOf, 'The new ruleset is not valid');
}
