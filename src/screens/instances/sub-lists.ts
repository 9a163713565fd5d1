import type { Params } from '../../store/nav.js';

/** An instance's own lists: screen ids, and the shortcut letters its actions menu gives them. */
export interface SubList {
  part: 'disks' | 'configs' | 'backups';
  title: string;
  screen: string;
  key: string;
}

export const DISKS_SCREEN = 'instance-disks';
export const CONFIGS_SCREEN = 'instance-configs';
export const BACKUPS_SCREEN = 'instance-backups';
export const OVERVIEW_SCREEN = 'instance';

/** The instance's own lists need a read_write grant on the instance (a restricted user). */
export const INSTANCE_GRANT = { kind: 'vm', id: (_row: unknown, p: Params) => p.id } as const;

export const SUB_LISTS: SubList[] = [
  { part: 'disks', title: 'Disks', screen: DISKS_SCREEN, key: 'D' },
  { part: 'configs', title: 'Configs', screen: CONFIGS_SCREEN, key: 'C' },
  { part: 'backups', title: 'Backups', screen: BACKUPS_SCREEN, key: 'K' },
];
