import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { SelectTable } from '../../components/SelectTable.js';
import { jobOutcome, type Job } from '../../model/jobs.js';
import { plural } from '../../model/plural.js';
import { underWay } from '../../store/jobs.js';
import { entityRoute } from '../events/entity-link.js';

const STATE_COLOR: Record<Job['state'], string | undefined> = { waiting: undefined, 'under way': 'cyan', finished: 'green', failed: 'red', unknown: 'yellow' };

const columns: Column<Job>[] = [
  { key: 'started', title: 'Started', width: 8, format: (j) => new Date(j.started).toTimeString().slice(0, 8) },
  { key: 'state', title: 'State', width: 9, color: (j) => STATE_COLOR[j.state] },
  { key: 'what', title: 'Job', flex: 3, format: jobOutcome },
];

/** `:jobs` — the long actions of this session, newest first; Enter goes to the item (the first, for a bulk job). */
export function JobsScreen({ entry, width, height }: ScreenProps) {
  const { jobs, views, nav } = useApp();
  const all = useStore(jobs, (s) => s.jobs);
  const running = useStore(jobs, underWay);
  const words = useStore(views, (s) => s.views[entry.key]?.filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const shown = all
    .slice()
    .reverse()
    .filter((j) => words.every((w) => `${j.state} ${jobOutcome(j)} ${j.parts.map((p) => p.subject.label).join(' ')}`.toLowerCase().includes(w)));
  return (
    <SelectTable
      entry={entry}
      title="Jobs"
      columns={columns}
      rows={shown}
      rowKey={(j) => String(j.id)}
      onOpen={(j) => {
        const { type, id, label } = j.parts[0]!.subject;
        const route = entityRoute(type, id, label);
        nav.getState().push(route.screen, route.params, label);
      }}
      status={<Text dimColor wrap="truncate-end">{`${plural(all.length, 'job')} this session · ${running} under way · Enter opens the item`}</Text>}
      empty={<Text dimColor>No job yet: a boot, reboot, shutdown, clone or snapshot started here is followed here until it ends.</Text>}
      width={width}
      height={height}
    />
  );
}
