import { NO_COST, addPrices, addsText, backupsPrice, typePrice, type Price, type PricedType } from './prices.js';

/** The fields of an instance that price it and group it. */
export interface CostInstance {
  type: string;
  region: string;
  tags: string[];
  backups: { enabled: boolean };
}

export const COST_GROUPINGS = ['type', 'region', 'tag'] as const;
export type CostGrouping = (typeof COST_GROUPINGS)[number];

/** A line of the costs view: a group of priced instances, or items whose price the API does not publish. */
export interface CostLine {
  group: string;
  /** Instances (or items) in the group. */
  items: number;
  /** Of them, with the backups add-on counted. */
  backups: number;
  /** Undefined: not published by the API, never guessed. */
  price?: Price;
  note?: string;
}

export interface CostReport {
  total: Price;
  /** Priced instances and, of them, those with backups. */
  priced: number;
  backups: number;
  lines: CostLine[];
}

/** What an instance of this type adds to the bill in this region, its backups add-on included when asked for; undefined when the type publishes no price. */
export function instancePrice(types: ReadonlyMap<string, PricedType>, type: string, region: string, withBackups: boolean): Price | undefined {
  const t = types.get(type);
  if (!t) return undefined;
  const base = typePrice(t, region);
  const addon = withBackups ? backupsPrice(t, region) : undefined;
  return addon ? addPrices(base, addon) : base;
}

export const NO_TAG = '(no tag)';

const groupsOf = (vm: CostInstance, by: CostGrouping): string[] => (by === 'type' ? [vm.type] : by === 'region' ? [vm.region] : vm.tags.length ? [...new Set(vm.tags)] : [NO_TAG]);

/**
 * The account's cost by type, region or tag: every instance (offline ones are
 * billed too) at its type's price plus the backups add-on when enabled. By
 * tag, an instance with two tags counts in both groups; the total counts it
 * once. Instances of a type with no published price are a line of their own.
 */
export function costReport(instances: readonly CostInstance[], types: ReadonlyMap<string, PricedType>, by: CostGrouping): CostReport {
  const groups = new Map<string, CostLine>();
  const unpriced = new Map<string, number>();
  let total = NO_COST;
  let priced = 0;
  let backups = 0;
  for (const vm of instances) {
    const t = types.get(vm.type);
    const withBackups = vm.backups.enabled && t !== undefined && backupsPrice(t, vm.region) !== undefined;
    const price = instancePrice(types, vm.type, vm.region, vm.backups.enabled);
    if (!price) {
      unpriced.set(vm.type, (unpriced.get(vm.type) ?? 0) + 1);
      continue;
    }
    total = addPrices(total, price);
    priced++;
    if (withBackups) backups++;
    for (const g of groupsOf(vm, by)) {
      const line = groups.get(g) ?? { group: g, items: 0, backups: 0, price: NO_COST };
      line.items++;
      if (withBackups) line.backups++;
      line.price = addPrices(line.price!, price);
      groups.set(g, line);
    }
  }
  const lines = [...groups.values()].sort((a, b) => b.price!.monthly - a.price!.monthly || a.group.localeCompare(b.group));
  for (const [type, n] of unpriced) lines.push({ group: `type ${type}`, items: n, backups: 0, note: 'the API publishes no price for this type' });
  return { total, priced, backups, lines };
}

/** Something an action adds to the bill: a new instance of a type (its backups too when asked for), or the backups add-on of an existing one. */
export interface Addition {
  type: string;
  region: string;
  instance: boolean;
  backups: boolean;
}

export const typeMap = (types: readonly PricedType[]): Map<string, PricedType> => new Map(types.map((t) => [t.id, t]));

/** The price of an addition; undefined when its type publishes no such price. */
export function additionPrice(types: ReadonlyMap<string, PricedType>, a: Addition): Price | undefined {
  if (a.instance) return instancePrice(types, a.type, a.region, a.backups);
  const t = types.get(a.type);
  return t && a.backups ? backupsPrice(t, a.region) : undefined;
}

/** The confirmation's line: "This adds $24.00/month, $0.036/hour." (summed over several), or why it cannot say. */
export function additionText(types: ReadonlyMap<string, PricedType>, additions: readonly Addition[]): string {
  let sum = NO_COST;
  const unknown = new Set<string>();
  for (const a of additions) {
    const p = additionPrice(types, a);
    if (p) sum = addPrices(sum, p);
    else unknown.add(a.instance ? a.type : `${a.type} backups`);
  }
  const n = additions.length;
  const over = n > 1 ? ` for the ${n}` : '';
  if (unknown.size === n) return `Cost not known: the API publishes no price for ${[...unknown].join(', ')}.`;
  const rest = unknown.size ? ` (and more: no price published for ${[...unknown].join(', ')})` : '';
  return `This ${addsText(sum)}${over}${rest}.`;
}
