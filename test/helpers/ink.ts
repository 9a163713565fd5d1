import { render } from 'ink-testing-library';
import { createElement, type ReactNode } from 'react';
import { ApiClient } from '../../src/api/client.js';
import { App } from '../../src/app/App.js';
import { accountTargets, createAccounts } from '../../src/app/accounts.js';
import { createTabs } from '../../src/app/tabs.js';
import { Root } from '../../src/app/Root.js';
import type { Profile } from '../../src/config/config.js';
import { AppContext, createAppContext, prefetchFirstScreen, type AppContextValue, type AppSettings } from '../../src/app/context.js';
import { useKeyRouting } from '../../src/app/use-key-routing.js';
import type { ScreenDef } from '../../src/app/screen.js';
import { screens as allScreens } from '../../src/screens/index.js';
import type { SessionInit } from '../../src/store/session.js';
import type { RunningService } from '../../src/server/service.js';
import { whole } from '../../src/store/data.js';
import { OWNER_TOKEN } from './service.js';

type LastFrame = () => string | undefined;
type Expected = string | RegExp | ((frame: string) => boolean);

/**
 * Generous: the suites share two cores with the service they talk to and
 * with other suites; a wait that passes returns as soon as the frame matches.
 */
export const TIMEOUT_MS = 15_000;

/** Polls the last frame until it shows `match` (never a fixed sleep); the error shows the last frame. */
export async function waitForContent(lastFrame: LastFrame, match: Expected, timeoutMs = TIMEOUT_MS): Promise<string> {
  const test = typeof match === 'function' ? match : typeof match === 'string' ? (f: string) => f.includes(match) : (f: string) => match.test(f);
  const deadline = Date.now() + timeoutMs;
  let frame = '';
  for (;;) {
    frame = lastFrame() ?? '';
    if (test(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${String(match)}; the last frame was:\n${frame}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Writes keys, then waits for the frame to show `expected`. Send Esc ('\x1b') on its own. */
export async function sendInputAndWait(stdin: { write(data: string): void }, keys: string, lastFrame: LastFrame, expected: Expected, timeoutMs?: number) {
  stdin.write(keys);
  return waitForContent(lastFrame, expected, timeoutMs);
}

export interface AppOptions {
  svc?: RunningService;
  token?: string;
  screens?: ScreenDef[];
  session?: Partial<SessionInit>;
  rows?: number;
  cols?: number;
  /** A client for a stub; default one for `svc` (as patient as the waits), or one that fails fast. */
  client?: ApiClient;
  /** The config file's aliases and plugins. */
  settings?: AppSettings;
  /** Saved profiles for :ctx and :all, the app starting on `current` (as start.tsx does). */
  accounts?: { profiles: Record<string, Profile>; current?: string };
}

function testContext(opts: AppOptions) {
  const client =
    opts.client ??
    new ApiClient({
      baseUrl: opts.svc?.baseUrl ?? 'http://127.0.0.1:9/v4',
      betaUrl: opts.svc?.betaUrl ?? 'http://127.0.0.1:9/v4beta',
      token: opts.token ?? OWNER_TOKEN,
      retryDelaysMs: [],
      timeoutMs: opts.svc ? TIMEOUT_MS : 2000,
    });
  let quits = 0;
  const ctx: AppContextValue = createAppContext({
    client,
    screens: opts.screens ?? allScreens,
    rows: opts.rows ?? 24,
    cols: opts.cols ?? 100,
    session: { endpoint: client.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60, ...opts.session },
    settings: opts.settings,
    quit: () => {
      quits++;
    },
  });
  const accounts =
    opts.accounts &&
    createAccounts({
      first: ctx,
      current: opts.accounts.current,
      targets: accountTargets(opts.accounts.profiles),
      make: (next, target, previous) =>
        createAppContext({
          client: next,
          screens: opts.screens ?? allScreens,
          rows: previous.ui.getState().rows,
          cols: previous.ui.getState().cols,
          session: { endpoint: next.baseUrl, embedded: false, profileName: target.name, readOnly: previous.session.getState().readOnly, refreshSeconds: 60 },
          settings: opts.settings,
          quit: () => {
            quits++;
          },
        }),
      clientOptions: { retryDelaysMs: [], timeoutMs: 5000 },
    });
  return { ctx, accounts, quits: () => quits };
}

/** The whole app in ink-testing-library, on a real service when one is given; started as the app starts (src/app/start.tsx). */
export function renderApp(opts: AppOptions = {}) {
  const { ctx, accounts, quits } = testContext(opts);
  prefetchFirstScreen(ctx);
  // Tabs follow :ctx as the app's do (src/app/start.tsx).
  const tabs = accounts && createTabs(ctx);
  accounts?.subscribe((s, prev) => s.ctx !== prev.ctx && tabs!.getState().replace(s.ctx));
  const r = render(accounts ? createElement(Root, { tabs: tabs! }) : createElement(App, { ctx }));
  return { ...r, ctx, accounts, quits, lastFrame: () => r.lastFrame() ?? '' };
}

function KeyRoot({ children }: { children: ReactNode }) {
  useKeyRouting();
  return children;
}

/** One component with the app's context and key routing around it, for component tests. */
export function renderWithApp(node: ReactNode, opts: AppOptions = {}) {
  const { ctx, quits } = testContext(opts);
  const r = render(createElement(AppContext.Provider, { value: ctx }, createElement(KeyRoot, null, node)));
  return { ...r, ctx, quits, lastFrame: () => r.lastFrame() ?? '' };
}

type Rendered = { stdin: { write(data: string): void }; lastFrame: LastFrame };
export type App = ReturnType<typeof renderApp>;

export const wait = (r: Rendered, expected: Expected) => waitForContent(r.lastFrame, expected);

/** Writes keys (send Esc on its own), then waits for the frame to show `expected`. */
export const press = (r: Rendered, keys: string, expected: Expected) => sendInputAndWait(r.stdin, keys, r.lastFrame, expected);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens an area through the `:` command line, as a user would, and waits for `expected`. */
export async function jumpTo(r: Rendered, name: string, expected: Expected) {
  await press(r, ':', /^:$/m);
  // The home view lists ":name" too: wait for the command line itself.
  await press(r, name, new RegExp(`^:${escapeRegExp(name)}$`, 'm'));
  return press(r, ENTER, expected);
}

/** Selects the one row matching `text` by filtering the list to it (`/text` Enter); Esc clears the filter later. */
export async function select(r: Rendered, text: string) {
  await press(r, '/', /Enter keep/);
  await press(r, text, /\b1 of \d+/);
  await press(r, ENTER, /Enter open/);
  return wait(r, new RegExp(`^› .*${escapeRegExp(text)}`, 'm'));
}

export const ESC = '\x1b';
export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const UP = '\x1b[A';
export const TAB = '\t';
export const CTRL_D = '\x04';
export const CTRL_S = '\x13';
export const BACKSPACE = '\x7f';

/** Presses a key until the frame shows `expected`: for keys that may arrive before what they act on is there (a form's choices still loading). */
export async function pressUntil(r: Rendered, key: string, expected: Expected, tries = 100) {
  const test = typeof expected === 'function' ? expected : typeof expected === 'string' ? (f: string) => f.includes(expected) : (f: string) => expected.test(f);
  for (let i = 0; i < tries && !test(r.lastFrame() ?? ''); i++) {
    r.stdin.write(key);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return waitForContent(r.lastFrame, expected);
}

/** Until no list of the app is still being read (a first read, its pages, or a loader's joined lists): keys pressed then act on whole rows. */
export async function readsDone(r: { ctx: AppContextValue }, timeoutMs = TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  const busy = () => Object.entries(r.ctx.data.getState().lists).filter(([, e]) => e.status !== 'error' && !whole(e));
  while (busy().length) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for reads: ${busy().map(([k]) => k).join(', ')}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}
