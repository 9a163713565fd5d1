import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import type { Tab, TabsStore } from '../../app/tabs.js';
import { SelectTable } from '../../components/SelectTable.js';
import { plural } from '../../model/plural.js';

interface Line {
  n: number;
  tab: Tab;
  shown: boolean;
  news: boolean;
}

const account = (t: Tab) => t.ctx.session.getState().profileName ?? (t.ctx.session.getState().embedded ? 'demo' : t.ctx.session.getState().endpoint);
const where = (t: Tab) =>
  t.ctx.nav
    .getState()
    .stack.flatMap((e) => [...(e.label ? [e.label] : []), t.ctx.screens.get(e.screen).title.toLowerCase()])
    .join(' › ');

const columns: Column<Line>[] = [
  { key: 'n', title: '#', width: 2, format: (l) => String(l.n) },
  { key: 'shown', title: 'Shown', width: 5, format: (l) => (l.shown ? 'here' : l.news ? 'news' : ''), color: (l) => (l.news ? 'yellow' : undefined) },
  { key: 'account', title: 'Account', width: 14, format: (l) => account(l.tab) },
  { key: 'where', title: 'Screens', flex: 3, format: (l) => where(l.tab) },
];

/** `:tabs` — the tabs, each with its account and screens; Enter shows one, Ctrl-W closes one (its screens go with it). */
export function TabsScreen(props: ScreenProps) {
  const { tabs } = useApp();
  return tabs ? <TabsList {...props} tabs={tabs} /> : <Text dimColor>This app runs without tabs.</Text>;
}

function TabsList({ entry, width, height, tabs }: ScreenProps & { tabs: TabsStore }) {
  const { nav, views, session } = useApp();
  const state = useStore(tabs);
  const lines = state.tabs.map((tab, i) => ({ n: i + 1, tab, shown: i === state.active, news: state.news.has(tab.id) }));
  const selected = () => {
    const v = views.getState().get(entry.key);
    return lines.find((l) => String(l.tab.id) === v.selectedKey) ?? lines[Math.min(v.selectedIndex, lines.length - 1)];
  };
  return (
    <SelectTable
      entry={entry}
      title="Tabs"
      columns={columns}
      rows={lines}
      rowKey={(l) => String(l.tab.id)}
      onOpen={(l) => {
        // This list was pushed over the tab's stack: it goes before the tab changes.
        nav.getState().pop();
        tabs.getState().select(l.n - 1);
      }}
      commands={{
        closeTab: () => {
          const l = selected();
          if (!l) return;
          if (state.tabs.length === 1) return session.getState().notify('The last tab stays: q quits', 'error');
          tabs.getState().close(l.n - 1);
        },
      }}
      status={<Text dimColor wrap="truncate-end">{`${plural(lines.length, 'tab')} · Enter shows one · ^W closes one · :tab opens one (:tab ctx NAME on another account)`}</Text>}
      empty={<Text dimColor>No tab.</Text>}
      width={width}
      height={height}
    />
  );
}
