import { flawOf } from '../../model/response.js';
import { FIREWALLS_LIST, INSTANCES_LIST, NODEBALANCERS_LIST, OBJECT_KEYS_LIST, configsList, devicesList, nodesList, rowsOf } from '../../store/lists.js';
import { describeError } from '../../api/errors.js';
import type { Firewall, FirewallDevice } from '../../api/firewalls.js';
import type { Instance } from '../../api/instances.js';
import { CONTACTS_PATH, SERVICES_PATH, type ManagedContact, type ManagedService } from '../../api/managed.js';
import type { NBConfig, NBNode, NodeBalancer } from '../../api/nodebalancers.js';
import type { ObjKey } from '../../api/object-storage.js';
import type { Profile } from '../../api/profile.js';
import { listQuery } from '../../app/screen.js';
import { RULES, audit, limitFindings, unchecked, type AuditInput, type Finding, type Rule } from '../../model/audit.js';
import { queryKey, type DataStore, type ListEntry, type ListQuery, type ReadList } from '../../store/data.js';
import { plural } from '../../model/plural.js';
import { PROFILE_QUERY } from '../profile/use-object.js';
import { tokens } from '../profile/tokens.js';

const SCOPE = /\b[a-z_]+:read_(?:only|write)\b/;

/** The areas the rules read, and which rules go unchecked when one cannot be read. */
const AREAS = {
  instances: ['vm-no-firewall', 'vm-no-backups', 'watchdog-off', 'alert-off', 'vm-offline-long'],
  firewalls: ['firewall-open', 'vm-no-firewall'],
  profile: ['tfa-off', 'lish-password'],
  tokens: ['token-unbounded'],
  'load balancers': ['port-no-node', 'port-legacy-ciphers'],
  'object storage keys': ['key-unlimited'],
  'managed services': ['service-no-contact'],
} as const;

type Area = keyof typeof AREAS;

const ruleTitles = (area: Area) => AREAS[area].map((id) => RULES.find((r) => r.id === id)!.title.toLowerCase()).join('; ');

/** A refusal names the scope the token lacks; anything else is said as it came. */
const reasonOf = (err: unknown) => {
  // Joining lists (a firewall's devices, a port's nodes) reads fields a record the server sent unreadable lacks.
  if (err instanceof TypeError) return 'the server sent records it cannot read';
  const text = err instanceof Error ? err.message : describeError(err);
  const scope = SCOPE.exec(text)?.[0];
  return scope ? `needs ${scope}` : text;
};

/** A list the pass over the cache found not read yet: its area is left out, nothing is sent. */
class NotCached extends Error {}

/** What a pass over the cache alone finds under a list's key: its rows when read, else undefined. */
export const cachedRows = (entry: ListEntry | undefined): unknown[] | undefined => (entry?.status === 'ready' ? entry.rows : undefined);

/** The lists a pass over the cache looked up (by key), each with what it found there. */
export type CacheReads = Map<string, unknown[] | undefined>;

/** The rows of a list as `read` gives them, or, for a pass over the cache alone, as cached (NotCached when absent). */
const readerOf = (data: DataStore, read: ReadList, cachedOnly: boolean, reads?: CacheReads) => <T>(q: ListQuery): Promise<T[]> => {
  if (!cachedOnly) return read(q) as Promise<T[]>;
  const key = queryKey(q);
  const rows = cachedRows(data.getState().lists[key]);
  reads?.set(key, rows);
  return rows ? Promise.resolve(rows as T[]) : Promise.reject(new NotCached());
};

/**
 * The findings of every rule over the account's lists, as `read` gives them
 * (the view's loader reads them under the store's rule, again on a refresh;
 * default the cache, each read once when absent, as the areas' own views read
 * them). An area that cannot be read is a finding of its own, its rules skipped. With
 * `cachedOnly`, nothing is read: an area not cached yet is left out (the
 * header's count between visits to `:audit`), and `reads` gets each list
 * looked up, so a caller knows which changes of the cache the result hangs on.
 * `rules` runs only those (the header counts the high findings alone).
 */
export async function loadAudit(
  data: DataStore,
  now = Date.now(),
  { cachedOnly = false, reads, read: readList = (q) => rowsOf(data, q), rules = RULES }: { cachedOnly?: boolean; reads?: CacheReads; read?: ReadList; rules?: readonly Rule[] } = {},
): Promise<Finding[]> {
  const listRows = readerOf(data, readList, cachedOnly, reads);
  const input: AuditInput = { now };
  const notChecked: Finding[] = [];
  const read = async <T>(area: Area, get: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await get();
    } catch (err) {
      if (!(err instanceof NotCached)) notChecked.push(unchecked(area, reasonOf(err), ruleTitles(area)));
      return undefined;
    }
  };
  // The areas' own lists (marked, as they show them), so the audit answers from their cache entries and fills them.
  const marked = (path: string): ListQuery => ({ path, flawed: 'mark' });
  await Promise.all([
    read('instances', () => listRows<Instance>(INSTANCES_LIST)).then((v) => (input.instances = v as AuditInput['instances'])),
    read('firewalls', async () => {
      const fws = await listRows<Firewall>(FIREWALLS_LIST);
      // A firewall the server sent unreadable has no id to read devices by: its rules say it is unreadable.
      return Promise.all(fws.map(async (fw) => (flawOf(fw) ? { ...fw, devices: [] } : { ...fw, devices: (await listRows<FirewallDevice>(devicesList(fw.id))).map((d) => ({ type: d.entity.type, id: d.entity.id })) })));
    }).then((v) => (input.firewalls = v)),
    read('profile', async () => (await listRows<Profile>(PROFILE_QUERY))[0]).then((v) => (input.profile = v)),
    read('tokens', () => listRows(listQuery(tokens.list!, {}))).then((v) => (input.tokens = v as AuditInput['tokens'])),
    read('load balancers', async () => {
      // A balancer or port the server sent unreadable has no id to read its ports or nodes by: said, the others checked.
      const readable = <T>(rows: T[], what: (n: number) => string): T[] => {
        const flawed = rows.filter((row) => flawOf(row)).length;
        if (flawed) notChecked.push(unchecked(what(flawed), 'the server sent them unreadable', ruleTitles('load balancers')));
        return rows.filter((row) => !flawOf(row));
      };
      const nbs = readable(await listRows<NodeBalancer>(NODEBALANCERS_LIST), (n) => plural(n, 'load balancer'));
      return Promise.all(
        nbs.map(async (nb) => ({
          id: nb.id,
          label: nb.label,
          configs: await Promise.all(
            readable(await listRows<NBConfig>(configsList(nb.id)), (n) => `${plural(n, 'port')} of ${nb.label}`).map(async (cfg) => ({ ...cfg, nodes: await listRows<NBNode>(nodesList(nb.id, cfg.id)) })),
          ),
        })),
      );
    }).then((v) => (input.balancers = v)),
    read('object storage keys', () => listRows<ObjKey>(OBJECT_KEYS_LIST)).then((v) => (input.objectKeys = v)),
    read('managed services', async () => {
      const [services, contacts] = await Promise.all([listRows<ManagedService>(marked(SERVICES_PATH)), listRows<ManagedContact>(marked(CONTACTS_PATH))]);
      return { services, contacts };
    }).then((v) => (input.managed = v)),
  ]);
  return [...audit(input, rules), ...notChecked, ...limitFindings()];
}
