import { render } from 'ink';
import { ApiClient, type Connection } from '../api/client.js';
import { screens } from '../screens/index.js';
import { followLink } from '../store/link.js';
import { startLivePoller } from '../store/live.js';
import { watchAlerts, type Alert, type AlertsStore } from '../store/alerts.js';
import { DEFAULT_SIGNALS, tellTerminal, type AlertSignals } from './desktop-notice.js';
import { watchSlowWrites } from './slow-writes.js';
import { watchAuditCount } from '../screens/audit/header-count.js';
import { keepHistory } from '../store/history-file.js';
import type { SessionInit } from '../store/session.js';
import { accountTargets, createAccounts, type DemoAccount } from './accounts.js';
import { createAppContext, noSettings, prefetchFirstScreen, type AppContextValue, type AppSettings } from './context.js';
import { ScreenRegistry } from './screen.js';
import { checkSettings } from './settings.js';
import { createColumnsStore, type ColumnChoice } from '../store/columns.js';
import { Root } from './Root.js';
import { createTabs } from './tabs.js';
import type { Profile } from '../config/config.js';
import { createScreenWriter } from './screen-writer.js';
import { SIGNAL_EXIT_CODES, lendTerminal, takeTerminal } from './terminal.js';
import { visible } from './visible.js';

/** Set by `scripts/build.mjs --full-redraw`, for benchmarks: Ink's frames reach the terminal whole, as Ink writes them. */
declare const VMTUI_FULL_REDRAW: boolean | undefined;
/** Set by `scripts/build.mjs --no-shifts`, for benchmarks: a scrolled list's lines are drawn again, not scrolled in the terminal. */
declare const VMTUI_NO_SHIFTS: boolean | undefined;

export interface StartOptions {
  /** Where the API is; while the embedded service starts, a promise of its address and of its start (`started`). */
  connection: Connection | Promise<Connection & { started?: Promise<void> }>;
  session: SessionInit;
  /** The config file's aliases and plugins. */
  settings?: AppSettings;
  /** Said in the message line as the app starts (a config file's problems). */
  notices?: string[];
  /** The saved profiles :ctx and :all offer, and the embedded demo (started when first asked for). */
  profiles?: Readonly<Record<string, Profile>>;
  demo?: DemoAccount;
  /** Where the settings came from, for their problems. */
  configFile?: string;
  /** Writes a view's columns chosen with C to the config file. */
  saveColumns?: (view: string, columns: readonly ColumnChoice[]) => void;
}

/**
 * How long the first frame waits for the embedded service's address. Its
 * thread gives it about 100 ms into its start, while the UI loads; drawn
 * first, the frame would hold the thread for tens of milliseconds, and the
 * first screen's requests with it, while the service could be reading them.
 */
export const ADDRESS_WAIT_MS = 100;

/** The embedded service's address once it comes, or nothing after `ms` (or when the service failed: that is reported apart). */
export async function addressWithin(starting: Promise<Connection>, ms: number): Promise<string | undefined> {
  let address: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    starting.then(
      (c) => {
        address = c.baseUrl;
      },
      () => {},
    ),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
  return address;
}

/**
 * Tells the terminal of new alerts (bell, desktop notification): once per
 * batch, so a refresh that finds twenty stopped instances rings once, not
 * twenty times. Returns the stop.
 */
function tellAlerts(alerts: AlertsStore, signals: AlertSignals): () => void {
  let pending: Alert[] = [];
  const tell = () => {
    const batch = pending;
    pending = [];
    const newest = batch.at(-1);
    if (!newest) return;
    tellTerminal(batch.length === 1 ? newest.text : `${newest.text} (+${batch.length - 1} more: :alerts)`, signals);
  };
  const unsubscribe = alerts.subscribe((s, prev) => {
    const last = prev.alerts.at(-1)?.id ?? 0;
    const fresh = s.alerts.filter((a) => a.id > last);
    if (!fresh.length) return;
    if (!pending.length) queueMicrotask(tell);
    pending.push(...fresh);
  });
  return () => {
    unsubscribe();
    pending = [];
  };
}

/** Renders the app full-screen until q, Ctrl-C or a signal; resolves with the exit code. */
export async function startApp(opts: StartOptions): Promise<number> {
  const stdout = process.stdout;
  const starting = opts.connection instanceof Promise ? opts.connection : undefined;
  const client = starting ? ApiClient.whenReady(starting) : new ApiClient(opts.connection as Connection);
  const address = starting && (await addressWithin(starting, ADDRESS_WAIT_MS));
  let exitCode = 0;
  let failure: unknown;
  const quit = () => instance.unmount();
  /** A foreground plugin's turn at the terminal; lendTerminal has the frame drawn whole after, over whatever it left. */
  const lend = <T,>(run: () => Promise<T>): Promise<T> => lendTerminal(stdout, run);
  // Aliases and plugins meet the screens here: a clash is named and left out, the rest works.
  const checked = checkSettings(opts.settings ?? noSettings(), new ScreenRegistry(screens), opts.configFile ?? 'config.json');
  const notices = [...(opts.notices ?? []), ...checked.problems];
  const signals = { ...DEFAULT_SIGNALS, ...checked.settings.alerts };
  // One choice of columns for every account; each choice is written to the config file as it is made.
  const columns = createColumnsStore(checked.settings.columns);
  const unsaveColumns = columns.subscribe((s, prev) => {
    if (!opts.saveColumns) return;
    for (const [view, chosen] of s.byView) {
      if (prev.byView.get(view) === chosen) continue;
      try {
        opts.saveColumns(view, chosen);
      } catch (err) {
        current().session.getState().notify(`Columns of ${view} not saved: ${(err as Error).message}`, 'error');
      }
    }
  });
  /** `history: true`: each account's history read from and written to its file; the returned function writes it a last time. */
  const historyOf = (c: AppContextValue) => (checked.settings.history ? keepHistory(c.history, c.session, undefined, (text) => c.session.getState().notify(text, 'error')) : () => {});
  /** What runs beside an account's screens (its events and problem services, slow writes, the audit count, its history file); returns what stops it all. */
  const follow = (c: AppContextValue) => {
    const alerts = watchAlerts({ data: c.data, jobs: c.jobs, alerts: c.alerts });
    const live = startLivePoller({ client: c.client, data: c.data, session: c.session, jobs: c.jobs, onEvents: alerts.events });
    const stops = [() => live.stop(), followLink({ client: c.client, data: c.data, session: c.session, live }), alerts.stop, tellAlerts(c.alerts, signals), watchSlowWrites(c.client.requests, c.session.getState().notify), watchAuditCount(c.data, c.session), historyOf(c)];
    return () => stops.forEach((stop) => stop());
  };
  const ctx = createAppContext({
    client,
    session: address ? { ...opts.session, endpoint: address } : opts.session,
    screens,
    rows: stdout.rows,
    cols: stdout.columns,
    settings: checked.settings,
    quit,
    columns,
  });
  ctx.lendTerminal = lend;
  if (notices.length) ctx.session.getState().notify(notices.join('\n'), 'error');
  const targets = accountTargets(opts.profiles ?? {}, opts.demo);
  const accounts = createAccounts({
    first: ctx,
    current: opts.session.embedded ? targets.find((t) => t.embedded)?.name : opts.session.profileName,
    targets,
    make: (next, target, previous) => ({
      ...createAppContext({
        ui: previous.ui,
        client: next,
        session: { ...opts.session, endpoint: next.baseUrl, embedded: target.embedded, profileName: target.embedded ? undefined : target.name },
        screens,
        rows: previous.ui.getState().rows,
        cols: previous.ui.getState().cols,
        settings: checked.settings,
        quit,
        columns,
      }),
      lendTerminal: lend,
    }),
    onSwitch: (next, previous) => {
      if (!stillUsed(previous)) unfollowAccount(previous);
      followAccount(next);
    },
    stillUsed: (previous) => stillUsed(previous),
  });
  const tabs = createTabs(ctx, {
    onOpen: (c) => followAccount(c),
    onClose: (c, used) => {
      if (used) return;
      unfollowAccount(c);
      c.client.abort();
    },
  });
  /** Whether another tab than the shown one is on this account. */
  const stillUsed = (c: AppContextValue) => tabs.getState().tabs.filter((t) => t.ctx.client === c.client).length > 1;
  // :ctx switches the shown tab's account.
  const unswitch = accounts.subscribe((s, prev) => {
    if (s.ctx !== prev.ctx) tabs.getState().replace(s.ctx);
  });
  const current = () => accounts.getState().ctx;
  /** What runs beside each account a tab shows, by its client: one poller per account, however many tabs show it. */
  const following = new Map<AppContextValue['client'], () => void>();
  const followAccount = (c: AppContextValue) => {
    if (!following.has(c.client)) following.set(c.client, follow(c));
  };
  const unfollowAccount = (c: AppContextValue) => {
    following.get(c.client)?.();
    following.delete(c.client);
  };
  prefetchFirstScreen(ctx);
  // A turn of the event loop lets those requests connect and go out before the first frame holds the thread.
  await new Promise((resolve) => setImmediate(resolve));
  const release = takeTerminal(stdout, (signal) => {
    exitCode = SIGNAL_EXIT_CODES[signal] ?? 1;
    instance.unmount();
  });
  // Over SSH every byte counts: only the lines of a frame that changed are sent (a cursor move is two lines, not forty).
  const writer = typeof VMTUI_FULL_REDRAW === 'undefined' || !VMTUI_FULL_REDRAW ? createScreenWriter(stdout, { shifts: typeof VMTUI_NO_SHIFTS === 'undefined' || !VMTUI_NO_SHIFTS }) : undefined;
  // Before Ink's own resize handler draws: a terminal may move or cut what it shows as it resizes.
  const onResize = () => {
    writer?.invalidate();
    current().ui.getState().resize(stdout.rows, stdout.columns);
  };
  stdout.on('resize', onResize);
  const instance = render(<Root tabs={tabs} />, { stdout: writer?.stdout ?? stdout, exitOnCtrlC: false, patchConsole: false, maxFps: 60 });
  const fail = (err: unknown) => {
    failure = err;
    instance.unmount();
  };
  // The embedded service failing, before or after it gave its address, ends the app with the reason.
  starting
    ?.then((c) => {
      ctx.session.setState({ endpoint: c.baseUrl });
      return c.started;
    })
    .catch(fail);
  // Events, problem services and refetches of what they touch, without a key press.
  followAccount(ctx);
  try {
    await instance.waitUntilExit();
  } catch (err) {
    release();
    process.stderr.write(`vmtui crashed: ${visible(err instanceof Error ? err.message : String(err), true)}\n`);
    return 1;
  } finally {
    // Requests still waiting for a server would keep the process alive after the screen is gone.
    for (const client of new Set([current().client, ...tabs.getState().tabs.map((t) => t.ctx.client)])) client.abort();
    for (const stop of following.values()) stop();
    unswitch();
    unsaveColumns();
    stdout.off('resize', onResize);
    writer?.dispose();
    release();
  }
  if (failure) {
    process.stderr.write(`vmtui: ${visible(failure instanceof Error ? failure.message : String(failure), true)}\n`);
    return 1;
  }
  return exitCode;
}
