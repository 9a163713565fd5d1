import { randomBytes } from 'node:crypto';
import { OWNER_ID, RESTRICTED_ID, emptyGrants, hashToken, issueToken, newTokenValue, type User } from '../auth.js';
import { seedAccount } from '../seed/index.js';
import type { Simulation } from '../sim.js';
import type { Store } from '../store.js';
import { recordIpv4 } from '../ipam.js';
import { parseApiTime } from '../../model/time.js';
import { isRecord } from '../../model/response.js';
import { isPrivateAddress } from '../../model/formats.js';
import { CHILDREN, LISTS, SINGLES, holdItem, newUnheld, pathOf, type Item, type ListDef, type Unheld } from './lists.js';
import { Source, SourceError } from './source.js';

/**
 * Copies an account read through the API into a store, as the service keeps
 * it: the same ids, labels, relations, states and timestamps, so that
 * `serve --data FILE` answers as that account. It only reads (GET) the
 * source. What is secret stays behind: tokens get new values (printed once
 * by the caller), TLS private keys, passwords and two-factor secrets are not
 * readable and are not invented.
 *
 * Each page is written in a transaction with the note of how far the import
 * got, so an interrupted import resumes at the next page.
 */

/** Object names read per bucket unless asked otherwise (`--objects`, the control import's `objects`). */
export const DEFAULT_OBJECTS = 1000;

export interface ImportOptions {
  /** Object names read per bucket. */
  objects: number;
  /** Told as lists progress: one line per area, again as pages come. */
  progress?: (area: string, done: number, total: number, final: boolean) => void;
  /** How many lists (an instance's disks, configs, backups…) are read at once. */
  parallel?: number;
}

export interface Skipped {
  area: string;
  /** The scope that would read it, when the source refused for want of one. */
  scope: string | null;
  reason: string;
}

export interface ImportReport {
  /** Records written, by area. */
  counts: Map<string, number>;
  skipped: Skipped[];
  unheld: Unheld;
  /** Secrets the source holds that did not come over, by what they are: `TLS private keys` → 2. */
  notCopied: Map<string, number>;
  /** The new tokens (shown once): the owner's, and the restricted user's when the token read a restricted profile. */
  token: string;
  restrictedToken: string | null;
  /** Where the account's clock starts. */
  clock: string;
  records: number;
  /** Some list broke off (the network, a timeout): the file stays unfinished, for `--resume`. */
  interrupted: boolean;
}

export const IMPORT_META = 'import.source';
const DONE_META = 'import.done:';
const PAGE_META = 'import.page:';
const TOKENS_META = 'import.tokens';
const FINISHED_META = 'import.finished';

/** The largest page 4.83.1 serves: fewer requests for large accounts. */
const PAGE_SIZE = 100;
/** A page count no list of an account reaches (5 million records): the bound on a source that never ends its pages. */
const MAX_PAGES = 10_000;


/** An import that had not finished when it stopped: only `--resume` writes into it. */
export const unfinishedImport = (store: Store): string | undefined =>
  store.getMeta(FINISHED_META) === undefined ? store.getMeta(IMPORT_META) : undefined;

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface Ctx {
  store: Store;
  source: Source;
  opts: ImportOptions;
  report: ImportReport;
  username: string;
  userId: number;
  latest: number;
}

const count = (report: ImportReport, area: string, n: number) => report.counts.set(area, (report.counts.get(area) ?? 0) + n);
const bumpNotCopied = (report: ImportReport, what: string) => report.notCopied.set(what, (report.notCopied.get(what) ?? 0) + 1);

/** Timestamps the records carry: the latest is where the account's clock starts when the source sent no Date. */
const TIME_FIELDS = ['created', 'updated', 'datetime', 'last_modified', 'finished', 'last_authenticated'];
function noteTimes(ctx: Ctx, item: Item): void {
  for (const f of TIME_FIELDS) {
    const v = item[f];
    if (typeof v !== 'string') continue;
    const t = parseApiTime(v);
    if (Number.isFinite(t) && t > ctx.latest) ctx.latest = t;
  }
}

async function read(ctx: Ctx, def: ListDef, path: string, headers: Record<string, string> = {}): Promise<unknown> {
  const answer = await ctx.source.get(def.root, path, headers);
  if (answer.status === 200) return answer.body;
  if (answer.status === 204) return null;
  throw new Refused(answer.status, answer.reason);
}

const xFilter = (ctx: Ctx, def: ListDef): Record<string, string> => (def.filter ? { 'x-filter': JSON.stringify(def.filter({ username: ctx.username })) } : {});

/**
 * Every page of a list, written as it comes: stops at the first empty or
 * short page, or at the page the source said was last, and never reads more
 * than MAX_PAGES. A resumed list starts after the last page written.
 */
async function readPages(ctx: Ctx, def: ListDef, path: string, write: (items: Item[]) => void): Promise<void> {
  const { store } = ctx;
  if (store.getMeta(DONE_META + path)) return;
  let page = Number(store.getMeta(PAGE_META + path) ?? 1);
  let headers = xFilter(ctx, def);
  for (; page <= MAX_PAGES; page++) {
    let body: unknown;
    try {
      body = await read(ctx, def, `${path}?page=${page}&page_size=${PAGE_SIZE}`, headers);
    } catch (err) {
      // A source that does not filter on a field this release filters on is read whole, and each item checked.
      if (!(err instanceof Refused) || err.status !== 400 || !headers['x-filter']) throw err;
      headers = {};
      body = await read(ctx, def, `${path}?page=${page}&page_size=${PAGE_SIZE}`, headers);
    }
    const answered = isRecord(body) ? body : {};
    const data = Array.isArray(answered.data) ? answered.data.filter(isRecord) : null;
    if (!data) throw new Refused(200, `the page of ${path} has no data list`);
    const kept = def.keep ? data.filter((item) => def.keep!(item, { username: ctx.username })) : data;
    const pages = typeof answered.pages === 'number' ? answered.pages : page;
    const last = data.length === 0 || data.length < PAGE_SIZE || page >= pages;
    store.tx(() => {
      for (const item of kept) noteTimes(ctx, item);
      write(kept);
      store.setMeta(PAGE_META + path, String(page + 1));
      if (last) store.setMeta(DONE_META + path, '1');
    });
    count(ctx.report, def.area, kept.length);
    ctx.opts.progress?.(def.area, ctx.report.counts.get(def.area) ?? 0, typeof answered.results === 'number' ? answered.results : kept.length, false);
    if (last) return;
  }
}

/** Runs one area; a refusal or a failure is noted and the import goes on. */
async function area(ctx: Ctx, def: ListDef, run: () => Promise<void>): Promise<boolean> {
  try {
    await run();
    const done = ctx.report.counts.get(def.area) ?? 0;
    ctx.opts.progress?.(def.area, done, done, true);
    return true;
  } catch (err) {
    if (err instanceof Refused) {
      const byScope = err.status === 403 && def.scope !== 'none';
      // The source's trouble, not the token's: a re-run with --resume may read it.
      if (err.status === 429 || err.status >= 500) ctx.report.interrupted = true;
      if (!ctx.report.skipped.some((s) => s.area === def.area)) {
        ctx.report.skipped.push({ area: def.area, scope: byScope ? def.scope : null, reason: err.status === 200 ? err.reason : `HTTP ${err.status}: ${err.reason}` });
      }
      return false;
    }
    if (err instanceof SourceError) {
      ctx.report.interrupted = true;
      if (!ctx.report.skipped.some((s) => s.area === def.area)) ctx.report.skipped.push({ area: def.area, scope: null, reason: err.message });
      return false;
    }
    throw err;
  }
}

/** Runs `fn` on every item, `parallel` at a time. */
async function eachParallel<T>(items: T[], parallel: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}

const ids = (store: Store, kind: string) => store.db.prepare('SELECT id FROM rows WHERE kind = ? ORDER BY ord').pluck().all(kind) as string[];

/** Lists under each parent of a kind (an instance's disks), read `parallel` at a time; a parent the source refuses is skipped alone. */
async function childLists(ctx: Ctx, def: ListDef, parents: string[][], write: (parent: string[], items: Item[]) => void): Promise<void> {
  let failure: unknown;
  await eachParallel(parents, ctx.opts.parallel ?? 4, async (parent) => {
    try {
      await readPages(ctx, def, pathOf(def, ...parent), (items) => write(parent, items));
    } catch (err) {
      failure ??= err;
    }
  });
  if (failure) throw failure;
}

function insert(store: Store, kind: string, id: string | number, data: Item, opts: { parent?: string | null; key?: string | null; ord?: number } = {}): void {
  // A page read again after an interrupted run may hold what was written already.
  if (store.get(kind, id) !== undefined) store.delete(kind, id);
  store.insert(kind, id, data, opts);
}

const held = (ctx: Ctx, def: ListDef, path: string, item: Item) => holdItem(path, def.area, item, ctx.report.unheld);

// ---- the areas ----

async function profile(ctx: Ctx): Promise<void> {
  const def = SINGLES.profile;
  const body = await read(ctx, def, def.path);
  if (!isRecord(body) || typeof body.username !== 'string') throw new Refused(200, 'the profile has no username');
  const restricted = body.restricted === true;
  ctx.username = body.username;
  ctx.userId = restricted ? RESTRICTED_ID : OWNER_ID;
  let grants = undefined;
  if (restricted) {
    const view = await read(ctx, def, '/profile/grants').catch(() => null);
    grants = isRecord(view) ? storedGrants(view) : emptyGrants();
  }
  const { store } = ctx;
  const seedUser = store.get<User>('user', ctx.userId)!;
  const user: User = { ...seedUser, ...held(ctx, def, '/profile', body), id: ctx.userId, uid: typeof body.uid === 'number' ? body.uid : ctx.userId, restricted, grants };
  if (body.two_factor_auth === true) bumpNotCopied(ctx.report, 'two-factor secrets (two-factor login stays on, with no secret: turn it off and on again to set one)');
  store.tx(() => store.put('user', ctx.userId, user));
  count(ctx.report, 'profile', 1);
}

/** The grants a restricted profile reads (ids with labels) as the service keeps them (ids with permissions). */
function storedGrants(view: Item): User['grants'] {
  const grants = emptyGrants();
  if (isRecord(view.global)) grants.global = { ...grants.global, ...(view.global as unknown as typeof grants.global) };
  for (const kind of ['vm', 'nodebalancer', 'image', 'stackscript'] as const) {
    const list = Array.isArray(view[kind]) ? (view[kind] as unknown[]).filter(isRecord) : [];
    grants[kind] = list.map((g) => ({
      id: kind === 'image' ? `private/${g.id}` : kind === 'stackscript' ? String(g.id) : Number(g.id),
      permissions: g.permissions,
    })) as never;
  }
  return grants;
}

async function preferences(ctx: Ctx, client: string): Promise<void> {
  const body = await read(ctx, SINGLES.preferences, SINGLES.preferences.path);
  if (!isRecord(body)) return;
  const user = ctx.store.get<User>('user', ctx.userId)!;
  ctx.store.tx(() => ctx.store.put('user', ctx.userId, { ...user, preferences: { [client]: body } }));
  count(ctx.report, 'preferences', 1);
}

function profileLists(ctx: Ctx): [ListDef, () => Promise<void>][] {
  const parent = () => String(ctx.userId);
  const simple = (def: ListDef, kind: string, extra: (item: Item) => Item = (i) => i) =>
    [def, () => readPages(ctx, def, def.path, (items) => items.forEach((i) => insert(ctx.store, kind, Number(i.id), extra(held(ctx, def, def.path, i)), { parent: parent() })))] as [ListDef, () => Promise<void>];
  return [
    simple(LISTS.sshkeys, 'sshkey'),
    // An app's OAuth client is not shown: one of its own, so revoking it revokes nothing else.
    simple(LISTS.apps, 'app', (i) => ({ ...i, _client: `imported-app-${String(i.id)}` })),
    simple(LISTS.devices, 'device'),
    simple(LISTS.logins, 'login'),
    [
      LISTS.tokens,
      () =>
        readPages(ctx, LISTS.tokens, LISTS.tokens.path, (items) => {
          for (const item of items) {
            // The metadata only: a hash of a value nobody holds, so no copied token works.
            const record = { ...held(ctx, LISTS.tokens, LISTS.tokens.path, item), user_id: ctx.userId, client: 'personal' };
            insert(ctx.store, 'token', Number(item.id), record, { parent: parent(), key: hashToken(randomBytes(32).toString('hex')) });
          }
        }),
    ],
  ];
}

async function instances(ctx: Ctx): Promise<void> {
  const def = LISTS.instances;
  await readPages(ctx, def, def.path, (items) => {
    for (const item of items) {
      // Its ipv4 list stays until the addresses are read: the private ones are known from it alone (see instanceAddresses).
      insert(ctx.store, 'vm', Number(item.id), { ...held(ctx, def, def.path, item), _last_config: null, _boots: [] }, { key: String(item.label).toLowerCase() });
    }
  });
}

async function instanceChildren(ctx: Ctx): Promise<void> {
  const parents = ids(ctx.store, 'vm').map((id) => [id]);
  await area(ctx, CHILDREN.disks, () =>
    childLists(ctx, CHILDREN.disks, parents, ([vm], items) => items.forEach((d) => insert(ctx.store, 'disk', Number(d.id), held(ctx, CHILDREN.disks, pathOf(CHILDREN.disks, vm!), d), { parent: vm }))),
  );
  await area(ctx, CHILDREN.configs, () =>
    childLists(ctx, CHILDREN.configs, parents, ([vm], items) => {
      for (const c of items) insert(ctx.store, 'config', Number(c.id), held(ctx, CHILDREN.configs, pathOf(CHILDREN.configs, vm!), c), { parent: vm });
      // The config booted last is the one a plain boot picks again: the only one, or the first.
      const booted = items[0];
      const record = ctx.store.get('vm', vm!);
      if (booted && record && record.status === 'running') ctx.store.put('vm', vm!, { ...record, _last_config: booted.id });
    }),
  );
  await area(ctx, CHILDREN.backups, () => backups(ctx, parents));
}

/** The backups list is not a page but an object of kinds; each backup keeps the layout a restore rebuilds. */
async function backups(ctx: Ctx, parents: string[][]): Promise<void> {
  const def = CHILDREN.backups;
  await eachParallel(parents, ctx.opts.parallel ?? 4, async ([vm]) => {
    const path = pathOf(def, vm!);
    if (ctx.store.getMeta(DONE_META + path)) return;
    const body = await read(ctx, def, path);
    if (!isRecord(body)) return;
    const snapshot = isRecord(body.snapshot) ? body.snapshot : {};
    const all = [...(Array.isArray(body.automatic) ? body.automatic : []), snapshot.current, snapshot.in_progress].filter(isRecord);
    ctx.store.tx(() => {
      for (const b of all) {
        noteTimes(ctx, b);
        insert(ctx.store, 'backup', Number(b.id), { ...b, _layout: layoutOf(ctx.store, vm!, b) }, { parent: vm });
      }
      ctx.store.setMeta(DONE_META + path, '1');
    });
    count(ctx.report, def.area, all.length);
  });
}

/** A backup names its disks and configs; their layout is the instance's configs of those names, pointing at the backup's disks by label. */
function layoutOf(store: Store, vm: string, backup: Item) {
  const disks = (Array.isArray(backup.disks) ? backup.disks : []).filter(isRecord);
  const names = new Set(Array.isArray(backup.configs) ? backup.configs : []);
  const diskLabels = new Map(store.all<Item>('disk', vm).map((d) => [d.id, d.label]));
  const configs = store
    .all<Item>('config', vm)
    .filter((c) => names.has(c.label))
    .map(({ id: _id, devices, ...c }) => ({
      ...c,
      devices: Object.fromEntries(
        Object.entries(isRecord(devices) ? devices : {}).map(([slot, dev]) => {
          const label = isRecord(dev) ? diskLabels.get(dev.disk_id) : undefined;
          const at = disks.findIndex((d) => d.label === label);
          return [slot, at >= 0 ? at : null];
        }),
      ),
    }));
  return { disks: disks.map((d) => ({ label: d.label, size: d.size, filesystem: d.filesystem })), configs };
}

async function balancers(ctx: Ctx): Promise<void> {
  const def = LISTS.balancers;
  await readPages(ctx, def, def.path, (items) =>
    items.forEach((nb) => insert(ctx.store, 'nodebalancer', Number(nb.id), held(ctx, def, def.path, nb), { key: String(nb.label).toLowerCase() })),
  );
}

async function balancerChildren(ctx: Ctx): Promise<void> {
  const parents = ids(ctx.store, 'nodebalancer').map((id) => [id]);
  await area(ctx, CHILDREN.nbConfigs, () =>
    childLists(ctx, CHILDREN.nbConfigs, parents, ([nb], items) => {
      for (const c of items) {
        const { nodes_status: _computed, ...config } = held(ctx, CHILDREN.nbConfigs, pathOf(CHILDREN.nbConfigs, nb!), c);
        if (c.ssl_key !== null && c.ssl_key !== undefined) bumpNotCopied(ctx.report, 'TLS private keys of load balancer configs');
        insert(ctx.store, 'nb_config', Number(c.id), { ...config, ssl_key: null }, { parent: nb });
      }
    }),
  );
  const configs = ctx.store.db.prepare("SELECT parent, id FROM rows WHERE kind = 'nb_config' ORDER BY ord").raw().all() as string[][];
  await area(ctx, CHILDREN.nodes, () =>
    childLists(ctx, CHILDREN.nodes, configs, ([nb, cfg], items) =>
      items.forEach((n) => {
        const { status: _computed, ...node } = held(ctx, CHILDREN.nodes, pathOf(CHILDREN.nodes, nb!, cfg!), n);
        insert(ctx.store, 'nb_node', Number(n.id), { ...node, config_id: Number(cfg), nodebalancer_id: Number(nb) }, { parent: cfg });
      }),
    ),
  );
}

async function firewalls(ctx: Ctx): Promise<void> {
  const def = LISTS.firewalls;
  await readPages(ctx, def, def.path, (items) => items.forEach((fw) => insert(ctx.store, 'firewall', Number(fw.id), held(ctx, def, def.path, fw))));
}

async function firewallDevices(ctx: Ctx): Promise<void> {
  const parents = ids(ctx.store, 'firewall').map((id) => [id]);
  await area(ctx, CHILDREN.devices, () =>
    childLists(ctx, CHILDREN.devices, parents, ([fw], items) =>
      items.forEach((d) => insert(ctx.store, 'firewall_device', Number(d.id), { ...held(ctx, CHILDREN.devices, pathOf(CHILDREN.devices, fw!), d), _firewall_id: Number(fw) }, { parent: fw })),
    ),
  );
}

async function addresses(ctx: Ctx): Promise<void> {
  const def = LISTS.ips;
  await readPages(ctx, def, def.path, (items) =>
    items.forEach((ip) => insert(ctx.store, 'ip', String(ip.address), held(ctx, def, def.path, ip), { parent: ip.vm_id === null || ip.vm_id === undefined ? null : String(ip.vm_id) })),
  );
}

/**
 * The address list shows public addresses only: an instance's private ones
 * (and its public ones, when the token cannot read the list) are recorded
 * from its ipv4 list, as the service records addresses it hands out. The
 * instance then drops the list, which the service makes from these records.
 */
function instanceAddresses(ctx: Ctx): void {
  const { store } = ctx;
  store.tx(() => {
    for (const vm of store.all<Item>('vm')) {
      if (!Array.isArray(vm.ipv4)) continue;
      for (const address of vm.ipv4.filter((a): a is string => typeof a === 'string')) {
        if (store.get('ip', address)) continue;
        recordIpv4(store, { address, vmId: vm.id as number, region: vm.region as string, isPublic: !isPrivateAddress(address), rdns: null });
      }
      const { ipv4: _listed, ...rest } = vm;
      store.put('vm', String(vm.id), rest);
    }
  });
}

async function ipv6(ctx: Ctx, def: ListDef, kind: 'ipv6_pool' | 'ipv6_range'): Promise<void> {
  await readPages(ctx, def, def.path, (items) => {
    for (const item of items) {
      const block = held(ctx, def, def.path, item);
      // 4.83.1 links a range to its instance only through the address list's ipv6/range entry.
      const routed = kind === 'ipv6_range' ? ctx.store.get<Item>('ip', String(item.range)) : undefined;
      insert(ctx.store, kind, String(item.range), typeof routed?.vm_id === 'number' ? { ...block, _vm_id: routed.vm_id } : block);
    }
  });
}

async function buckets(ctx: Ctx): Promise<void> {
  const def = LISTS.buckets;
  await readPages(ctx, def, def.path, (items) => {
    for (const b of items) {
      // Size and count are the stored objects', as the service counts them.
      const { size: _size, objects: _objects, ...bucket } = held(ctx, def, def.path, b);
      insert(ctx.store, 'bucket', `${String(b.cluster)}/${String(b.label)}`, { acl: 'private', cors_enabled: false, ...bucket }, { parent: String(b.cluster) });
    }
  });
}

async function bucketObjects(ctx: Ctx): Promise<void> {
  const parents = ctx.store.all<Item>('bucket').map((b) => [String(b.cluster), String(b.label)]);
  await area(ctx, CHILDREN.objects, async () => {
    let failure: unknown;
    await eachParallel(parents, ctx.opts.parallel ?? 4, (parent) => objects(ctx, parent).catch((err: unknown) => void (failure ??= err)));
    if (failure) throw failure;
  });
}

/** A bucket's object names by marker, up to `--objects` of them; their contents stay behind. */
async function objects(ctx: Ctx, [cluster, label]: string[]): Promise<void> {
  const def = CHILDREN.objects;
  const path = pathOf(def, cluster!, label!);
  const bucket = `${cluster}/${label}`;
  if (ctx.store.getMeta(DONE_META + path)) return;
  let marker = ctx.store.getMeta(PAGE_META + path) ?? '';
  for (let taken = ctx.store.count('object', bucket); taken < ctx.opts.objects; ) {
    const body = await read(ctx, def, `${path}?page_size=${PAGE_SIZE}${marker ? `&marker=${encodeURIComponent(marker)}` : ''}`);
    const data = isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : [];
    const names = data.filter((o) => typeof o.name === 'string' && typeof o.size === 'number').slice(0, ctx.opts.objects - taken);
    const last = data[data.length - 1];
    const next = last && last.is_truncated === true && typeof last.next_marker === 'string' ? last.next_marker : null;
    ctx.store.tx(() => {
      for (const o of names) {
        noteTimes(ctx, o);
        const record = { name: o.name, size: o.size, etag: o.etag ?? '', last_modified: o.last_modified, owner: o.owner ?? '', content_type: 'application/octet-stream', acl: 'private' };
        insert(ctx.store, 'object', `${bucket}/${String(o.name)}`, record, { parent: bucket });
      }
      if (next) ctx.store.setMeta(PAGE_META + path, next);
      else ctx.store.setMeta(DONE_META + path, '1');
    });
    taken += names.length;
    count(ctx.report, def.area, names.length);
    if (!next || names.length === 0) return;
    marker = next;
  }
}

async function images(ctx: Ctx): Promise<void> {
  const def = LISTS.images;
  await readPages(ctx, def, def.path, (items) =>
    items.forEach((image) => {
      const n = Number(/^private\/(\d+)$/.exec(String(image.id))?.[1] ?? NaN);
      // The service's private images sort after the public ones, in the order they were made.
      insert(ctx.store, 'image', String(image.id), held(ctx, def, def.path, image), Number.isFinite(n) ? { ord: 1_000_000 + n } : {});
    }),
  );
}

async function scripts(ctx: Ctx): Promise<void> {
  const def = LISTS.scripts;
  await readPages(ctx, def, def.path, (items) =>
    items.forEach((s) => {
      // A script another user of the account wrote (a restricted user sees the owner's by grant) is the owner's.
      const owner = s.username === ctx.username ? ctx.userId : OWNER_ID;
      insert(ctx.store, 'stackscript', String(s.id), { ...held(ctx, def, def.path, s), owner_id: owner }, { ord: Number(s.id) || undefined });
    }),
  );
}

async function simpleList(ctx: Ctx, def: ListDef, kind: string, idOf: (item: Item) => string | number, extra: (item: Item) => { record?: Item; key?: string } = () => ({})): Promise<void> {
  await readPages(ctx, def, def.path, (items) =>
    items.forEach((item) => {
      const { record, key } = extra(item);
      insert(ctx.store, kind, idOf(item), record ?? held(ctx, def, def.path, item), key ? { key } : {});
    }),
  );
}

/** The ids the service gives next continue after the imported ones, so nothing made later takes an imported id. */
function continueCounters(store: Store): void {
  const numeric: [counter: string, kind: string][] = [
    ['vm', 'vm'], ['disk', 'disk'], ['config', 'config'], ['backup', 'backup'], ['nodebalancer', 'nodebalancer'], ['nb_config', 'nb_config'],
    ['nb_node', 'nb_node'], ['firewall', 'firewall'], ['firewall_device', 'firewall_device'], ['event', 'event'], ['obj_key', 'obj_key'],
    ['managed_contact', 'managed_contact'], ['managed_credential', 'managed_credential'], ['managed_service', 'managed_service'],
    ['managed_issue', 'managed_issue'], ['sshkey', 'sshkey'], ['token', 'token'], ['app', 'app'], ['device', 'device'], ['login', 'login'],
    ['stackscript', 'stackscript'],
  ];
  const raise = store.db.prepare('INSERT INTO counters (kind, value) VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET value = max(value, excluded.value)');
  for (const [counter, kind] of numeric) {
    const max = store.db.prepare("SELECT max(CAST(id AS INTEGER)) FROM rows WHERE kind = ? AND id GLOB '[0-9]*'").pluck().get(kind) as number | null;
    if (max !== null) raise.run(counter, max);
  }
  const images = store.db.prepare("SELECT max(CAST(substr(id, 9) AS INTEGER)) FROM rows WHERE kind = 'image' AND id GLOB 'private/[0-9]*'").pluck().get() as number | null;
  if (images !== null) raise.run('private_image', images);
  const tickets = store.all<Item>('managed_issue').map((i) => (isRecord(i.entity) ? Number(i.entity.id) : 0)).filter(Number.isFinite);
  if (tickets.length > 0) raise.run('ticket', Math.max(...tickets));
}

/**
 * Imports the account the source reads into a new (or, resumed, an
 * unfinished) store. Returns what was imported and skipped; throws only for
 * what stops everything (the store).
 */
export async function importAccount(store: Store, sim: Simulation, source: Source, from: string, opts: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { counts: new Map(), skipped: [], unheld: newUnheld(), notCopied: new Map(), token: '', restrictedToken: null, clock: '', records: 0, interrupted: false };
  const ctx: Ctx = { store, source, opts, report, username: '', userId: OWNER_ID, latest: -Infinity };
  const resumed = store.getMeta(IMPORT_META) !== undefined;
  if (!resumed) {
    // The source's clock (its Date header), before anything is written: the account's time starts there.
    await source.get('base', '/profile').catch(() => null);
    store.tx(() => {
      if (source.latestDate !== undefined) store.clock.startAt(source.latestDate);
      seedAccount(store, 'empty', sim);
      store.setMeta('seeded', 'import');
      store.setMeta(IMPORT_META, from);
    });
  }
  const profileRead = await area(ctx, SINGLES.profile, () => profile(ctx));
  if (!profileRead) {
    const user = store.get<User>('user', OWNER_ID)!;
    ctx.username = user.username;
  }
  for (const [def, run] of profileLists(ctx)) await area(ctx, def, run);
  await area(ctx, LISTS.images, () => images(ctx));
  await area(ctx, LISTS.scripts, () => scripts(ctx));
  if (await area(ctx, LISTS.instances, () => instances(ctx))) await instanceChildren(ctx);
  if (await area(ctx, LISTS.balancers, () => balancers(ctx))) await balancerChildren(ctx);
  if (await area(ctx, LISTS.firewalls, () => firewalls(ctx))) await firewallDevices(ctx);
  await area(ctx, LISTS.ips, () => addresses(ctx));
  instanceAddresses(ctx);
  await area(ctx, LISTS.pools, () => ipv6(ctx, LISTS.pools, 'ipv6_pool'));
  await area(ctx, LISTS.ranges, () => ipv6(ctx, LISTS.ranges, 'ipv6_range'));
  if (await area(ctx, LISTS.buckets, () => buckets(ctx))) await bucketObjects(ctx);
  await area(ctx, LISTS.keys, () => simpleList(ctx, LISTS.keys, 'obj_key', (k) => Number(k.id), (k) => ({ key: String(k.access_key) })));
  await area(ctx, LISTS.tags, () => simpleList(ctx, LISTS.tags, 'tag', (t) => String(t.label), (t) => ({ record: { label: t.label, created: store.clock.iso() } })));
  await area(ctx, LISTS.contacts, () => simpleList(ctx, LISTS.contacts, 'managed_contact', (c) => Number(c.id)));
  await area(ctx, LISTS.credentials, () =>
    simpleList(ctx, LISTS.credentials, 'managed_credential', (c) => Number(c.id), (c) => {
      bumpNotCopied(report, 'managed credentials’ usernames and passwords');
      return { record: { ...held(ctx, LISTS.credentials, LISTS.credentials.path, c), _username: null }, key: String(c.label) };
    }),
  );
  await area(ctx, LISTS.services, () => simpleList(ctx, LISTS.services, 'managed_service', (s) => Number(s.id)));
  await area(ctx, LISTS.issues, () => simpleList(ctx, LISTS.issues, 'managed_issue', (i) => Number(i.id)));
  await area(ctx, LISTS.access, () =>
    simpleList(ctx, LISTS.access, 'managed_ssh', (s) => Number(s.id), (s) => ({ record: { ssh: held(ctx, LISTS.access, LISTS.access.path, s).ssh } })),
  );
  await area(ctx, LISTS.events, () => simpleList(ctx, LISTS.events, 'event', (e) => Number(e.id)));

  // The client the new tokens belong to: the preferences read are theirs.
  const client = 'personal';
  await area(ctx, SINGLES.preferences, () => preferences(ctx, client));

  store.tx(() => {
    continueCounters(store);
    if (source.latestDate === undefined && Number.isFinite(ctx.latest)) store.clock.moveTo(ctx.latest);
    // New tokens once, kept across a resume: their values are not stored, so a resumed run makes new ones and drops the old.
    for (const id of JSON.parse(store.getMeta(TOKENS_META) ?? '[]') as number[]) store.delete('token', id);
    report.token = newTokenValue();
    const made = [issueToken(store, report.token, { user_id: OWNER_ID, label: 'vmtui import (owner)', scopes: '*', client })];
    if (ctx.userId === RESTRICTED_ID) {
      report.restrictedToken = newTokenValue();
      made.push(issueToken(store, report.restrictedToken, { user_id: RESTRICTED_ID, label: 'vmtui import (restricted)', scopes: '*', client }));
    }
    store.setMeta(TOKENS_META, JSON.stringify(made.map((t) => t.id)));
    if (!report.interrupted) store.setMeta(FINISHED_META, new Date().toISOString());
  });
  report.records = [...report.counts.values()].reduce((a, b) => a + b, 0);
  report.clock = store.clock.iso();
  return report;
}
