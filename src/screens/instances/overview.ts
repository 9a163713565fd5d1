import type { ApiClient } from '../../api/client.js';
import { INSTANCES_PATH, getInstance, listBackups, listConfigs, listDisks, type Backup, type BackupsList, type Config, type Disk, type Instance } from '../../api/instances.js';
import type { Params } from '../../store/nav.js';
import { devicesText } from './config-rows.js';
import { diskStatusColor, instanceStatusColor, sizeText } from './format.js';
import { dateTimeText } from '../../components/dates.js';
import { SUB_LISTS, type SubList } from './sub-lists.js';
import type { DataStore, LoadIo } from '../../store/data.js';
import { relationsOf, type Relation } from './relations.js';
import { INSTANCES_LIST, cachedRow } from '../../store/lists.js';

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

/** The instance's own lines: itself, and its disks, configs and backups. */
function ownParts(vm: Instance, disks: Disk[], configs: Config[], backups: BackupsList): Omit<Part, 'vm'>[] {
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
  return [
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
  ];
}

/** A relation still being read: its section's place, said so. */
const reading = (name: string): Relation => ({ part: `${name}:reading`, name, state: '…', color: 'gray', summary: 'reading…', record: null });

/** What the relations are worked out from: read again when the instance's own read says they changed. */
const relatedBy = (vm: Instance) => JSON.stringify([vm.region, vm.ipv4, vm.ipv6, vm.tags]);

/**
 * Everything the overview shows. Its own parts take four requests at once;
 * what touches it starts at the same moment, from the instance as the cached
 * instances list has it (else as its own read brings it). `show` draws the
 * own parts as soon as they are in, each relation as it arrives.
 */
export async function loadOverview(client: ApiClient, p: Params, data: DataStore | undefined, io: LoadIo): Promise<Part[]> {
  const own = Promise.all([getInstance(client, p.id!), listDisks(client, p.id!), listConfigs(client, p.id!), listBackups(client, p.id!)]);
  const known = data && cachedRow<Instance>(data, INSTANCES_LIST, Number(p.id));
  const sections = relationsOf(io.read, known ? Promise.resolve(known) : own.then(([vm]) => vm));
  const settled: (Relation[] | undefined)[] = sections.map(() => undefined);
  let mine: { vm: Instance; parts: Omit<Part, 'vm'>[] } | undefined;
  const compose = () => mine && [...mine.parts, ...sections.flatMap((sec, i) => settled[i] ?? [reading(sec.name)])].map((part) => ({ ...part, vm: mine!.vm }));
  const draw = () => {
    const rows = compose();
    if (rows) io.show(rows);
  };
  sections.forEach((sec, i) =>
    sec.lines.then((lines) => {
      settled[i] = lines;
      draw();
    }),
  );
  const [vm, disks, configs, backups] = await own;
  mine = { vm, parts: ownParts(vm, disks, configs, backups) };
  draw();
  const related = await Promise.all(sections.map((sec) => sec.lines));
  if (data && known && relatedBy(known) !== relatedBy(vm)) {
    // The cached instance was behind: its relations again, from the lists just read.
    const again = await Promise.all(relationsOf((q) => data.getState().rows(q), Promise.resolve(vm)).map((sec) => sec.lines));
    related.splice(0, related.length, ...again);
  }
  return [...mine.parts, ...related.flat()].map((part) => ({ ...part, vm }));
}
