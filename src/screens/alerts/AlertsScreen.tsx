import { useEffect } from 'react';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { plural } from '../../model/plural.js';
import type { Alert } from '../../store/alerts.js';
import { NewestFirstList } from '../events/NewestFirstList.js';

const KIND: Record<Alert['kind'], { text: string; color: string }> = {
  issue: { text: 'issue', color: 'red' },
  problem: { text: 'problem', color: 'red' },
  down: { text: 'down', color: 'yellow' },
  failed: { text: 'failed', color: 'red' },
};

const columns: Column<Alert>[] = [
  { key: 'at', title: 'Time', width: 8, format: (a) => new Date(a.at).toTimeString().slice(0, 8) },
  { key: 'kind', title: 'Kind', width: 7, format: (a) => KIND[a.kind].text, color: (a) => KIND[a.kind].color },
  { key: 'text', title: 'Alert', flex: 3 },
];

/** `:alerts` — what happened on the account that the operator did not do here, newest first; Enter goes to the item. Seen here, they are read. */
export function AlertsScreen(props: ScreenProps) {
  const { alerts } = useApp();
  const all = useStore(alerts, (s) => s.alerts);
  const unread = useStore(alerts, (s) => s.unread);
  useEffect(() => alerts.getState().read(), [alerts, unread]);
  return (
    <NewestFirstList
      {...props}
      title="Alerts"
      columns={columns}
      items={all}
      text={(a) => `${a.kind} ${a.text}`}
      subject={(a) => a.subject}
      status={<Text dimColor wrap="truncate-end">{`${plural(all.length, 'alert')} this session · Enter opens the item`}</Text>}
      empty={<Text dimColor>No alert yet: a new managed issue, a service in problem, an instance going down or a job failing, not done from here, shows here.</Text>}
    />
  );
}
