import { useEffect } from 'react';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import type { AccountTarget, AccountsStore } from '../../app/accounts.js';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { SelectTable } from '../../components/SelectTable.js';
import { plain } from '../../app/style.js';

const columns = (current: string | undefined, switching: string | undefined): Column<AccountTarget>[] => [
  { key: 'name', title: 'Account', flex: 1, format: (t) => `${t.name === current ? (plain() ? '* ' : '● ') : '  '}${t.name}` },
  { key: 'endpoint', title: 'Endpoint', flex: 2 },
  {
    key: 'state',
    title: 'State',
    width: 24,
    format: (t) => (t.name === switching ? 'connecting…' : t.name === current ? 'current' : t.embedded ? (t.running() ? 'running' : 'starts when chosen') : 'saved profile'),
  },
];

function Accounts({ accounts, entry, width, height }: ScreenProps & { accounts: AccountsStore }) {
  const { views } = useApp();
  const targets = useStore(accounts, (s) => s.targets);
  const current = useStore(accounts, (s) => s.current);
  const switching = useStore(accounts, (s) => s.switching);
  const words = useStore(views, (s) => s.views[entry.key]?.filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const shown = targets.filter((t) => words.every((w) => `${t.name} ${t.endpoint}`.toLowerCase().includes(w)));
  // The cursor starts on the account shown now.
  useEffect(() => {
    if (current && views.getState().get(entry.key).selectedKey === undefined) views.getState().update(entry.key, { selectedKey: current });
  }, [entry.key]);
  return (
    <SelectTable
      entry={entry}
      title="Accounts"
      columns={columns(current, switching)}
      rows={shown}
      rowKey={(t) => t.name}
      onOpen={(t) => {
        if (t.name === current) accounts.getState().ctx.session.getState().notify(`Already on ${t.name}`);
        else void accounts.getState().switchTo(t.name);
      }}
      status={<Text dimColor wrap="truncate-end">{`${targets.length} accounts · on ${current ?? 'an account given by flags'} · Enter switches (this account's cache is dropped)`}</Text>}
      empty={<Text dimColor>No saved profiles: vmtui --api-url URL --token T --save-profile NAME saves one.</Text>}
      width={width}
      height={height}
    />
  );
}

/** `:ctx` — the saved profiles and the embedded demo; Enter switches to one without restarting. */
export function CtxScreen(props: ScreenProps) {
  const { accounts } = useApp();
  if (!accounts) return <Text dimColor>This run shows one account only.</Text>;
  return <Accounts {...props} accounts={accounts} />;
}
