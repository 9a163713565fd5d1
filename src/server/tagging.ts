import type { Store } from './store.js';
import { isoSeconds } from '../model/time.js';

/** Tag rows (kind `tag`, id = label). Setting tags on an instance or balancer registers them here. */
export interface TagRecord extends Record<string, unknown> {
  label: string;
  created: string;
}

export function registerTags(store: Store, labels: readonly string[]): void {
  for (const label of labels) {
    if (!store.get('tag', label)) store.insert('tag', label, { label, created: isoSeconds(store.clock.now()) } satisfies TagRecord);
  }
}

/** Kinds whose records carry a `tags` array, with the tagged-object type name the API uses. */
export const TAGGABLE_KINDS: { kind: string; type: string }[] = [
  { kind: 'vm', type: 'vm' },
  { kind: 'nodebalancer', type: 'nodebalancer' },
];
