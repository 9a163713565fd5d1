import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from './context.js';
import type { SessionState } from '../store/session.js';
import { useDataAge } from './use-data-age.js';
import { plural } from '../model/plural.js';
import { underWay } from '../store/jobs.js';

const GAP = '  ';

/** Columns the parts take side by side, GAP apart. */
const widthOf = (parts: (string | undefined)[]) => parts.reduce((sum, p) => (p ? sum + (sum ? GAP.length : 0) + p.length : sum), 0);

/**
 * The header's parts: their short forms (no scheme, short badges) when the
 * long ones do not fit, and the endpoint cut to what the others leave.
 */
function headerParts(s: SessionState, age: string | undefined, width: number, jobs: number) {
  const user = s.user ?? (s.userError ? `? (${s.userError})` : '…');
  const n = s.problemCount ?? 0;
  const badge = n > 0 ? [`⚠ ${plural(n, 'problem service')} (! triage)`, `⚠ ${n} problem (!)`] : undefined;
  const working = jobs > 0 ? [`${jobs} under way (:jobs)`, `${jobs} under way`] : undefined;
  const refreshed = age ? [`updated ${age} ago`, `↻ ${age} ago`] : undefined;
  const profile = s.profileName ? `profile ${s.profileName}` : undefined;
  const readOnly = s.readOnly ? '[READ-ONLY]' : undefined;
  // Why nothing is marked yet: the server neither said the scopes nor let the token list them; refusals teach them one by one.
  const lacking = s.refusedScopes.length;
  const scopeNote = s.scopes !== null || !s.scopesSettled ? undefined : [lacking === 0 ? 'scopes unknown' : `scopes unknown, ${lacking} refused`, 'scopes ?'];
  const bare = s.endpoint.replace(/^https?:\/\//, '');
  const endpoints = s.embedded ? [`embedded demo · ${s.endpoint}`, `demo · ${bare}`] : [s.endpoint, bare];
  const others = (short: 0 | 1) => ['vmtui', user, scopeNote?.[short], profile, readOnly, badge?.[short], working?.[short], refreshed?.[short]];
  const short = widthOf([...others(0), endpoints[0]]) <= width ? 0 : 1;
  // Everything but the endpoint stays whole; the endpoint is cut to what is left.
  const room = width - widthOf(others(short)) - GAP.length;
  const full = endpoints[short]!;
  const endpoint = full.length <= room ? full : room > 1 ? `${full.slice(0, room - 1)}…` : '';
  return { user, scopeNote: scopeNote?.[short], endpoint, profile, readOnly, badge: badge?.[short], working: working?.[short], refreshed: refreshed?.[short] };
}

/** User, what is known of the token's scopes when the server does not say them, endpoint, profile, read-only badge, problem badge, the jobs under way, and how old the data is once it is stale (src/app/use-data-age.ts). */
export function Header({ width }: { width: number }) {
  const { session, jobs } = useApp();
  const state = useStore(session);
  const running = useStore(jobs, underWay);
  const p = headerParts(state, useDataAge(state.lastRefresh, state.refreshSeconds), width, running);
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text wrap="truncate-end">
        <Text bold color="cyan">
          vmtui
        </Text>
        {`${GAP}${p.user}`}
        {p.scopeNote && <Text color="yellow">{`${GAP}${p.scopeNote}`}</Text>}
        {p.endpoint && <Text dimColor>{`${GAP}${p.endpoint}`}</Text>}
        {p.profile && <Text>{`${GAP}${p.profile}`}</Text>}
        {p.readOnly && <Text color="yellow" bold>{`${GAP}${p.readOnly}`}</Text>}
        {p.badge && <Text color="red" bold>{`${GAP}${p.badge}`}</Text>}
        {p.working && <Text color="cyan">{`${GAP}${p.working}`}</Text>}
        {p.refreshed && <Text dimColor>{`${GAP}${p.refreshed}`}</Text>}
      </Text>
    </Box>
  );
}
