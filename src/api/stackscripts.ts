import type { StackScript } from '../model/stackscripts.js';
import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** Typed endpoint functions of provisioning scripts (StackScripts). */

export type { StackScript } from '../model/stackscripts.js';

export const STACKSCRIPTS_PATH = '/vm/stackscripts';

export const stackscriptPath = (id: string) => `${STACKSCRIPTS_PATH}/${encodeURIComponent(id)}`;

type Body = Record<string, unknown>;

export const listStackscripts = (client: ApiClient, filter?: unknown) => fetchAllPages<StackScript>(client, STACKSCRIPTS_PATH, { filter });
export const getStackscript = (client: ApiClient, id: string) => client.get<StackScript>(stackscriptPath(id));
export const createStackscript = (client: ApiClient, body: Body) => client.post<StackScript>(STACKSCRIPTS_PATH, body);
export const updateStackscript = (client: ApiClient, id: string, body: Body) => client.put<StackScript>(stackscriptPath(id), body);
export const deleteStackscript = (client: ApiClient, id: string) => client.delete<unknown>(stackscriptPath(id));
