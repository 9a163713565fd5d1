import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from './context.js';
import type { SessionState } from '../store/session.js';

const clock = (t: number) => new Date(t).toTimeString().slice(0, 8);
const GAP = '  ';

/** The header's parts, long and short: the short forms are used when the long ones do not fit. */
function headerParts(s: SessionState, width: number) {
  const user = s.user ?? (s.userError ? `? (${s.userError})` : '…');
  const n = s.problemCount ?? 0;
  const badge = n > 0 ? [`⚠ ${n} problem service${n === 1 ? '' : 's'} (! triage)`, `⚠ ${n} problem (!)`] : undefined;
  const refreshed = s.lastRefresh !== undefined ? [`refreshed ${clock(s.lastRefresh)}`, `↻ ${clock(s.lastRefresh)}`] : undefined;
  const profile = s.profileName ? `profile ${s.profileName}` : undefined;
  const readOnly = s.readOnly ? '[READ-ONLY]' : undefined;
  const endpoints = s.embedded ? [`embedded demo · ${s.endpoint}`, `demo · ${s.endpoint.replace(/^https?:\/\//, '')}`] : [s.endpoint, s.endpoint.replace(/^https?:\/\//, '')];
  const length = (short: 0 | 1) => ['vmtui', user, endpoints[short], profile, readOnly, badge?.[short], refreshed?.[short]].filter(Boolean).reduce((sum, p) => sum + p!.length + GAP.length, -GAP.length);
  // The endpoint gives way first, then the badges take their short forms; the endpoint is cut last.
  const short = length(0) <= width ? 0 : 1;
  return { user, endpoint: endpoints[short]!, profile, readOnly, badge: badge?.[short], refreshed: refreshed?.[short] };
}

/** User, endpoint, profile, read-only badge, problem badge and the time of the last refresh. */
export function Header({ width }: { width: number }) {
  const { session } = useApp();
  const s = useStore(session);
  const p = headerParts(s, width);
  // Everything but the endpoint stays whole; the endpoint is cut to what is left.
  const others = ['vmtui', p.user, p.profile, p.readOnly, p.badge, p.refreshed].filter(Boolean).reduce((sum, x) => sum + x!.length + GAP.length, -GAP.length);
  const room = Math.max(0, width - others - GAP.length);
  const endpoint = p.endpoint.length <= room ? p.endpoint : room > 1 ? `${p.endpoint.slice(0, room - 1)}…` : '';
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text wrap="truncate-end">
        <Text bold color="cyan">
          vmtui
        </Text>
        {`${GAP}${p.user}`}
        {endpoint && <Text dimColor>{`${GAP}${endpoint}`}</Text>}
        {p.profile && <Text>{`${GAP}${p.profile}`}</Text>}
        {p.readOnly && <Text color="yellow" bold>{`${GAP}${p.readOnly}`}</Text>}
        {p.badge && <Text color="red" bold>{`${GAP}${p.badge}`}</Text>}
        {p.refreshed && <Text dimColor>{`${GAP}${p.refreshed}`}</Text>}
      </Text>
    </Box>
  );
}
