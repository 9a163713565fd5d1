import { useStore } from 'zustand';
import type { AccountsStore } from './accounts.js';
import { App } from './App.js';

/** The app on the account shown now: a switch (:ctx) mounts it afresh on the new account's context. */
export function Root({ accounts }: { accounts: AccountsStore }) {
  const ctx = useStore(accounts, (s) => s.ctx);
  const generation = useStore(accounts, (s) => s.generation);
  return <App key={generation} ctx={ctx} />;
}
