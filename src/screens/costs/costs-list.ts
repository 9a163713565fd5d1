import { BUCKETS_LIST, INSTANCES_LIST, NODEBALANCERS_LIST, TYPES_LIST, everyRow } from '../../store/lists.js';
import type { Instance } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { COST_GROUPINGS, costReport, typeMap, type CostGrouping } from '../../model/costs.js';
import { isPrivateAddress } from '../../model/formats.js';
import { plural } from '../../model/plural.js';
import { hourlyText, monthlyText, type PricedType } from '../../model/prices.js';
import type { ReadList } from '../../store/data.js';

export const COSTS_SCREEN = 'costs';

/** A line of the view: the total, a group, or items whose price the API does not publish. */
export interface CostRow {
  key: string;
  group: string;
  items: number;
  backups: number;
  monthly?: number;
  hourly?: number;
  note: string;
}

const UNPUBLISHED = 'price not published by the API: not counted';

/** Items 4.83.1 bills but prices nowhere: counted and named, never guessed. */
async function unpriced(read: ReadList, instances: readonly Instance[]): Promise<CostRow[]> {
  const count = async (group: string, read: () => Promise<number>): Promise<CostRow> => {
    try {
      return { key: `unpriced ${group}`, group, items: await read(), backups: 0, note: UNPUBLISHED };
    } catch (err) {
      return { key: `unpriced ${group}`, group, items: 0, backups: 0, note: `not read: ${(err as Error).message}` };
    }
  };
  return Promise.all([
    count('Load balancers', async () => (await read(NODEBALANCERS_LIST)).length),
    count('Object storage buckets', async () => (await read(BUCKETS_LIST)).length),
    // The first public IPv4 comes with the instance; more are extra.
    count('Extra public IPv4 addresses', async () => instances.reduce((n, vm) => n + Math.max(0, vm.ipv4.filter((a) => !isPrivateAddress(a)).length - 1), 0)),
  ]);
}

/**
 * The account's cost grouped as asked: the total first, then the groups,
 * costliest first, then what has no published price. Its lists as `read`
 * gives them: the view's loader reads them again on a refresh.
 */
export async function loadCosts(read: ReadList, by: CostGrouping): Promise<CostRow[]> {
  const [instances, types] = await Promise.all([read(INSTANCES_LIST) as Promise<Instance[]>, everyRow<PricedType>(read, TYPES_LIST)]);
  const report = costReport(instances, typeMap(types), by);
  const total: CostRow = {
    key: 'total',
    group: 'Total',
    items: report.priced,
    backups: report.backups,
    monthly: report.total.monthly,
    hourly: report.total.hourly,
    note: `${plural(report.priced, 'instance')}, offline ones too (they are billed)`,
  };
  const groups = report.lines.map(
    (l): CostRow => ({ key: `${by} ${l.group}`, group: l.group, items: l.items, backups: l.backups, monthly: l.price?.monthly, hourly: l.price?.hourly, note: l.note ?? '' }),
  );
  return [total, ...groups, ...(await unpriced(read, instances))];
}

const isGrouping = (v: string | undefined): v is CostGrouping => (COST_GROUPINGS as readonly string[]).includes(v ?? '');

/** `:costs` as a list: v switches the grouping (type, region, tag). */
export const costsList = defineScreen<CostRow>({
  id: COSTS_SCREEN,
  title: 'Costs',
  list: {
    // Not an API path: names the view's cached list, one per grouping.
    path: (p) => `costs/${p.by}`,
    load: (_client, p, _data, io) => loadCosts(io.read, isGrouping(p.by) ? p.by : 'type'),
    rowKey: (r) => r.key,
    label: (r) => r.group,
    switch: { param: 'by', values: COST_GROUPINGS },
    note: (p) => `By ${p.by} (v switches) · the API's type prices, backups in their instance's group${p.by === 'tag' ? ' · an instance with two tags counts in both, once in the total' : ''}`,
    columns: [
      { key: 'group', title: 'Group', flex: 2, color: (r) => (r.key === 'total' ? 'cyan' : undefined) },
      { key: 'items', title: 'Items', width: 6, align: 'right' },
      { key: 'backups', title: 'Backups', width: 8, align: 'right' },
      { key: 'monthly', title: 'Monthly', width: 11, align: 'right', format: (r) => (r.monthly === undefined ? '—' : monthlyText(r.monthly)), sortValue: (r) => r.monthly ?? -1 },
      { key: 'hourly', title: 'Hourly', width: 10, align: 'right', format: (r) => (r.hourly === undefined ? '—' : hourlyText(r.hourly)), sortValue: (r) => r.hourly ?? -1 },
      { key: 'note', title: 'Note', flex: 3 },
    ],
    subject: (r) => ({ record: r }),
    empty: 'Nothing priced.',
  },
});
