import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { jobOutcome, type Job } from '../../model/jobs.js';
import { plural } from '../../model/plural.js';
import { underWay } from '../../store/jobs.js';
import { NewestFirstList } from '../events/NewestFirstList.js';

const STATE_COLOR: Record<Job['state'], string | undefined> = { waiting: undefined, 'under way': 'cyan', finished: 'green', failed: 'red', unknown: 'yellow' };

const columns: Column<Job>[] = [
  { key: 'started', title: 'Started', width: 8, format: (j) => new Date(j.started).toTimeString().slice(0, 8) },
  { key: 'state', title: 'State', width: 9, color: (j) => STATE_COLOR[j.state] },
  { key: 'what', title: 'Job', flex: 3, format: jobOutcome },
];

/** `:jobs` — the long actions of this session, newest first; Enter goes to the item (the first, for a bulk job). */
export function JobsScreen(props: ScreenProps) {
  const { jobs } = useApp();
  const all = useStore(jobs, (s) => s.jobs);
  const running = useStore(jobs, underWay);
  return (
    <NewestFirstList
      {...props}
      title="Jobs"
      columns={columns}
      items={all}
      text={(j) => `${j.state} ${jobOutcome(j)} ${j.parts.map((p) => p.subject.label).join(' ')}`}
      subject={(j) => j.parts[0]!.subject}
      status={<Text dimColor wrap="truncate-end">{`${plural(all.length, 'job')} this session · ${running} under way · Enter opens the item`}</Text>}
      empty={<Text dimColor>No job yet: a boot, reboot, shutdown, clone or snapshot started here is followed here until it ends.</Text>}
    />
  );
}
