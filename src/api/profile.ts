import type { GrantEntry, GrantsOf } from '../model/profile.js';
import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** Typed endpoint functions of the profile area: the acting user, its keys, tokens, sessions, grants, preferences and two-factor. */

export interface Referrals {
  code: string;
  url: string;
  total: number;
  completed: number;
  pending: number;
  credit: number;
}

export interface Profile {
  uid: number;
  username: string;
  email: string;
  email_notifications: boolean;
  timezone: string;
  authentication_type: 'password' | 'github';
  authorized_keys: string[] | null;
  lish_auth_method: 'password_keys' | 'keys_only' | 'disabled';
  ip_whitelist_enabled: boolean;
  restricted: boolean;
  two_factor_auth: boolean;
  referrals: Referrals;
}

export interface SSHKey {
  id: number;
  label: string;
  ssh_key: string;
  created: string;
}

export interface Token {
  id: number;
  label: string;
  scopes: string;
  created: string;
  expiry: string | null;
  /** The first 16 characters; the full value only in the creation response. */
  token: string;
}

/** A token row of the list, marked when it is the one this session uses. */
export interface TokenRow extends Token {
  in_use: boolean;
}

export interface AuthorizedApp {
  id: number;
  label: string;
  scopes: string;
  created: string;
  expiry: string | null;
  thumbnail_url: string;
  website: string;
}

export interface TrustedDevice {
  id: number;
  created: string;
  expiry: string;
  last_authenticated: string;
  last_remote_addr: string;
  user_agent: string;
}

export interface Login {
  id: number;
  datetime: string;
  ip: string;
  restricted: boolean;
  username: string;
  /** Later releases list failed attempts too; 4.83.1 lists successful logins only. */
  status?: 'successful' | 'failed';
}

export type { GlobalGrants, GrantKind, GrantLevel } from '../model/profile.js';
export { GRANT_KINDS } from '../model/profile.js';

export interface EntityGrant extends GrantEntry {
  id: number;
  label: string;
}

export type Grants = GrantsOf<EntityGrant>;

export type Preferences = Record<string, unknown>;

export interface TfaSecret {
  secret: string;
  expiry: string;
}

export const PROFILE_PATH = '/profile';
export const SSH_KEYS_PATH = '/profile/sshkeys';
export const TOKENS_PATH = '/profile/tokens';
export const APPS_PATH = '/profile/apps';
export const DEVICES_PATH = '/profile/devices';
export const LOGINS_PATH = '/profile/logins';
export const GRANTS_PATH = '/profile/grants';
export const PREFERENCES_PATH = '/profile/preferences';

export const ACCOUNT_READ = 'account:read_only';
export const ACCOUNT_WRITE = 'account:read_write';

const item = (base: string, id: number) => `${base}/${id}`;

export const getProfile = (client: ApiClient) => client.get<Profile>(PROFILE_PATH);
export const updateProfile = (client: ApiClient, body: Record<string, unknown>) => client.put<Profile>(PROFILE_PATH, body);

export const listSSHKeys = (client: ApiClient) => fetchAllPages<SSHKey>(client, SSH_KEYS_PATH);
export const getSSHKey = (client: ApiClient, id: number) => client.get<SSHKey>(item(SSH_KEYS_PATH, id));
export const createSSHKey = (client: ApiClient, body: Record<string, unknown>) => client.post<SSHKey>(SSH_KEYS_PATH, body);
export const updateSSHKey = (client: ApiClient, id: number, body: Record<string, unknown>) => client.put<SSHKey>(item(SSH_KEYS_PATH, id), body);
export const deleteSSHKey = (client: ApiClient, id: number) => client.delete<void>(item(SSH_KEYS_PATH, id));

/** The tokens, the one this session authenticates with marked (lists show the first 16 characters of each). */
export async function listTokens(client: ApiClient): Promise<TokenRow[]> {
  const tokens = await fetchAllPages<Token>(client, TOKENS_PATH);
  return tokens.map((t) => ({ ...t, in_use: t.token === client.tokenPrefix }));
}
export const getToken = (client: ApiClient, id: number) => client.get<Token>(item(TOKENS_PATH, id));
/** The answer carries the full token value, the only time it is ever returned. */
export const createToken = (client: ApiClient, body: Record<string, unknown>) => client.post<Token>(TOKENS_PATH, body);
export const updateToken = (client: ApiClient, id: number, body: Record<string, unknown>) => client.put<Token>(item(TOKENS_PATH, id), body);
export const revokeToken = (client: ApiClient, id: number) => client.delete<void>(item(TOKENS_PATH, id));

export const listApps = (client: ApiClient) => fetchAllPages<AuthorizedApp>(client, APPS_PATH);
export const getApp = (client: ApiClient, id: number) => client.get<AuthorizedApp>(item(APPS_PATH, id));
export const revokeApp = (client: ApiClient, id: number) => client.delete<void>(item(APPS_PATH, id));

export const listDevices = (client: ApiClient) => fetchAllPages<TrustedDevice>(client, DEVICES_PATH);
export const getDevice = (client: ApiClient, id: number) => client.get<TrustedDevice>(item(DEVICES_PATH, id));
export const revokeDevice = (client: ApiClient, id: number) => client.delete<void>(item(DEVICES_PATH, id));

/** Login history, newest first. */
export async function listLogins(client: ApiClient): Promise<Login[]> {
  const logins = await fetchAllPages<Login>(client, LOGINS_PATH);
  return logins.sort((a, b) => b.datetime.localeCompare(a.datetime) || b.id - a.id);
}
export const getLogin = (client: ApiClient, id: number) => client.get<Login>(item(LOGINS_PATH, id));

/** The grants of a restricted user; null for an unrestricted one (204, nothing applies). */
export async function getGrants(client: ApiClient): Promise<Grants | null> {
  return (await client.get<Grants | undefined>(GRANTS_PATH)) ?? null;
}

export const getPreferences = (client: ApiClient) => client.get<Preferences>(PREFERENCES_PATH);
export const putPreferences = (client: ApiClient, prefs: Preferences) => client.put<Preferences>(PREFERENCES_PATH, prefs);

export const enableTfa = (client: ApiClient) => client.post<TfaSecret>('/profile/tfa-enable');
export const confirmTfa = (client: ApiClient, body: Record<string, unknown>) => client.post<{ scratch: string }>('/profile/tfa-enable-confirm', body);
export const disableTfa = (client: ApiClient) => client.post<void>('/profile/tfa-disable');
