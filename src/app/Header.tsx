import { Box } from 'ink';
import { Text } from '../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from './context.js';
import type { SessionState } from '../store/session.js';
import { ageText, useDataAge } from './use-data-age.js';
import type { DataState } from '../store/data.js';
import { plural } from '../model/plural.js';
import { underWay } from '../store/jobs.js';
import { createStore } from 'zustand/vanilla';
import type { TabsState } from './tabs.js';
import { visible } from './visible.js';
import { columns, fit } from '../components/cells.js';

const GAP = '  ';

/** 14:05: when the server stopped answering, a fixed text (no redraw each second). */
const clockText = (at: number) => new Date(at).toTimeString().slice(0, 5);

/** `text` whole when it fits `room` columns, else cut with … by columns (a wide character never straddles the edge), or nothing. */
const cut = (text: string, room: number) => (columns(text) <= room ? text : room > 1 ? fit(text, room).trimEnd() : '');

/** Columns the parts take side by side, GAP apart. */
const widthOf = (parts: (string | undefined)[]) => parts.reduce((sum, p) => (p ? sum + (sum ? GAP.length : 0) + columns(p) : sum), 0);

/**
 * The header's parts: their short forms (no scheme, short badges) when the
 * long ones do not fit, and the endpoint cut to what the others leave.
 */
function headerParts(s: SessionState, age: string | undefined, revalidating: string | undefined, width: number, jobs: number, unread: number, strip: string | undefined) {
  // The user's name and an error are a server's words, the endpoint and profile a config's: measured as they show.
  const user = visible(s.user ?? (s.userError ? `? (${s.userError})` : '…'));
  const n = s.problemCount ?? 0;
  const badge = n > 0 ? [`⚠ ${plural(n, 'problem service')} (! triage)`, `⚠ ${n} problem (!)`] : undefined;
  const high = s.auditHigh ?? 0;
  const audit = high > 0 ? [`⚠ ${plural(high, 'high finding')} (:audit)`, `⚠ ${high} high`] : undefined;
  const alerts = unread > 0 ? [`● ${plural(unread, 'new alert')} (:alerts)`, `● ${unread} alert${unread === 1 ? '' : 's'}`] : undefined;
  const working = jobs > 0 ? [`${jobs} under way (:jobs)`, `${jobs} under way`] : undefined;
  const link = s.link && (s.link.state === 'refused' ? ['✗ token no longer works (:ctx)', '✗ token'] : [`✗ server unreachable since ${clockText(s.link.since)}`, '✗ unreachable']);
  const refreshed = revalidating ? [`refreshing data ${revalidating} old`, `↻ ${revalidating} old`] : age ? [`updated ${age} ago`, `↻ ${age} ago`] : undefined;
  const profile = s.profileName ? `profile ${visible(s.profileName)}` : undefined;
  const readOnly = s.readOnly ? '[READ-ONLY]' : undefined;
  // Why nothing is marked yet: the server neither said the scopes nor let the token list them; refusals teach them one by one.
  const lacking = s.refusedScopes.length;
  const scopeNote = s.scopes !== null || !s.scopesSettled ? undefined : [lacking === 0 ? 'scopes unknown' : `scopes unknown, ${lacking} refused`, 'scopes ?'];
  const shownEndpoint = visible(s.endpoint);
  const bare = shownEndpoint.replace(/^https?:\/\//, '');
  const endpoints = s.embedded ? [`embedded demo · ${shownEndpoint}`, `demo · ${bare}`] : [shownEndpoint, bare];
  const others = (short: 0 | 1) => ['vmtui', strip, user, scopeNote?.[short], profile, readOnly, link?.[short], badge?.[short], alerts?.[short], audit?.[short], working?.[short], refreshed?.[short]];
  const short = widthOf([...others(0), endpoints[0]]) <= width ? 0 : 1;
  // Everything but the endpoint stays whole; the endpoint is cut to what is left.
  const room = width - widthOf(others(short)) - GAP.length;
  const full = endpoints[short]!;
  const endpoint = cut(full, room);
  // A profile's name is a config's: past what the rest leaves it is cut too, as the endpoint is.
  const shownProfile = profile && cut(profile, width - widthOf(others(short).filter((p) => p !== profile)) - (endpoint ? GAP.length + columns(endpoint) : 0) - GAP.length);
  return { strip, user, scopeNote: scopeNote?.[short], endpoint, profile: shownProfile, readOnly, link: link?.[short], badge: badge?.[short], alerts: alerts?.[short], audit: audit?.[short], working: working?.[short], refreshed: refreshed?.[short] };
}

const NO_TABS = createStore<Pick<TabsState, 'tabs' | 'active' | 'news'>>(() => ({ tabs: [], active: 0, news: new Set() }));
/** A tab's name in the strip: the item or view at the top of its stack, short. */
const TAB_NAME = 12;

/** The tabs in one line when there are several: `[2 web-1]` the one shown, `3 lb*` one with news (an alert since it was shown). */
function tabStrip(s: Pick<TabsState, 'tabs' | 'active' | 'news'>): string | undefined {
  if (s.tabs.length < 2) return undefined;
  return s.tabs
    .map((t, i) => {
      const top = t.ctx.nav.getState().stack.at(-1)!;
      const name = (top.label || t.ctx.screens.get(top.screen).title.toLowerCase()).slice(0, TAB_NAME);
      const account = t.ctx.session.getState().profileName;
      const text = `${i + 1} ${account && account !== s.tabs[0]!.ctx.session.getState().profileName ? `${account}:` : ''}${name}${s.news.has(t.id) ? '*' : ''}`;
      return i === s.active ? `[${text}]` : text;
    })
    .join(' ');
}

/** When the oldest rows on screen that were shown from the cache past their refresh interval were read, while their refresh runs. */
const revalidatingSince = (lists: DataState['lists']) => {
  let oldest: number | undefined;
  for (const entry of Object.values(lists)) if (entry.revalidating && entry.fetchedAt !== undefined && (oldest === undefined || entry.fetchedAt < oldest)) oldest = entry.fetchedAt;
  return oldest;
};

interface Part {
  text: string | undefined;
  bold?: boolean;
  color?: string;
  dimColor?: boolean;
}

/** The parts shown, GAP apart, in `width` columns: the one that reaches the edge cut there with …, the rest left out. */
function fitted(parts: Part[], width: number): (Part & { text: string })[] {
  const shown: (Part & { text: string })[] = [];
  let used = 0;
  for (const part of parts) {
    if (!part.text) continue;
    const text = used === 0 ? part.text : `${GAP}${part.text}`;
    const room = width - used;
    const taken = columns(text);
    if (taken > room) {
      const end = cut(text, room);
      if (end.trim()) shown.push({ ...part, text: end });
      break;
    }
    shown.push({ ...part, text });
    used += taken;
  }
  return shown;
}

/**
 * User, what is known of the token's scopes when the server does not say
 * them, endpoint, profile, read-only badge, problem badge, unread alerts, high findings of the audit, the jobs under way, and how old the
 * data is: while rows older than the refresh interval are on screen and being
 * read again, or once refreshes fail to keep up (src/app/use-data-age.ts).
 */
export function Header({ width }: { width: number }) {
  const { session, data, jobs, alerts, tabs, nav } = useApp();
  // The shown tab's stack names it: follow it (the others do not move while hidden).
  useStore(nav, (s) => s.stack);
  const strip = useStore(tabs ?? NO_TABS, tabStrip);
  const unread = useStore(alerts, (s) => s.unread);
  const state = useStore(session);
  const running = useStore(jobs, underWay);
  const since = useStore(data, (s) => revalidatingSince(s.lists));
  const p = headerParts(state, useDataAge(state.lastRefresh, state.refreshSeconds), since === undefined ? undefined : ageText(Date.now() - since), width, running, unread, strip);
  return (
    // Each part is a text of its own: Ink remembers the size of every distinct text it lays out, for good, so one
    // text joining the ages and counts would add an entry at every change all day; apart, each part has few forms.
    <Box width={width} height={1} overflowY="hidden">
      {fitted(
        [
          { text: 'vmtui', bold: true, color: 'cyan' },
          { text: p.strip },
          { text: p.user },
          { text: p.scopeNote, color: 'yellow' },
          { text: p.endpoint, dimColor: true },
          { text: p.profile },
          { text: p.readOnly, color: 'yellow', bold: true },
          { text: p.link, color: 'red', bold: true },
          { text: p.badge, color: 'red', bold: true },
          { text: p.alerts, color: 'yellow', bold: true },
          { text: p.audit, color: 'red' },
          { text: p.working, color: 'cyan' },
          { text: p.refreshed, dimColor: true },
        ],
        width,
      ).map(({ text, ...style }, i) => (
        <Text key={i} {...style}>
          {text}
        </Text>
      ))}
    </Box>
  );
}
