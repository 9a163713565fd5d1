import { isPrivateAddress } from '../../model/formats.js';
import { SETTLED_STATUSES, type InstanceStatus } from '../../model/instances.js';

/** Cell text shared by the compute screens. */

/** Megabytes as people read them: 512 MB, 1.5 GB, 80 GB. */
export function sizeText(mb: number | null | undefined): string {
  if (mb === null || mb === undefined) return '';
  if (mb < 1024) return `${mb} MB`;
  const gb = mb / 1024;
  return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
}

/** running green, stopped grey, anything under way yellow, deleting red. */
export function instanceStatusColor(status: InstanceStatus): string {
  if (status === 'running') return 'green';
  if (status === 'deleting') return 'red';
  return SETTLED_STATUSES.includes(status) ? 'gray' : 'yellow';
}

export function diskStatusColor(status: string): string | undefined {
  return status === 'ready' ? 'green' : status === 'deleting' ? 'red' : 'yellow';
}

export function backupStatusColor(status: string): string | undefined {
  if (status === 'successful') return 'green';
  if (status === 'failed' || status === 'userAborted') return 'red';
  return 'yellow';
}

/** The first public IPv4 address, whatever order the list has. */
export const publicIpv4 = (ipv4: readonly string[]) => ipv4.find((ip) => !isPrivateAddress(ip)) ?? '';
