import {
  CONTACTS_PATH,
  CREDENTIALS_PATH,
  SSH_KEY_PATH,
  STATS_PATH,
  VM_SETTINGS_PATH,
  getSshKey,
  getStats,
} from '../../api/managed.js';
import type { ListQuery } from '../../store/data.js';
import { ISSUES_QUERY, SERVICES_QUERY } from '../../store/live.js';

/**
 * The cached lists the managed views read. They are the same queries as the
 * area's list screens (and the live poller's), so every view shares one copy
 * and a refetch anywhere shows everywhere.
 */
export const Q = {
  services: SERVICES_QUERY,
  issues: ISSUES_QUERY,
  contacts: { path: CONTACTS_PATH },
  credentials: { path: CREDENTIALS_PATH },
  vmSettings: { path: VM_SETTINGS_PATH },
  instances: { path: '/vm/instances' },
  // Single objects kept as one-row lists, so they cache and refresh like the rest.
  stats: { path: STATS_PATH, load: async (c) => [await getStats(c)] },
  sshKey: { path: SSH_KEY_PATH, load: async (c) => [await getSshKey(c)] },
} satisfies Record<string, ListQuery>;
