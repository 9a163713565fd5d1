import { createStore, type StoreApi } from 'zustand/vanilla';
import { createNavStore } from '../store/nav.js';
import { createViewsStore } from '../store/views.js';
import type { AppContextValue } from './context.js';

/** One tab: its own screen stack and view states (cursor, filter, marks, sort), on an account's client and cache. */
export interface Tab {
  id: number;
  ctx: AppContextValue;
}

export interface TabsState {
  tabs: Tab[];
  /** Index of the tab shown. */
  active: number;
  /** Tabs with news (an alert) since they were last shown, by id. */
  news: ReadonlySet<number>;
  /** Opens a tab on this account (the active tab's by default), after the active one, and shows it. */
  open(on?: AppContextValue): void;
  /** Closes a tab, its stack with it; the last tab stays. */
  close(index: number): void;
  select(index: number): void;
  /** The next (1) or previous (-1) tab, round. */
  step(by: 1 | -1): void;
  /** The active tab now shows another account (:ctx): its context is replaced. */
  replace(ctx: AppContextValue): void;
}

export type TabsStore = StoreApi<TabsState>;

/** An account's context with a screen stack and view states of its own: the client, cache, session and poller are the account's. */
const ownStack = (base: AppContextValue): AppContextValue => ({ ...base, nav: createNavStore('home'), views: createViewsStore() });

export interface TabsOptions {
  /** A tab closed: the account it was on may be left by every tab (its poller and requests can stop). */
  onClose?(ctx: AppContextValue, stillUsed: boolean): void;
  /** A tab opened on this account: its poller must run (one per account). */
  onOpen?(ctx: AppContextValue): void;
}

export function createTabs(first: AppContextValue, opts: TabsOptions = {}): TabsStore {
  let next = 1;
  const watching = new Map<number, () => void>();
  const store = createStore<TabsState>((set, get) => {
    /** A tab's account raising an alert while the tab is not shown flags it. */
    const watch = (tab: Tab) => {
      watching.get(tab.id)?.();
      watching.set(
        tab.id,
        tab.ctx.alerts.subscribe((s, prev) => {
          if (s.alerts.length === prev.alerts.length && s.alerts.at(-1) === prev.alerts.at(-1)) return;
          const { tabs, active, news } = get();
          if (tabs[active]?.id !== tab.id && !news.has(tab.id)) set({ news: new Set(news).add(tab.id) });
        }),
      );
    };
    const make = (ctx: AppContextValue): Tab => {
      const tab = { id: next++, ctx };
      watch(tab);
      return tab;
    };
    const shown = (active: number) => {
      const id = get().tabs[active]?.id;
      const news = new Set(get().news);
      if (id !== undefined) news.delete(id);
      set({ active, news });
    };
    const firstTab = make(first);
    return {
      tabs: [firstTab],
      active: 0,
      news: new Set(),
      open: (on) => {
        const { tabs, active } = get();
        const tab = make(ownStack(on ?? tabs[active]!.ctx));
        tab.ctx.tabs = store;
        opts.onOpen?.(tab.ctx);
        set({ tabs: [...tabs.slice(0, active + 1), tab, ...tabs.slice(active + 1)] });
        shown(active + 1);
      },
      close: (index) => {
        const { tabs, active } = get();
        const gone = tabs[index];
        if (!gone || tabs.length === 1) return;
        watching.get(gone.id)?.();
        watching.delete(gone.id);
        const rest = tabs.filter((_, i) => i !== index);
        const news = new Set(get().news);
        news.delete(gone.id);
        set({ tabs: rest, news });
        shown(Math.min(index < active ? active - 1 : active, rest.length - 1));
        opts.onClose?.(gone.ctx, rest.some((t) => t.ctx.client === gone.ctx.client));
      },
      select: (index) => {
        if (index >= 0 && index < get().tabs.length && index !== get().active) shown(index);
      },
      step: (by) => {
        const n = get().tabs.length;
        if (n > 1) shown((get().active + by + n) % n);
      },
      replace: (ctx) => {
        const { tabs, active } = get();
        const tab = { id: tabs[active]!.id, ctx };
        ctx.tabs = store;
        set({ tabs: tabs.map((t, i) => (i === active ? tab : t)) });
        watch(tab);
      },
    };
  });
  // Made while the store was being made: now it can point to it.
  first.tabs = store;
  return store;
}
