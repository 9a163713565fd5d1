import type { ApiClient } from '../../api/client.js';
import { listConfigs, listDisks, type Config } from '../../api/instances.js';
import { DEVICE_SLOTS } from '../../model/instance-configs.js';
import type { Params } from '../../store/nav.js';

/** A config as listed, knowing its instance's disk labels for the devices column. */
export type ConfigRow = Config & { readonly diskLabels?: ReadonlyMap<number, string> };

/**
 * Configs and disks together. The labels are attached out of sight (not
 * enumerable), so the JSON and detail views show the config as the API sent it.
 */
export async function loadConfigs(client: ApiClient, p: Params): Promise<ConfigRow[]> {
  const [configs, disks] = await Promise.all([listConfigs(client, p.id!), listDisks(client, p.id!)]);
  const labels = new Map(disks.map((d) => [d.id, d.label]));
  return configs.map((c) => Object.defineProperty({ ...c }, 'diskLabels', { value: labels, enumerable: false }));
}

/** sda=Debian 12 Disk sdb=512 MB Swap Image; a disk that is gone shows its id. */
export function devicesText(c: ConfigRow): string {
  return DEVICE_SLOTS.flatMap((slot) => {
    const d = c.devices[slot];
    if (!d) return [];
    if (d.volume_id) return [`${slot}=volume ${d.volume_id}`];
    return d.disk_id ? [`${slot}=${c.diskLabels?.get(d.disk_id) ?? `disk ${d.disk_id}`}`] : [];
  }).join(' ');
}
