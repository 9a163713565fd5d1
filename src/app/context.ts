import { createContext, useContext } from 'react';
import type { ApiClient } from '../api/client.js';
import type { Config } from '../config/config.js';
import type { AccountsStore } from './accounts.js';
import type { TabsStore } from './tabs.js';
import { createDataStore, type DataStore } from '../store/data.js';
import { createAlertsStore, type AlertsStore } from '../store/alerts.js';
import { createColumnsStore, type ColumnsStore } from '../store/columns.js';
import { announceTo, createJobsStore, type JobsStore } from '../store/jobs.js';
import { createHistoryStore, followLists, type HistoryStore } from '../store/history.js';
import { createNavStore, type NavStore } from '../store/nav.js';
import { createSessionStore, type SessionInit, type SessionStore } from '../store/session.js';
import { createUiStore, type UiStore } from '../store/ui.js';
import { createViewsStore, type ViewsStore } from '../store/views.js';
import { KeyRouter } from './key-router.js';
import { ScreenRegistry, type ScreenDef } from './screen.js';

/** Everything a screen reaches through useApp(): one instance per running app (and per test). */
export interface AppContextValue {
  client: ApiClient;
  data: DataStore;
  session: SessionStore;
  nav: NavStore;
  ui: UiStore;
  views: ViewsStore;
  /** This session's long actions, followed through their events. */
  jobs: JobsStore;
  /** What happened on the account that the operator did not do here: the header's count, `:alerts`. */
  alerts: AlertsStore;
  /** The columns chosen for each list view (C), shared by every account's context. */
  columns: ColumnsStore;
  /** What the app has seen change on each record since it started. */
  history: HistoryStore;
  router: KeyRouter;
  screens: ScreenRegistry;
  /** The config file's aliases, plugins and export folder (its profiles stay with the accounts). */
  settings: AppSettings;
  /** The saved profiles and the demo, and switching between them; absent when the app runs on one account only. */
  accounts?: AccountsStore;
  /** The tabs, each with its own screen stack; absent when the app runs without them (tests of one view). */
  tabs?: TabsStore;
  /** Gives the terminal to a program (a foreground plugin) while `run` runs, then redraws; absent where there is no terminal (tests). */
  lendTerminal?: <T>(run: () => Promise<T>) => Promise<T>;
  quit(): void;
}

export type AppSettings = Pick<Config, 'aliases' | 'plugins' | 'history' | 'alerts' | 'columns'>;

export const noSettings = (): AppSettings => ({ aliases: new Map(), plugins: [] });

export interface AppContextOptions {
  client: ApiClient;
  session: SessionInit;
  screens: ScreenDef[];
  /** The first screen (the root of the nav stack). */
  root?: string;
  rows?: number;
  cols?: number;
  settings?: AppSettings;
  quit?: () => void;
  /** The columns store to share (across accounts); a new one from the settings otherwise. */
  columns?: ColumnsStore;
  /** The terminal's size and overlays, shared by every account's context (one terminal). */
  ui?: UiStore;
}

export function createAppContext(opts: AppContextOptions): AppContextValue {
  const session = createSessionStore(opts.session);
  // From the first answer on, before any frame: the first screen's reads are already on their way.
  opts.client.onScopeReport((report) => session.getState().learnScopes(report));
  const ui = opts.ui ?? createUiStore(opts.rows ?? 24, opts.cols ?? 80);
  const data = createDataStore({
    client: opts.client,
    onLoaded: () => session.setState({ lastRefresh: Date.now() }),
    maxAge: () => session.getState().refreshSeconds * 1000,
  });
  const history = createHistoryStore();
  followLists(history, data);
  const nav = createNavStore(opts.root ?? 'home');
  const views = createViewsStore();
  nav.subscribe((s) => views.getState().keep(s.stack.map((e) => e.key)));
  return {
    client: opts.client,
    session,
    ui,
    data,
    history,
    nav,
    views,
    jobs: createJobsStore(announceTo(session)),
    alerts: createAlertsStore(),
    columns: opts.columns ?? createColumnsStore(opts.settings?.columns),
    router: new KeyRouter((layers) => ui.setState({ layers })),
    screens: new ScreenRegistry(opts.screens),
    settings: opts.settings ?? noSettings(),
    quit: opts.quit ?? (() => {}),
  };
}

/** Before the first frame: the first screen asks for what it shows, so the answers are on their way while that frame renders. */
export function prefetchFirstScreen(ctx: AppContextValue): void {
  const [first] = ctx.nav.getState().stack;
  ctx.screens.get(first!.screen).prefetch?.(ctx);
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp() outside <AppContext.Provider>');
  return ctx;
}
