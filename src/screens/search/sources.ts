import { bucketPath, BUCKETS_PATH, listObjects, type Bucket, type ObjectEntry } from '../../api/object-storage.js';
import type { ManagedIssue } from '../../api/managed.js';
import { Q } from '../managed/queries.js';
import type { AppContextValue } from '../../app/context.js';
import { listPath, listQuery, type ScreenDef, type ScreenRegistry } from '../../app/screen.js';
import { flawOf } from '../../model/response.js';
import { queryKey, type DataState, type ListQuery } from '../../store/data.js';
import type { Params } from '../../store/nav.js';
import { CONFIGS_SCREEN, BALANCERS_SCREEN } from '../nodebalancers/ids.js';
import { exactText, matchesText, textsOf, type Query } from './match.js';

/**
 * What a search reads: the cached lists of every area (the very lists the
 * areas show, so a search warms them and they warm it), and below a few of
 * them the lists one drill further (a balancer's configs and their nodes), a
 * bucket's first page of objects and the open managed issues.
 */

type Row = Record<string, unknown>;

/** One nav step on the way to an item: a screen, its params, the crumb it shows. */
export interface Step {
  screen: string;
  params: Params;
  crumb?: string;
}

/** Rows of one list, and how to reach each. */
export interface Collection {
  area: string;
  /** The nav steps to the list holding the rows: a top-level screen first, then drills. */
  route: Step[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  label(row: Row): string;
  /** Where Enter on the row goes from its list; without it the list opens with the row selected and its detail shown. */
  drill?(row: Row): Step | undefined;
  /** Only a first page was read (bucket objects): said beside the hits. Rows may include items the client could not read (skipped). */
  partial?: boolean;
}

export interface Hit {
  collection: Collection;
  row: Row;
  exact: boolean;
}

/** Lists that are no account's items: reference data. */
const NOT_ITEMS = new Set(['regions', 'types', 'clusters', 'home']);
/** Lists whose rows' drill targets are searched too: a balancer's configs, a config's nodes. */
const EXPAND = new Set([BALANCERS_SCREEN, CONFIGS_SCREEN]);
/** Objects per bucket read for a search: the first page; more would be a listing of the whole store. */
export const OBJECTS_PER_BUCKET = 100;

const safe = <T>(run: () => T, fallback: T): T => {
  try {
    return run();
  } catch {
    return fallback;
  }
};

/** A list screen's rows as a collection, with its own key, label, crumb and drill. */
export function listCollection(registry: ScreenRegistry, def: ScreenDef, route: Step[], rows: readonly Row[]): Collection {
  const spec = def.list!;
  const rowKey = (r: Row) => safe(() => (spec.rowKey ? spec.rowKey(r) : String(r.id)), String(r.id));
  const label = (r: Row) => safe(() => spec.label?.(r) ?? (typeof r.label === 'string' && r.label ? r.label : rowKey(r)), rowKey(r));
  const params = route.at(-1)!.params;
  const drill = spec.drill
    ? (r: Row): Step | undefined => {
        const to = safe(() => spec.drill!(r, params), undefined);
        return to && registry.all.some((d) => d.id === to.screen) ? { screen: to.screen, params: to.params ?? {}, crumb: safe(() => spec.crumb?.(r), undefined) ?? label(r) } : undefined;
      }
    : undefined;
  // A list below another names the way to it: "Nodes in lb-1 › port 443".
  const area = route.length > 1 ? `${def.title} in ${route.slice(1).map((s) => s.crumb ?? '').join(' › ')}` : def.title;
  return { area, route, rows, rowKey, label, drill };
}

const objectsQuery = (b: Bucket): ListQuery => ({
  path: `${bucketPath(b.cluster, b.label)}/object-list`,
  load: async (client) => (await listObjects(client, b.cluster, b.label, { pageSize: OBJECTS_PER_BUCKET })).entries,
});

const folderOf = (name: string) => name.slice(0, name.lastIndexOf('/') + 1);

/** The object browser's steps down to an object's folder, one per folder, as Enter on each would push them. */
function objectRoute(b: Bucket, name: string): Step[] {
  const steps: Step[] = [{ screen: 'object-browser', params: { cluster: b.cluster, bucket: b.label, prefix: '' }, crumb: b.label }];
  const folder = folderOf(name);
  let prefix = '';
  for (const part of folder.split('/').slice(0, -1)) {
    const next = `${prefix}${part}/`;
    steps.push({ screen: 'object-browser', params: { cluster: b.cluster, bucket: b.label, prefix: next }, crumb: `${part}/` });
    prefix = next;
  }
  return steps;
}

const ISSUES_SCREEN = 'issues';
const ISSUE_SCREEN = 'managed-issue';
const issueLabel = (i: Row) => (i as unknown as ManagedIssue).entity?.label ?? `issue ${String(i.id)}`;

/** The open managed issues, each opening its triage view. */
export function issuesCollection(rows: readonly Row[]): Collection {
  return {
    area: 'Managed issues',
    route: [{ screen: ISSUES_SCREEN, params: {} }],
    rows,
    rowKey: (i) => String(i.id),
    label: issueLabel,
    drill: (i) => ({ screen: ISSUE_SCREEN, params: { issueId: String(i.id) }, crumb: issueLabel(i) }),
  };
}

/** The rows of an area's top-level list as a collection (the managed issues, or a list screen's). */
export function areaCollection(registry: ScreenRegistry, def: ScreenDef, rows: readonly Row[]): Collection {
  return def.id === ISSUES_SCREEN ? issuesCollection(rows) : listCollection(registry, def, [{ screen: def.id, params: {} }], rows);
}

/** What an area's top-level list reads: its list screen's query, or the managed issues. */
export const areaQuery = (def: ScreenDef): ListQuery | undefined => (def.id === ISSUES_SCREEN ? Q.issues : def.list ? listQuery(def.list, {}) : undefined);

export interface Plan {
  collections: Collection[];
  /** Lists to read that are not cached yet. */
  missing: ListQuery[];
  /** Lists being read, and read (for the progress line). */
  loading: number;
  total: number;
  /** Lists that failed for another reason than the token's scope: "Instances: 500 …". */
  failures: string[];
}

/** The collections a search reads now, from what the cache holds; what it lacks is named for loading. */
export function plan(app: Pick<AppContextValue, 'screens' | 'data'>, lists: DataState['lists']): Plan {
  const out: Plan = { collections: [], missing: [], loading: 0, total: 0, failures: [] };
  /** The rows of a list when it is there; otherwise it is counted as to load. */
  const take = (q: ListQuery, area: string): Row[] | undefined => {
    out.total++;
    const entry = lists[queryKey(q)];
    if (!entry) {
      out.missing.push(q);
      out.loading++;
      return undefined;
    }
    if (entry.status === 'error') {
      // What the token may not read is simply not searched.
      if (entry.errorStatus !== 401 && entry.errorStatus !== 403) out.failures.push(`${area}: ${entry.error ?? 'failed'}`);
      return undefined;
    }
    if (entry.status === 'loading' || entry.progress) out.loading++;
    return entry.rows as Row[];
  };
  const registry = app.screens as ScreenRegistry;
  const walk = (def: ScreenDef, route: Step[]) => {
    const rows = take(listQuery(def.list!, route.at(-1)!.params, app.data), def.title);
    if (!rows) return;
    const c = listCollection(registry, def, route, rows);
    out.collections.push(c);
    if (EXPAND.has(def.id)) {
      for (const r of c.rows) {
        if (flawOf(r)) continue;
        const to = c.drill?.(r);
        const child = to && registry.all.find((d) => d.id === to.screen);
        if (child?.list) walk(child, [...route, to!]);
      }
    }
    if (route.length === 1 && listPath(def.list!, {}) === BUCKETS_PATH) {
      for (const b of (c.rows as unknown as Bucket[]).filter((r) => !flawOf(r))) {
        const objects = take(objectsQuery(b), `Objects in ${b.label}`) as ObjectEntry[] | undefined;
        if (!objects) continue;
        const byFolder = new Map<string, ObjectEntry[]>();
        for (const o of objects) if (!o.name.endsWith('/')) byFolder.set(folderOf(o.name), [...(byFolder.get(folderOf(o.name)) ?? []), o]);
        for (const [, inFolder] of byFolder) {
          out.collections.push({
            area: `Objects in ${b.label}`,
            route: [route[0]!, ...objectRoute(b, inFolder[0]!.name)],
            rows: inFolder as unknown as Row[],
            rowKey: (o) => String(o.name),
            label: (o) => String(o.name),
            partial: objects.length >= OBJECTS_PER_BUCKET,
          });
        }
      }
    }
  };
  for (const def of registry.all) {
    if (def.params?.length || NOT_ITEMS.has(def.id)) continue;
    if (def.list) walk(def, [{ screen: def.id, params: {} }]);
  }
  // The open managed issues: triage is a view of its own, not a list screen.
  if (registry.all.some((d) => d.id === ISSUES_SCREEN) && registry.all.some((d) => d.id === ISSUE_SCREEN)) {
    const issues = take(Q.issues, 'Managed issues');
    if (issues) out.collections.push(issuesCollection(issues));
  }
  return out;
}

/** Every row of the collections that the query matches: exact matches first, then in the areas' order. */
export function search(collections: readonly Collection[], q: Query): Hit[] {
  const first: Hit[] = [];
  const rest: Hit[] = [];
  for (const collection of collections) {
    const texts = textsOf(collection.rows);
    for (let i = 0; i < texts.length; i++) {
      const row = collection.rows[i]!;
      // An item the client could not read has nothing to open.
      if (!matchesText(texts[i]!, row, q) || flawOf(row)) continue;
      const hit = { collection, row, exact: exactText(texts[i]!, q) };
      (hit.exact ? first : rest).push(hit);
    }
  }
  return [...first, ...rest];
}

/** Opens a hit as if reached by hand: its area, each drill on the way, then the item itself (drilled into, or selected with its detail). */
export function openHit(app: Pick<AppContextValue, 'nav' | 'views'>, hit: Hit): void {
  const { nav, views } = app;
  const [first, ...rest] = hit.collection.route;
  // From the root, as by hand: the search is not part of the item's path.
  while (nav.getState().pop());
  nav.getState().jump(first!.screen);
  for (const s of rest) nav.getState().push(s.screen, s.params, s.crumb);
  const to = hit.collection.drill?.(hit.row);
  if (to) {
    nav.getState().push(to.screen, to.params, to.crumb);
    return;
  }
  const key = hit.collection.rowKey(hit.row);
  views.getState().update(nav.getState().stack.at(-1)!.key, { selectedKey: key, overlay: { kind: 'detail', key } });
}
