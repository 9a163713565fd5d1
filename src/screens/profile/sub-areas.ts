import type { ApiClient } from '../../api/client.js';
import { APPS_PATH, DEVICES_PATH, LOGINS_PATH, SSH_KEYS_PATH, getPreferences, listTokens, type Profile } from '../../api/profile.js';
import type { CountEntry } from '../../store/data.js';

/** The profile's sub-areas, as the profile screen lists them to drill into, each with a one-word state. */
export interface SubArea {
  screen: string;
  title: string;
  what: string;
  /** Counted for the summary; the count is cached as profile:<screen>. */
  count?: (client: ApiClient) => Promise<number>;
  summary: (count: number | undefined, profile: Profile) => string;
  color?: (profile: Profile) => string | undefined;
}

/** Neutral: 4.83.1 lists successful logins only, later releases failed attempts too (the list says which it holds). */
export const LOGINS_WHAT = 'Logins of the last 90 days';

const results = (path: string) => async (client: ApiClient) => (await client.page(path, { page: 1, pageSize: 25 })).results;
const counted = (one: string, many: string) => (n: number | undefined) => (n === undefined ? '' : `${n} ${n === 1 ? one : many}`);

export const SUB_AREAS: SubArea[] = [
  { screen: 'sshkeys', title: 'SSH keys', what: 'Public keys for root on new instances', count: results(SSH_KEYS_PATH), summary: counted('key', 'keys') },
  { screen: 'tokens', title: 'Tokens', what: 'Personal access tokens for the API', count: async (c) => (await listTokens(c)).length, summary: counted('token', 'tokens') },
  { screen: 'apps', title: 'Apps', what: 'Third-party apps authorized to act for you', count: results(APPS_PATH), summary: counted('app', 'apps') },
  { screen: 'devices', title: 'Trusted devices', what: 'Browsers remembered at login', count: results(DEVICES_PATH), summary: counted('device', 'devices') },
  { screen: 'logins', title: 'Logins', what: LOGINS_WHAT, count: results(LOGINS_PATH), summary: counted('login', 'logins') },
  {
    screen: 'grants',
    title: 'Grants',
    what: 'What a restricted user may do',
    summary: (_, p) => (p.restricted ? 'restricted' : 'none apply'),
    color: (p) => (p.restricted ? 'yellow' : undefined),
  },
  {
    screen: 'preferences',
    title: 'Preferences',
    what: 'Settings this client keeps, as JSON',
    count: async (c) => Object.keys(await getPreferences(c)).length,
    summary: counted('key', 'keys'),
  },
  {
    screen: '2fa',
    title: 'Two-factor',
    what: 'Codes from an authenticator app at login',
    summary: (_, p) => (p.two_factor_auth ? 'on' : 'off'),
    color: (p) => (p.two_factor_auth ? 'green' : 'yellow'),
  },
];

export const countKey = (area: SubArea) => `profile:${area.screen}`;

/** The state column: the count or the profile's word for it; a failed count says why, briefly. */
export function summaryText(area: SubArea, count: CountEntry | undefined, profile: Profile): string {
  if (!area.count) return area.summary(undefined, profile);
  if (!count || count.status === 'loading') return '…';
  if (count.status === 'error') return `✗ ${count.error ?? 'failed'}`;
  return area.summary(count.value, profile);
}
