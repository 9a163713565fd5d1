import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** What the header and scope marks need from the profile area. */

export interface ProfileSummary {
  username: string;
  email?: string;
  restricted?: boolean;
}

export const getProfile = (client: ApiClient) => client.get<ProfileSummary>('/profile');

/**
 * The acting token's scopes: lists show only the first 16 characters of each
 * token, which is enough to find ours. null when it cannot be determined.
 */
export async function findTokenScopes(client: ApiClient): Promise<string | null> {
  const tokens = await fetchAllPages<{ token?: string; scopes?: string }>(client, '/profile/tokens');
  const prefix = client.tokenPrefix;
  const mine = tokens.filter((t) => typeof t.token === 'string' && t.token.slice(0, 16) === prefix);
  return mine.length === 1 && typeof mine[0]!.scopes === 'string' ? mine[0]!.scopes : null;
}
