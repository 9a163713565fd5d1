import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useApp } from './context.js';

const clock = (t: number) => new Date(t).toTimeString().slice(0, 8);

/** User, endpoint, profile, read-only badge, problem badge and the time of the last refresh. */
export function Header({ width }: { width: number }) {
  const { session } = useApp();
  const s = useStore(session);
  const user = s.user ?? (s.userError ? `? (${s.userError})` : '…');
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text wrap="truncate-end">
        <Text bold color="cyan">
          vmtui
        </Text>
        {`  ${user}  `}
        <Text dimColor>{s.embedded ? `embedded demo · ${s.endpoint}` : s.endpoint}</Text>
        {s.profileName && <Text>{`  profile ${s.profileName}`}</Text>}
        {s.readOnly && <Text color="yellow" bold>{'  [READ-ONLY]'}</Text>}
        {(s.problemCount ?? 0) > 0 && <Text color="red" bold>{`  ⚠ ${s.problemCount} problem service${s.problemCount === 1 ? '' : 's'} (! triage)`}</Text>}
        {s.lastRefresh !== undefined && <Text dimColor>{`  refreshed ${clock(s.lastRefresh)}`}</Text>}
      </Text>
    </Box>
  );
}
