import type { ApiClient } from '../../api/client.js';
import { INSTANCES_PATH, getInstance, listBackups, listConfigs, listDisks, type Backup, type Instance } from '../../api/instances.js';
import type { Params } from '../../store/nav.js';
import { devicesText } from './config-rows.js';
import { diskStatusColor, instanceStatusColor, sizeText } from './format.js';
import { dateTimeText } from '../../components/dates.js';
import { SUB_LISTS, type SubList } from './sub-lists.js';
import type { DataStore } from '../../store/data.js';
import { relationsOf, type Relation } from './relations.js';

/** One line of an instance's overview: the instance itself, its lists, then what touches it (relations.ts). */
export interface Part extends Omit<Relation, 'record'> {
  /** 'instance', a sub-list's part ('disks'), or a relation's (`firewall:12`). */
  part: string;
  /** What d and y show for the line. */
  record: unknown;
  /** The instance, which every line stands for. */
  vm: Instance;
}

function backupsSummary(vm: Instance, automatic: Backup[], snapshot: Backup | null, pending: Backup | null): string {
  if (!vm.backups.enabled) return 'backup service off: enable it from the instance actions (a)';
  const { day, window } = vm.backups.schedule;
  const bits = [`${day ?? '?'} ${window ?? '?'}`, `${automatic.length} automatic`];
  if (snapshot) bits.push(`snapshot ${snapshot.label ?? snapshot.id}`);
  if (pending) bits.push(`snapshot ${pending.label ?? pending.id} ${pending.status}`);
  if (vm.backups.last_successful) bits.push(`last ${dateTimeText(vm.backups.last_successful)}`);
  return bits.join(' · ');
}

/** Everything the overview shows: the instance and its parts in four requests, what touches it from the cached lists. */
export async function loadOverview(client: ApiClient, p: Params, data?: DataStore): Promise<Part[]> {
  const [vm, disks, configs, backups] = await Promise.all([getInstance(client, p.id!), listDisks(client, p.id!), listConfigs(client, p.id!), listBackups(client, p.id!)]);
  const related = data ? await relationsOf(data, vm) : [];
  const used = disks.reduce((sum, d) => sum + d.size, 0);
  const busy = disks.find((d) => d.status !== 'ready');
  const diskLabel = new Map(disks.map((d) => [d.id, d.label]));
  const { current, in_progress: pending } = backups.snapshot;
  const all = [...backups.automatic, ...(current ? [current] : []), ...(pending ? [pending] : [])];
  const lists: Record<SubList['part'], Omit<Part, 'part' | 'name' | 'vm'>> = {
    disks: {
      state: busy ? busy.status : `${disks.length}`,
      color: busy ? diskStatusColor(busy.status) : undefined,
      summary: `${sizeText(used)} of ${sizeText(vm.specs.disk)} used, ${sizeText(vm.specs.disk - used)} free · ${disks.map((d) => `${d.label} ${sizeText(d.size)}`).join(', ')}`,
      record: disks,
    },
    configs: {
      state: `${configs.length}`,
      summary: configs.map((c) => `${c.label}: ${devicesText({ ...c, diskLabels: diskLabel })}`).join(' · '),
      record: configs,
    },
    backups: {
      state: vm.backups.enabled ? `${all.length}` : 'off',
      color: vm.backups.enabled ? undefined : 'gray',
      summary: backupsSummary(vm, backups.automatic, current, pending),
      record: backups,
    },
  };
  const parts: Omit<Part, 'vm'>[] = [
    {
      part: 'instance',
      name: 'Instance',
      state: vm.status,
      color: instanceStatusColor(vm.status),
      summary: `${vm.label} · ${vm.region} · ${vm.type} · ${vm.image ?? 'no image'} · ${vm.specs.vcpus} CPU, ${sizeText(vm.specs.memory)} RAM`,
      record: vm,
    },
    ...SUB_LISTS.map((s) => ({ part: s.part, name: s.title, ...lists[s.part] })),
    {
      part: 'history',
      name: 'History',
      state: '',
      summary: 'its events and the changes of its fields seen by the app, newest first (Enter, or h on any line)',
      record: vm,
      to: { screen: 'history', params: { path: INSTANCES_PATH, id: String(vm.id), label: vm.label }, crumb: vm.label },
    },
    ...related,
  ];
  return parts.map((p) => ({ ...p, vm }));
}
