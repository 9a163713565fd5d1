import type { Direction, FirewallRule, FirewallRules } from '../../api/firewalls.js';
import { FirewallRules as RulesSchema } from '../../model/firewalls.js';
import { assertBody } from './form-shape.js';

/** One rule as a row of the rules list: where it sits in the ruleset, and the rule itself. */
export interface RuleRow extends FirewallRule {
  id: string;
  direction: Direction;
  index: number;
}

export const DIRECTIONS: Direction[] = ['inbound', 'outbound'];

export function ruleRows(rules: FirewallRules): RuleRow[] {
  return DIRECTIONS.flatMap((direction) => (rules[direction] ?? []).map((rule, index) => ({ ...rule, id: `${direction}.${index}`, direction, index })));
}

export const addressesText = (r: FirewallRule) => [...(r.addresses?.ipv4 ?? []), ...(r.addresses?.ipv6 ?? [])].join(', ');

/** "TCP 80, 443 from 0.0.0.0/0, ::/0" (inbound) or "… to …" (outbound). */
export function ruleText(r: FirewallRule, direction: Direction): string {
  const addresses = addressesText(r) || 'nowhere';
  return `${r.protocol}${r.ports ? ` ${r.ports}` : ''} ${direction === 'inbound' ? 'from' : 'to'} ${addresses}`;
}

export const ruleLabel = (r: Pick<RuleRow, 'direction' | 'index'>) => `${r.direction} rule ${r.index + 1}`;

/** Only the rule's own fields, the way the API takes them. */
export function ruleOf(r: FirewallRule): FirewallRule {
  return { protocol: r.protocol, ...(r.ports !== undefined ? { ports: r.ports } : {}), ...(r.addresses ? { addresses: r.addresses } : {}) };
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
  const next: FirewallRules = { inbound: [...(rules.inbound ?? [])], outbound: [...(rules.outbound ?? [])] };
  if (from && from.direction === direction) {
    next[direction][from.index] = rule;
    return { rules: next, index: from.index };
  }
  if (from) next[from.direction].splice(from.index, 1);
  next[direction].push(rule);
  return { rules: next, index: next[direction].length - 1 };
}

export function removeRule(rules: FirewallRules, at: Pick<RuleRow, 'direction' | 'index'>): FirewallRules {
  const next: FirewallRules = { inbound: [...(rules.inbound ?? [])], outbound: [...(rules.outbound ?? [])] };
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
