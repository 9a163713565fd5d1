import { useEffect } from 'react';
import { Box } from 'ink';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { findTokenScopes, getProfile } from '../api/session.js';
import { getGrants } from '../api/profile.js';
import { describeError } from '../api/errors.js';
import type { SessionStore } from '../store/session.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { CommandLine } from './CommandLine.js';
import { AppContext, useApp, type AppContextValue } from './context.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { HelpOverlay } from './HelpOverlay.js';
import { PRIORITY } from './key-router.js';
import { MessageLine, messageLines } from './MessageLine.js';
import { ScreenHost } from './ScreenHost.js';
import { useCommands } from './use-commands.js';
import { useKeyRouting } from './use-key-routing.js';

/** Without tabs (a test of one view): one tab, nothing to switch. */
const NO_TABS = createStore(() => ({ tabs: [undefined] }));

/** Lines around the main view: header, breadcrumbs, footer, message line. */
const CHROME = 4;

export function App({ ctx }: { ctx: AppContextValue }) {
  return (
    <AppContext.Provider value={ctx}>
      <Frame />
    </AppContext.Provider>
  );
}

/** Sessions whose user was asked for: another tab on the account, or a tab shown again, does not ask again. */
const asked = new WeakSet<SessionStore>();

/** Who is acting, with which scopes and grants: the header's user, and the marks on actions it cannot do. */
function useSessionInfo() {
  const { client, session } = useApp();
  useEffect(() => {
    if (asked.has(session)) return;
    asked.add(session);
    const profile = getProfile(client).then(
      (p) => {
        session.setState({ user: p.username });
        // A restricted user's grants mark what it may only read; a failure leaves nothing marked, and the service still says no.
        if (p.restricted) getGrants(client).then((grants) => session.setState({ grants }), () => {});
      },
      (err: unknown) => session.setState({ userError: describeError(err) }),
    );
    // The profile's answer, refused or not, carries X-OAuth-Scopes from a server that sends it: the token list is read only for one that does not.
    void profile.then(() => {
      if (session.getState().scopes !== null) return session.setState({ scopesSettled: true });
      findTokenScopes(client).then(
        (scopes) => session.setState((s) => ({ scopes: s.scopes ?? scopes, scopesSettled: true })),
        () => session.setState({ scopesSettled: true }),
      );
    });
  }, [client, session]);
}

function Frame() {
  const { ui, nav, session, screens, quit, tabs } = useApp();
  const tabCount = useStore(tabs ?? NO_TABS, (s) => s.tabs.length);
  const rows = useStore(ui, (s) => s.rows);
  const cols = useStore(ui, (s) => s.cols);
  const help = useStore(ui, (s) => s.help);
  const commandOpen = useStore(ui, (s) => s.command !== null);
  const message = useStore(session, (s) => s.message?.text);
  const problems = useStore(session, (s) => s.problemCount ?? 0);
  useKeyRouting();
  useSessionInfo();
  useCommands(
    {
      quit,
      command: () => ui.setState({ command: { text: '', cursor: 0, base: null, cycle: -1 } }),
      help: () => ui.setState((s) => ({ help: !s.help })),
      back: () => void nav.getState().pop(),
      // One key from anywhere to the services in trouble (the header's badge names it).
      triage: problems > 0 && screens.find('issues') !== undefined && (() => nav.getState().jump('issues')),
      gotoTab: tabs && ((ev) => (Number(ev.name.slice(4)) <= tabs.getState().tabs.length ? tabs.getState().select(Number(ev.name.slice(4)) - 1) : session.getState().notify(`No tab ${ev.name.slice(4)}: ${tabs.getState().tabs.length} open (:tab opens one)`, 'error'))),
      nextTab: tabCount > 1 && (() => tabs!.getState().step(1)),
      prevTab: tabCount > 1 && (() => tabs!.getState().step(-1)),
      // Pushed, not jumped to: Esc returns to where the message was.
      messages: screens.find('messages') !== undefined && (() => nav.getState().stack.at(-1)!.screen !== 'messages' && nav.getState().push('messages')),
    },
    { priority: PRIORITY.global, title: 'Everywhere' },
  );
  // One line short of the terminal: a frame as tall as the screen makes Ink clear and redraw it all.
  const height = Math.max(CHROME + 3, rows - 1);
  const main = height - CHROME - (commandOpen ? 0 : messageLines(message, cols) - 1);
  return (
    <Box flexDirection="column" width={cols} height={height} overflowY="hidden">
      <Header width={cols} />
      <Breadcrumbs />
      <Box height={main} flexDirection="column" overflowY="hidden">
        <Box display={help ? 'none' : 'flex'} flexDirection="column" height={main}>
          <ScreenHost width={cols} height={main} />
        </Box>
        {help && <HelpOverlay height={main} />}
      </Box>
      {commandOpen ? (
        <CommandLine width={cols} />
      ) : (
        <>
          <Footer width={cols} />
          <MessageLine width={cols} />
        </>
      )}
    </Box>
  );
}
