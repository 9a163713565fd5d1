import type { ComponentType } from 'react';
import type { ApiClient, Root } from '../api/client.js';
import type { Instance } from '../api/instances.js';
import type { DataStore, LoadIo } from '../store/data.js';
import type { AppContextValue } from './context.js';
import type { AddGrant, MessageKind } from '../store/session.js';
import type { GrantKind } from '../model/profile.js';
import type { ResourceSchema } from '../model/schema.js';
import type { NavEntry, Params } from '../store/nav.js';
import type { FormSpec } from '../components/form/types.js';
import type { ListQuery } from '../store/data.js';
import type { Addition } from '../model/costs.js';
import type { JobsStore } from '../store/jobs.js';
import type { JobKind, JobSubject } from '../model/jobs.js';

/** What list specs' callbacks (actions, forms, loaders) get to work with. */
export interface ScreenCtx {
  client: ApiClient;
  /** The params of this screen's nav entry. */
  params: Params;
  /** Refetch (or drop) every cached list under these API paths. */
  invalidate(...prefixes: string[]): void;
  notify(text: string, kind?: MessageKind): void;
  push(screen: string, params?: Params, label?: string): void;
  /** This session's jobs: a long action followed through its events. */
  jobs: JobsStore;
}

/** A long action followed as a job (src/model/jobs.ts): its event, its name, and the item its event is about (the row, as an instance, by default). */
export interface ActionJob<R> extends Omit<JobKind, 'doing'> {
  doing?: string;
  /** What the event names (its type and id); the label is what the job's messages call it. */
  subject?: (row: R, params: Params) => JobSubject;
}

export interface Column<R> {
  /** Field name (dotted for nested); the cell shows row[key] unless `format` says otherwise. */
  key: string;
  title: string;
  /** Fixed width in characters; columns without one share the rest by `flex` (default 1). */
  width?: number;
  flex?: number;
  align?: 'left' | 'right';
  /**
   * What a row is known by (a label, a type, an address): kept whole while a
   * narrow terminal shortens, then drops, the other columns (the rightmost
   * first); cut only when the identifiers alone do not fit.
   */
  identifier?: boolean;
  format?: (row: R) => string;
  /** Ink color name for the cell (status columns); ignored under NO_COLOR. */
  color?: (row: R) => string | undefined;
  /** Sort key when it differs from the shown text (sizes, dates). */
  sortValue?: (row: R) => string | number;
}

export interface DetailSection {
  title: string;
  fields: string[];
}

/** Sections of fields, or sections that depend on the record (a firewall's policies name its rule sections). */
export type DetailSections = DetailSection[] | ((record: any) => DetailSection[]);

export interface DetailSpec<R> {
  /** Sections of fields (dotted paths allowed); without them every field, flattened. */
  sections?: DetailSections;
  /**
   * The resource the record is, when not the one the list's path returns
   * (rows the client makes): its unknown fields show under "More fields".
   * `false`: the record is the client's own (a summary), with nothing unknown.
   */
  schema?: ResourceSchema | false;
  /** Fetch the full record when the list's rows are partial. */
  fetch?: (row: R, ctx: ScreenCtx) => Promise<unknown>;
  /** What d and y call the record, where it is not the row's label (an overview's line shows the record it is about). */
  title?: (row: R) => string;
}

/** A message for the message line, or a secret shown once in full. */
export type ActionResult = string | void | { message?: string; secret?: { title: string; value: string; note?: string } };

export interface ActionSpec<R> {
  id: string;
  label: string;
  /** Shortcut letter inside the actions menu. */
  key?: string;
  /** Scope the API asks for; the menu marks the action when the token lacks it. */
  scope?: string;
  destructive?: boolean;
  /**
   * False for an action that changes nothing on the account (opens a view,
   * shows or downloads something): it stays under --read-only and needs only
   * its own `scope`, not the list's write scope.
   */
  changes?: boolean;
  /** Ask first, with this text. */
  confirm?: string | ((row: R) => string);
  /** Irreversible: the user types the item's label to confirm. */
  typeToConfirm?: boolean;
  /** Only offered for rows where it applies. */
  when?: (row: R) => boolean;
  /** Offered, but refused for this row with the reason (shown beside it in the menu, and as the message when chosen). */
  refuse?: (row: R) => string | undefined;
  /** What it adds to the bill for the row: its confirm says how much (summed over marked rows). */
  adds?: (row: R) => Addition | undefined;
  /** Collects a body first; the form's submit performs the action. */
  form?: FormSpec<R>;
  run?: (row: R, ctx: ScreenCtx) => Promise<ActionResult>;
  /** API paths whose lists change; the list's own path is always refetched. */
  invalidates?: (row: R, params: Params) => string[];
  /**
   * Also acts on every marked item at once (Space marks; `a` with marks):
   * one confirm naming them, the rows it does not apply to skipped. A form
   * is filled once and sent for each.
   */
  bulk?: boolean;
  /** A long action: followed through its events until it ends (`:jobs`, the header's count). */
  job?: ActionJob<R>;
}

export interface DeleteSpec<R> {
  /** Why this row cannot be deleted (a public image): the key says so instead of asking. */
  refuse?: (row: R, user?: string) => string | undefined;
  confirm?: (row: R) => string;
  /** What the action is called where "Delete" would mislead: tokens are revoked, nodes removed. */
  verb?: 'Revoke' | 'Remove';
  typeToConfirm?: boolean;
  scope?: string;
  submit: (row: R, ctx: ScreenCtx) => Promise<unknown>;
  invalidates?: (row: R, params: Params) => string[];
  /** Ctrl-D with marks deletes every marked item; false where that makes no sense. */
  bulk?: boolean;
  /** Why a marked row is left out of a bulk delete though it may be deleted alone (the token this session uses). */
  bulkRefuse?: (row: R) => string | undefined;
}

/** Where Enter on a row goes. */
export interface DrillTarget {
  screen: string;
  params?: Params;
  /** Screens pushed first, the way a user would have come (a balancer's ports before a port's nodes). */
  via?: { screen: string; params: Params; label?: string }[];
  /** The list opened selects this row (by its key). */
  select?: string;
  /** The list opened is filtered to this text. */
  filter?: string;
}

export interface ListSpec<R> {
  /** API path of the paged list; a function of the nav params for nested lists. */
  path: string | ((p: Params) => string);
  root?: Root;
  /** Server-side X-Filter sent with every page. */
  filter?: (p: Params) => unknown;
  /**
   * For lists that are not paged (backups) or paged by marker (objects), or
   * joined with others: `io.read` reads the lists it joins through the data
   * store's cache, `io.show` draws the rows known so far while the first read
   * runs (an overview's own parts before its relations).
   */
  load?: (client: ApiClient, p: Params, data: DataStore | undefined, io: LoadIo) => Promise<R[]>;
  columns: Column<R>[];
  /** Identity of a row, to keep the selection across refreshes; default String(row.id). */
  rowKey?: (row: R) => string;
  /** Name of a row for breadcrumbs and confirmations; default row.label, else the key. */
  label?: (row: R) => string;
  /** The breadcrumb of a drill-down from a row where it is not its label ('' for none). */
  crumb?: (row: R) => string;
  /** Scope that create, edit, delete and actions need unless they name their own. */
  writeScope?: string;
  /**
   * For a restricted user: the grants that changes need, marked like missing
   * scopes. `id` names the entity a row belongs to (default its id; the parent
   * instance for a disk); `add` is the global grant that create needs.
   */
  grant?: { kind: GrantKind; add?: AddGrant; id?: (row: R | undefined, params: Params) => number | string | undefined };
  detail?: DetailSpec<R>;
  /** Enter: the screen to push for a row; without it Enter shows the detail. */
  drill?: (row: R, p: Params) => DrillTarget | undefined;
  actions?: ActionSpec<R>[];
  create?: FormSpec<R>;
  edit?: FormSpec<R>;
  delete?: DeleteSpec<R>;
  /** Shown when the list is empty. */
  empty?: string;
  /** What the list holds, in words, where the rows decide it (logins: how many failed); first on the line above the list. */
  summary?: (rows: R[]) => string | undefined;
  /** What Y copies from a row where it is not the row at its own endpoint: the instance an overview line stands for. */
  subject?: (row: R, p: Params) => { record: unknown; path?: string; root?: Root };
  /** The instance a row is or stands for: s logs in to it with ssh, Y offers its ssh command line. */
  instance?: (row: R) => Instance | undefined;
  /** What `x` shows the xray of (src/screens/xray): the kind and ids of the row's item; rows standing for an instance (`instance`) need none. */
  xray?: (row: R, p: Params) => Params;
  /** Ways to show the same list (costs by type, region, tag): `v` cycles the param through the values, the first by default. */
  switch?: { param: string; values: readonly string[] };
  /** One line over the table about the whole list, for these params (what it counts twice). */
  note?: (p: Params) => string | undefined;
}

export interface ScreenProps {
  entry: NavEntry;
  width: number;
  height: number;
}

export interface ScreenDef<R = any> {
  id: string;
  title: string;
  /** More names for the `:` command line. */
  aliases?: string[];
  /** Nav params the screen needs; such screens are reached by drilling, not by `:`. */
  params?: string[];
  /** One line for the home view. */
  description?: string;
  /** Listed on the home view with its count (default: screens without params). */
  home?: boolean;
  /** How home counts it; list screens count their path's `results` by default. */
  count?: (client: ApiClient, data: DataStore) => Promise<number>;
  /** The declarative resource list; or `component` for anything else. */
  list?: ListSpec<R>;
  component?: ComponentType<ScreenProps>;
  /** `:` pushes it over the stack instead of jumping (a view of the app, not an area: the tabs). */
  push?: boolean;
  /** A component that filters with / as lists do, so `:name words` can open it filtered. */
  filterable?: boolean;
  /**
   * Asks for what the screen shows as it opens. Called for the app's first
   * screen before its first frame is drawn, so the answers are on their way
   * while that frame renders.
   */
  prefetch?: (app: AppContextValue) => void;
}

/** Helps TypeScript infer the row type of a list screen from its columns' callbacks. */
export const defineScreen = <R>(def: ScreenDef<R>): ScreenDef<R> => def;

export const listPath = (spec: ListSpec<unknown>, params: Params) => (typeof spec.path === 'function' ? spec.path(params) : spec.path);

/** The cached list a list screen shows for these params: one key for the screen, search and anything else reading it. */
export const listQuery = (spec: ListSpec<any>, params: Params, data?: DataStore): ListQuery => ({
  path: listPath(spec, params),
  root: spec.root,
  filter: spec.filter?.(params),
  load: spec.load && ((c, io) => spec.load!(c, params, data, io)),
  flawed: 'mark',
});

export class ScreenRegistry {
  private readonly byName = new Map<string, ScreenDef>();

  constructor(readonly all: ScreenDef[]) {
    for (const def of all) {
      for (const name of [def.id, ...(def.aliases ?? [])]) {
        if (this.byName.has(name)) throw new Error(`Screen name "${name}" is used twice`);
        this.byName.set(name, def);
      }
    }
  }

  get(id: string): ScreenDef {
    const def = this.byName.get(id);
    if (!def) throw new Error(`No screen "${id}"`);
    return def;
  }

  /** A screen `:` can jump to, by id or alias. */
  find(name: string): ScreenDef | undefined {
    const def = this.byName.get(name.trim().toLowerCase());
    return def && !def.params?.length ? def : undefined;
  }

  /** Every name `:` accepts, ids first. */
  names(): string[] {
    const jumpable = this.all.filter((d) => !d.params?.length);
    return [...jumpable.map((d) => d.id), ...jumpable.flatMap((d) => d.aliases ?? [])];
  }

  homeScreens(): ScreenDef[] {
    return this.all.filter((d) => d.home ?? !d.params?.length);
  }
}
