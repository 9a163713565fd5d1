import type { ApiClient } from './client.js';
import { listDisks, listInstances } from './instances.js';
import { fetchAllPages } from './pages.js';

/** Typed endpoint functions of images: the public ones and the account's private ones (captured from disks). */

export interface Image {
  id: string;
  label: string;
  description: string;
  created: string;
  updated: string;
  created_by: string;
  deprecated: boolean;
  is_public: boolean;
  /** MB. */
  size: number;
  type: 'manual' | 'automatic';
  expiry: string | null;
  eol: string | null;
  vendor: string | null;
}

export const IMAGES_PATH = '/images';

// IDs hold a slash (private/12): one encoded segment.
export const imagePath = (id: string) => `${IMAGES_PATH}/${encodeURIComponent(id)}`;

export const listImages = (client: ApiClient) => fetchAllPages<Image>(client, IMAGES_PATH);
export const getImage = (client: ApiClient, id: string) => client.get<Image>(imagePath(id));
export const createImage = (client: ApiClient, body: { disk_id: number; label?: string; description?: string }) => client.post<Image>(IMAGES_PATH, body);
export const updateImage = (client: ApiClient, id: string, body: { label?: string; description?: string }) => client.put<Image>(imagePath(id), body);
export const deleteImage = (client: ApiClient, id: string) => client.delete<unknown>(imagePath(id));

/** Image choices for forms: public ones first as the API lists them, deprecated ones marked. */
export async function imageChoices(client: ApiClient) {
  return (await listImages(client)).map((i) => ({ value: i.id, label: `${i.id}  ${i.label}${i.deprecated ? ' (deprecated)' : ''}` }));
}

/**
 * The disks an image can be captured from, as "instance › disk" choices:
 * every instance's disks except swap, those not ready marked. Disks are
 * fetched a few instances at a time.
 */
export async function diskChoices(client: ApiClient) {
  const instances = await listInstances(client);
  const out: { value: string; label: string }[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < instances.length) {
      const i = next++;
      const vm = instances[i]!;
      const disks = await listDisks(client, vm.id);
      out[i] = disks
        .filter((d) => d.filesystem !== 'swap')
        .map((d) => ({ value: String(d.id), label: `${vm.label} › ${d.label} (${d.id}, ${d.size} MB${d.status === 'ready' ? '' : `, ${d.status}`})` }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, instances.length) }, worker));
  return out.flat();
}
