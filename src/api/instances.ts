import type { ApiClient } from './client.js';
import { fetchAllPages } from './pages.js';
import type { BackupStatus } from '../model/instance-backups.js';
import type { DeviceSlot, Helpers } from '../model/instance-configs.js';
import type { DiskStatus } from '../model/instance-disks.js';
import type { Alerts, InstanceStatus } from '../model/instances.js';

/** Typed endpoint functions of the compute area (response-shapes §3.1). */

export interface Instance {
  id: number;
  label: string;
  group: string;
  status: InstanceStatus;
  created: string;
  updated: string;
  type: string;
  ipv4: string[];
  ipv6: string | null;
  image: string | null;
  region: string;
  specs: { disk: number; memory: number; vcpus: number; transfer: number };
  alerts: Alerts;
  backups: { enabled: boolean; schedule: { day: string | null; window: string | null }; last_successful: string | null };
  hypervisor: 'kvm';
  watchdog_enabled: boolean;
  tags: string[];
}

export interface Disk {
  id: number;
  label: string;
  status: DiskStatus;
  size: number;
  filesystem: string;
  created: string;
  updated: string;
}

export interface Device {
  disk_id: number | null;
  volume_id: number | null;
}

export interface Config {
  id: number;
  label: string;
  kernel: string;
  comments: string | null;
  memory_limit: number;
  run_level: string;
  virt_mode: string;
  helpers: Helpers;
  devices: Partial<Record<DeviceSlot, Device | null>>;
  root_device: string;
}

export interface Backup {
  id: number;
  type: 'auto' | 'snapshot';
  status: BackupStatus;
  created: string;
  updated: string;
  finished: string | null;
  label: string | null;
  configs: string[];
  disks: { label: string; size: number; filesystem: string }[];
}

/** GET …/backups: not paged. */
export interface BackupsList {
  automatic: Backup[];
  snapshot: { current: Backup | null; in_progress: Backup | null };
}

export const INSTANCES_PATH = '/vm/instances';

export const instancePath = (id: number | string) => `${INSTANCES_PATH}/${encodeURIComponent(String(id))}`;
export const disksPath = (vmId: number | string) => `${instancePath(vmId)}/disks`;
export const configsPath = (vmId: number | string) => `${instancePath(vmId)}/configs`;
export const backupsPath = (vmId: number | string) => `${instancePath(vmId)}/backups`;

type Body = Record<string, unknown>;

export const listInstances = (client: ApiClient) => fetchAllPages<Instance>(client, INSTANCES_PATH);
export const getInstance = (client: ApiClient, id: number | string) => client.get<Instance>(instancePath(id));
export const createInstance = (client: ApiClient, body: Body) => client.post<Instance>(INSTANCES_PATH, body);
export const updateInstance = (client: ApiClient, id: number, body: Body) => client.put<Instance>(instancePath(id), body);
export const deleteInstance = (client: ApiClient, id: number) => client.delete<unknown>(instancePath(id));

export const bootInstance = (client: ApiClient, id: number | string, body: Body = {}) => client.post<unknown>(`${instancePath(id)}/boot`, body);
export const rebootInstance = (client: ApiClient, id: number | string, body: Body = {}) => client.post<unknown>(`${instancePath(id)}/reboot`, body);
export const shutdownInstance = (client: ApiClient, id: number) => client.post<unknown>(`${instancePath(id)}/shutdown`, {});
/** Returns the target instance (new, or the existing one named by vm_id). */
export const cloneInstance = (client: ApiClient, id: number, body: Body) => client.post<Instance>(`${instancePath(id)}/clone`, body);

export const listDisks = (client: ApiClient, vmId: number | string) => fetchAllPages<Disk>(client, disksPath(vmId));
export const getDisk = (client: ApiClient, vmId: number | string, id: number) => client.get<Disk>(`${disksPath(vmId)}/${id}`);
export const createDisk = (client: ApiClient, vmId: number | string, body: Body) => client.post<Disk>(disksPath(vmId), body);
export const updateDisk = (client: ApiClient, vmId: number | string, id: number, body: Body) => client.put<Disk>(`${disksPath(vmId)}/${id}`, body);
export const deleteDisk = (client: ApiClient, vmId: number | string, id: number) => client.delete<unknown>(`${disksPath(vmId)}/${id}`);
/** The spec defines no body for a disk clone; none is sent. */
export const cloneDisk = (client: ApiClient, vmId: number | string, id: number) => client.post<Disk>(`${disksPath(vmId)}/${id}/clone`);

export const listConfigs = (client: ApiClient, vmId: number | string) => fetchAllPages<Config>(client, configsPath(vmId));
export const getConfig = (client: ApiClient, vmId: number | string, id: number) => client.get<Config>(`${configsPath(vmId)}/${id}`);
export const createConfig = (client: ApiClient, vmId: number | string, body: Body) => client.post<Config>(configsPath(vmId), body);
export const updateConfig = (client: ApiClient, vmId: number | string, id: number, body: Body) => client.put<Config>(`${configsPath(vmId)}/${id}`, body);
export const deleteConfig = (client: ApiClient, vmId: number | string, id: number) => client.delete<unknown>(`${configsPath(vmId)}/${id}`);

export const listBackups = (client: ApiClient, vmId: number | string) => client.get<BackupsList>(backupsPath(vmId));
export const getBackup = (client: ApiClient, vmId: number | string, id: number) => client.get<Backup>(`${backupsPath(vmId)}/${id}`);
/** Takes a snapshot; it replaces the previous one. */
export const takeSnapshot = (client: ApiClient, vmId: number, body: Body) => client.post<Backup>(backupsPath(vmId), body);
export const enableBackups = (client: ApiClient, vmId: number) => client.post<unknown>(`${backupsPath(vmId)}/enable`, {});
export const cancelBackups = (client: ApiClient, vmId: number) => client.post<unknown>(`${backupsPath(vmId)}/cancel`, {});
export const restoreBackup = (client: ApiClient, vmId: number | string, id: number, body: Body) =>
  client.post<unknown>(`${backupsPath(vmId)}/${id}/restore`, body);
