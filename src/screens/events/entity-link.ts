import type { ApiClient } from '../../api/client.js';
import { listIssues } from '../../api/managed.js';
import type { ScreenRegistry } from '../../app/screen.js';
import type { NavStore, Params } from '../../store/nav.js';
import type { ViewsStore } from '../../store/views.js';

/**
 * Where an entity (of an event, a service's instance, …) is shown. Every area
 * names its own screens, so the route goes through the `goto` screen, which
 * looks at the registry the app runs with: an entity's own screen when one
 * exists (one nav param, the entity's id), else its area's list filtered to
 * the entity's label.
 */

export const GOTO_SCREEN = 'goto';

/** The nav target that opens an entity. */
export const entityRoute = (type: string, id: number | string, label: string) => ({ screen: GOTO_SCREEN, params: { type, id: String(id), label } });

interface Target {
  /** Screens that show one entity, by id, most specific first. */
  detail?: string[];
  /** Lists that hold it, filtered to its label. */
  list: string[];
}

const TARGETS: Record<string, Target> = {
  vm: { detail: ['instance', 'instance-detail', 'vm'], list: ['instances'] },
  disks: { detail: ['instance', 'instance-detail', 'vm'], list: ['instances'] },
  backups: { detail: ['instance', 'instance-detail', 'vm'], list: ['instances'] },
  nodebalancer: { detail: ['nodebalancer', 'nodebalancer-configs', 'nb-configs', 'configs'], list: ['nodebalancers'] },
  firewall: { detail: ['firewall', 'firewall-rules', 'rules'], list: ['firewalls'] },
  image: { list: ['images'] },
  stackscript: { list: ['stackscripts', 'scripts'] },
  managed_service: { list: ['services'] },
  managed_contact: { list: ['contacts'] },
  ipaddress: { list: ['ips', 'addresses'] },
  token: { list: ['tokens'] },
  user_ssh_key: { list: ['ssh-keys', 'sshkeys', 'keys'] },
  tag: { list: ['tags'] },
};

export type Resolved = { screen: string; params: Params; filter?: string } | { error: string };

const byId = (registry: ScreenRegistry, id: string) => registry.all.find((d) => d.id === id);

export async function resolveEntity(registry: ScreenRegistry, client: ApiClient, type: string, id: string, label: string): Promise<Resolved> {
  if (type === 'ticket') {
    // A managed issue's ticket: open the issue while it is open.
    const issue = (await listIssues(client)).find((i) => String(i.entity.id) === id);
    if (issue && byId(registry, 'managed-issue')) return { screen: 'managed-issue', params: { issueId: String(issue.id) } };
    return { error: `Ticket #${id} has no open managed issue (resolved, or not a monitoring ticket)` };
  }
  const target = TARGETS[type];
  if (!target) return { error: `No view shows ${type} entities` };
  for (const name of target.detail ?? []) {
    const def = byId(registry, name);
    if (def?.params?.length === 1) return { screen: def.id, params: { [def.params[0]!]: id } };
  }
  for (const name of target.list) {
    const def = byId(registry, name);
    if (def && !def.params?.length) return { screen: def.id, params: {}, filter: label };
  }
  return { error: `No view shows ${type} entities yet` };
}

/** Pushes a screen, a list already filtered to `filter` when given (the list shows just the item jumped to). */
export function pushFiltered(nav: NavStore, views: ViewsStore, screen: string, params: Params, label?: string, filter?: string): void {
  nav.getState().push(screen, params, label);
  const pushed = nav.getState().stack.at(-1)!;
  if (filter) views.getState().update(pushed.key, { filter, filterCursor: filter.length });
}
