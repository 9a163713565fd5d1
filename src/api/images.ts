import type { Image } from '../model/images.js';
import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';

/** Typed endpoint functions of images: the public ones and the account's private ones (captured from disks). */

export type { Image } from '../model/images.js';

export const IMAGES_PATH = '/images';

// IDs hold a slash (private/12): one encoded segment.
export const imagePath = (id: string) => `${IMAGES_PATH}/${encodeURIComponent(id)}`;

export const listImages = (client: ApiClient) => fetchAllPages<Image>(client, IMAGES_PATH);
export const getImage = (client: ApiClient, id: string) => client.get<Image>(imagePath(id));
export const createImage = (client: ApiClient, body: { disk_id: number; label?: string; description?: string }) => client.post<Image>(IMAGES_PATH, body);
export const updateImage = (client: ApiClient, id: string, body: { label?: string; description?: string }) => client.put<Image>(imagePath(id), body);
export const deleteImage = (client: ApiClient, id: string) => client.delete<unknown>(imagePath(id));
