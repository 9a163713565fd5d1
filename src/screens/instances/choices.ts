import type { ApiClient } from '../../api/client.js';
import { listImages } from '../../api/images.js';
import { NOT_DEPLOYABLE, deployable } from '../../model/images.js';
import { listBackups, listConfigs, listDisks, listInstances } from '../../api/instances.js';
import { getProfile, listSSHKeys } from '../../api/profile.js';
import { listStackscripts } from '../../api/stackscripts.js';
import type { Choice, ChoiceScope } from '../../components/form/types.js';
import { sizeText } from './format.js';
import { dateTimeText } from '../../components/dates.js';

/**
 * Choices the compute forms load from the API. Forms on an instance's
 * sub-lists get the instance from the nav params; actions on the instance
 * list get it from the row.
 */
export function vmIdOf(scope: ChoiceScope): string {
  const id = scope.params.id ?? (scope.row as { id?: number } | undefined)?.id;
  if (id === undefined) throw new Error('No instance to load choices for');
  return String(id);
}

/** Private images first (yours), then official ones; deprecated ones last and marked; one not deployable yet (still being created) refused. */
export async function imageChoices(client: ApiClient): Promise<Choice[]> {
  const images = await listImages(client);
  const rank = (i: (typeof images)[number]) => (i.is_public ? (i.deprecated ? 2 : 1) : 0);
  return [...images]
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
    .map((i) => ({
      value: i.id,
      label: `${i.id}  ${i.label} · ${sizeText(i.size)}${i.deprecated ? ' · deprecated' : ''}`,
      ...(deployable(i) ? {} : { refuse: `${i.status}: ${NOT_DEPLOYABLE}` }),
    }));
}

/** Each script with the images it supports and the answers it needs (starred: no default). */
export async function stackscriptChoices(client: ApiClient): Promise<Choice[]> {
  const scripts = await listStackscripts(client);
  return scripts.map((s) => {
    const udfs = s.user_defined_fields.map((f) => `${f.name}${f.default === undefined ? '*' : ''}`);
    const needs = udfs.length ? ` · answers: ${udfs.join(', ')}` : '';
    return { value: String(s.id), label: `${s.id} ${s.label} (${s.username})${needs} · ${s.images.join(', ')}` };
  });
}

export async function sshKeyChoices(client: ApiClient): Promise<Choice[]> {
  return (await listSSHKeys(client)).map((k) => ({ value: k.ssh_key, label: `${k.label} (${k.ssh_key.split(' ')[0]})` }));
}

/** Users whose profile keys can be added; the API lists only the acting user. */
export async function userChoices(client: ApiClient): Promise<Choice[]> {
  const { username } = await getProfile(client);
  return [{ value: username, label: `${username} (you)` }];
}

export async function instanceChoices(client: ApiClient): Promise<Choice[]> {
  return (await listInstances(client)).map((i) => ({ value: String(i.id), label: `${i.label} (${i.id}) · ${i.region} · ${i.status}` }));
}

/** Clone targets: every instance but the source. */
export async function otherInstanceChoices(client: ApiClient, scope: ChoiceScope): Promise<Choice[]> {
  const source = vmIdOf(scope);
  return (await instanceChoices(client)).filter((c) => c.value !== source);
}

/** Successful backups of every instance with the backup service, to create an instance from (same region only). */
export async function backupChoices(client: ApiClient): Promise<Choice[]> {
  const sources = (await listInstances(client)).filter((i) => i.backups.enabled);
  const lists = await Promise.all(sources.map((i) => listBackups(client, i.id)));
  return sources.flatMap((vm, n) => {
    const { automatic, snapshot } = lists[n]!;
    return [...automatic, ...(snapshot.current ? [snapshot.current] : [])]
      .filter((b) => b.status === 'successful')
      .map((b) => ({ value: String(b.id), label: `${vm.label} · ${vm.region} · ${b.label ?? b.type} ${dateTimeText(b.finished ?? b.created)} (${b.id})` }));
  });
}

export async function configChoices(client: ApiClient, scope: ChoiceScope): Promise<Choice[]> {
  return (await listConfigs(client, vmIdOf(scope))).map((c) => ({ value: String(c.id), label: `${c.label} (${c.id}) · ${c.kernel}` }));
}

type Loader = (client: ApiClient, scope: ChoiceScope) => Promise<Choice[]>;

/** The loaded choices after an empty one, so an optional field can be left (or set back to) unset. */
export const orNone =
  (none: string, load: Loader): Loader =>
  async (client, scope) => [{ value: '', label: none }, ...(await load(client, scope))];

/** Boot: the service's own pick (the only config, else the last booted) or a named one. */
export const bootConfigChoices = orNone('default (only or last booted)', configChoices);

/** One request for the eight device slots of a config form, which all ask at once. */
const disksInFlight = new Map<string, ReturnType<typeof listDisks>>();

function disksOnce(client: ApiClient, vmId: string) {
  const key = `${client.baseUrl} ${vmId}`;
  let pending = disksInFlight.get(key);
  if (!pending) {
    pending = listDisks(client, vmId).finally(() => disksInFlight.delete(key));
    disksInFlight.set(key, pending);
  }
  return pending;
}

export async function diskChoices(client: ApiClient, scope: ChoiceScope): Promise<Choice[]> {
  return (await disksOnce(client, vmIdOf(scope))).map((d) => ({ value: String(d.id), label: `${d.label} (${d.id}) · ${sizeText(d.size)} ${d.filesystem}` }));
}

/** A config slot: one of the instance's disks, or empty. */
export const deviceChoices = orNone('— none —', diskChoices);
