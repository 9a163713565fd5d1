import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiClient, type Connection } from '../api/client.js';
import { describeError } from '../api/errors.js';
import { getProfile } from '../api/session.js';
import type { Profile } from '../config/config.js';
import type { AppContextValue } from './context.js';

/** One account the app can show: a saved profile, or the embedded demo. */
export interface AccountTarget {
  /** What :ctx and the Account column call it: the profile's name, or "demo". */
  name: string;
  /** Where it is, for :ctx (never the token). */
  endpoint: string;
  embedded: boolean;
  /** The connection, starting the embedded service first if it is not running. */
  connect(): Promise<Connection>;
  /** The embedded demo runs already (`:all` reads it only then); a profile is always there to ask. */
  running(): boolean;
}

export interface AccountsState {
  /** The account on screen: its client, caches and views. */
  ctx: AppContextValue;
  /** The target the app shows; undefined when it was given by flags or the environment, not a profile. */
  current?: string;
  targets: AccountTarget[];
  /** Switching to this one now. */
  switching?: string;
  /** Counts switches: the app's key, so a switch mounts it afresh. */
  generation: number;
  /**
   * Shows another account: connects, checks the token with GET /profile, then
   * drops this one's cache and poller. A failure is a message and the app
   * stays where it was. `then` runs on the new account (open an item there).
   */
  switchTo(name: string, then?: (ctx: AppContextValue) => void): Promise<boolean>;
  /** Connects to another account as switchTo does, without leaving this one (a tab on it: `:tab ctx NAME`); undefined when it fails (said). */
  connect(name: string): Promise<AppContextValue | undefined>;
}

export interface AccountsOptions {
  first: AppContextValue;
  current?: string;
  targets: AccountTarget[];
  /** The context of a connected account, its session starting as the previous one's (read-only, refresh). */
  make(client: ApiClient, target: AccountTarget, previous: AppContextValue): AppContextValue;
  /** After a switch: start the new account's poller, stop the old one's. */
  onSwitch?(next: AppContextValue, previous: AppContextValue): void;
  /** Whether the account left by a switch is still shown elsewhere (another tab): its requests and poller then go on. */
  stillUsed?(previous: AppContextValue): boolean;
  /** For tests: a client that gives up sooner. */
  clientOptions?: { timeoutMs?: number; retryDelaysMs?: number[] };
}

export function createAccounts(opts: AccountsOptions): StoreApi<AccountsState> {
  const store: StoreApi<AccountsState> = createStore<AccountsState>()((set, get) => ({
    ctx: opts.first,
    current: opts.current,
    targets: opts.targets,
    generation: 0,
    connect: async (name) => {
      const { ctx: previous, targets, switching } = get();
      const target = targets.find((t) => t.name === name);
      const say = previous.session.getState().notify;
      if (!target) {
        say(`No account "${name}" (:ctx lists them)`, 'error');
        return undefined;
      }
      if (switching) {
        say(`Still switching to ${switching}…`, 'error');
        return undefined;
      }
      set({ switching: name });
      say(`Connecting to ${name} (${target.endpoint})…`);
      let client: ApiClient | undefined;
      try {
        client = new ApiClient({ ...(await target.connect()), ...opts.clientOptions });
        // The token is tried before anything is dropped: a dead account leaves the app where it was.
        await getProfile(client);
      } catch (err) {
        client?.abort();
        set({ switching: undefined });
        say(`Cannot switch to ${name}: ${describeError(err)}; still on ${get().current ?? 'the previous account'}`, 'error');
        return undefined;
      }
      set({ switching: undefined });
      const next = opts.make(client, target, previous);
      next.accounts = store;
      return next;
    },
    switchTo: async (name, then) => {
      const previous = get().ctx;
      const next = await get().connect(name);
      if (!next) return false;
      // The old account's requests, cache and poller go with it, unless another tab shows it.
      if (!opts.stillUsed?.(previous)) previous.client.abort();
      opts.onSwitch?.(next, previous);
      set((s) => ({ ctx: next, current: name, switching: undefined, generation: s.generation + 1 }));
      next.session.getState().notify(`Now on ${name} (${get().targets.find((t) => t.name === name)!.endpoint})`, 'success');
      then?.(next);
      return true;
    },
  }));
  opts.first.accounts = store;
  return store;
}

export type AccountsStore = StoreApi<AccountsState>;

/** The embedded demo account, started when first asked for. */
export interface DemoAccount {
  connect(): Promise<Connection>;
  running(): boolean;
}

/** The saved profiles (by name) and the embedded demo, as :ctx lists them. */
export function accountTargets(profiles: Readonly<Record<string, Profile>>, demo?: DemoAccount): AccountTarget[] {
  const saved = Object.keys(profiles)
    .sort()
    .map((name): AccountTarget => {
      const p = profiles[name]!;
      const connection = { baseUrl: p.apiUrl, betaUrl: p.betaUrl ?? p.apiUrl.replace(/\/v4\/*$/, '/v4beta'), token: p.token };
      return { name, endpoint: p.apiUrl, embedded: false, connect: () => Promise.resolve(connection), running: () => true };
    });
  if (!demo) return saved;
  const name = Object.hasOwn(profiles, DEMO) ? `${DEMO} (embedded)` : DEMO;
  return [...saved, { name, endpoint: 'embedded demo', embedded: true, connect: demo.connect, running: demo.running }];
}

export const DEMO = 'demo';
