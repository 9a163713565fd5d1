import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** Typed endpoint functions of tags. */

export interface Tag {
  label: string;
}

/** An item of GET /tags/{label}: the whole tagged object as its own area presents it. */
export interface TaggedObject {
  type: 'vm' | 'nodebalancer' | 'domain' | 'volume';
  data: { id: number; label?: string; status?: string; region?: string; [field: string]: unknown };
}

export const TAGS_PATH = '/tags';

export const tagPath = (label: string) => `${TAGS_PATH}/${encodeURIComponent(label)}`;

export const listTags = (client: ApiClient) => fetchAllPages<Tag>(client, TAGS_PATH);
export const listTagged = (client: ApiClient, label: string) => fetchAllPages<TaggedObject>(client, tagPath(label));
export const createTag = (client: ApiClient, body: { label: string; vms?: number[]; nodebalancers?: number[]; domains?: number[]; volumes?: number[] }) =>
  client.post<Tag>(TAGS_PATH, body);
/** Removes the tag from every object carrying it, then deletes it. */
export const deleteTag = (client: ApiClient, label: string) => client.delete<unknown>(tagPath(label));
