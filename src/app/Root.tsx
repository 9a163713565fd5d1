import { useStore } from 'zustand';
import type { AccountsStore } from './accounts.js';
import { App } from './App.js';
import type { TabsStore } from './tabs.js';

/** The app on the tab shown: a tab switch, or an account switch (:ctx), mounts it afresh on that tab's context. */
export function Root({ accounts, tabs }: { accounts: AccountsStore; tabs: TabsStore }) {
  const tab = useStore(tabs, (s) => s.tabs[s.active]!);
  const generation = useStore(accounts, (s) => s.generation);
  return <App key={`${tab.id}:${generation}`} ctx={tab.ctx} />;
}
