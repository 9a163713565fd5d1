import { refreshFailed } from '../../app/use-data-age.js';
import { useEffect } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { ACCOUNT_WRITE, type Profile } from '../../api/profile.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { useCommands } from '../../app/use-commands.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { DetailView } from '../../components/DetailView.js';
import { Profile as ProfileSchema } from '../../model/profile.js';
import { JsonView } from '../../components/JsonView.js';
import { Spinner } from '../../components/Spinner.js';
import { Table } from '../../components/Table.js';
import { clamp } from '../../components/window.js';
import type { CountEntry } from '../../store/data.js';
import { ProfileEdit } from './ProfileEdit.js';
import { ProfileFields, profileFieldLines } from './ProfileFields.js';
import { SUB_AREAS, countKey, summaryText, type SubArea } from './sub-areas.js';
import { useMissingScope } from './use-missing-scope.js';
import { PROFILE_QUERY, useObject } from './use-object.js';
import { useScreenCtx } from '../../app/use-screen-ctx.js';

type Overlay = null | 'edit' | 'detail' | 'json';

interface AreaRow {
  area: SubArea;
  count?: CountEntry;
  profile: Profile;
}

const COLUMNS: Column<AreaRow>[] = [
  { key: 'title', title: 'Security and access', width: 20, format: (r) => r.area.title },
  {
    key: 'state',
    title: 'State',
    width: 14,
    format: (r) => summaryText(r.area, r.count, r.profile),
    color: (r) => (r.count?.status === 'error' ? 'red' : r.area.color?.(r.profile)),
  },
  { key: 'what', title: 'What', format: (r) => r.area.what },
];

const DETAIL_SECTIONS = [
  { title: 'User', fields: ['username', 'uid', 'email', 'authentication_type', 'restricted'] },
  { title: 'Settings', fields: ['timezone', 'email_notifications', 'lish_auth_method', 'ip_whitelist_enabled', 'two_factor_auth'] },
  { title: 'Console SSH keys', fields: ['authorized_keys'] },
  { title: 'Referrals', fields: ['referrals'] },
];

/** The acting user: its fields, `e` to edit them, and the security sub-areas to drill into. */
export function ProfileScreen({ entry: navEntry, width, height }: ScreenProps) {
  const { client, data, nav, views } = useApp();
  const ctx = useScreenCtx(navEntry.params);
  const { entry, value: profile } = useObject(PROFILE_QUERY);
  const counts = useStore(data, (s) => s.counts);
  // The selection lives in the views store, so coming back from a sub-area finds it where it was.
  const selected = useStore(views, (s) => s.views[navEntry.key]?.selectedIndex ?? 0);
  // The form edits the profile as it was when opened: a background refresh must not reshape it mid-edit.
  const [{ overlay, editing }, store] = useLocalStore<{ overlay: Overlay; editing?: Profile }>(() => ({ overlay: null }));
  const cannotWrite = useMissingScope(ACCOUNT_WRITE);

  const loadCounts = (force: boolean) => {
    for (const area of SUB_AREAS) {
      if (!area.count) continue;
      const key = countKey(area);
      if (force || !data.getState().counts[key]) void data.getState().loadCount(key, () => area.count!(client), force);
    }
  };
  // Any mutation clears the cached counts; count again whenever they are gone.
  useEffect(() => loadCounts(false), [counts]);

  const current = () => views.getState().get(navEntry.key).selectedIndex;
  const move = (to: (i: number) => number) => views.getState().update(navEntry.key, { selectedIndex: clamp(to(current()), 0, SUB_AREAS.length - 1) });
  const show = (o: Overlay) => profile !== undefined && (() => store.setState({ overlay: o, editing: profile }));
  useCommands(
    overlay
      ? {}
      : {
          up: () => move((i) => i - 1),
          down: () => move((i) => i + 1),
          top: () => move(() => 0),
          bottom: () => move(() => SUB_AREAS.length - 1),
          open: profile !== undefined && (() => nav.getState().push(SUB_AREAS[current()]!.screen)),
          edit: show('edit'),
          detail: show('detail'),
          json: show('json'),
          refresh: () => {
            void data.getState().refresh(PROFILE_QUERY);
            loadCounts(true);
          },
        },
    { priority: PRIORITY.screen, title: 'Profile', marks: { edit: cannotWrite } },
  );

  const close = () => store.setState({ overlay: null });
  if (!profile) {
    if (entry?.status === 'error') return <Text color="red" wrap="wrap">{`Could not load the profile: ${entry.error}. Press r to retry.`}</Text>;
    return <Spinner label="loading profile…" />;
  }
  switch (overlay) {
    case 'edit':
      return <ProfileEdit profile={editing ?? profile} ctx={ctx} onClose={close} width={width} height={height} />;
    case 'detail':
      return <DetailView title={`Profile: ${profile.username}`} record={profile} sections={DETAIL_SECTIONS} schema={ProfileSchema} width={width} height={height} onClose={close} />;
    case 'json':
      return <JsonView title={`Profile: ${profile.username} · JSON`} value={profile} width={width} height={height} onClose={close} />;
  }
  const rows: AreaRow[] = SUB_AREAS.map((area) => ({ area, count: counts[countKey(area)], profile }));
  const tableHeight = Math.max(3, height - profileFieldLines(width) - 1 - (entry?.error ? 1 : 0));
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {entry?.error && <Text color="red" wrap="truncate-end">{refreshFailed(entry)}</Text>}
      <ProfileFields profile={profile} width={width} />
      <Text> </Text>
      <Table columns={COLUMNS} rows={rows} selected={selected} height={tableHeight} width={width} />
    </Box>
  );
}
