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

export const SUB_LISTS: SubList[] = [
  { part: 'disks', title: 'Disks', screen: DISKS_SCREEN, key: 'D' },
  { part: 'configs', title: 'Configs', screen: CONFIGS_SCREEN, key: 'C' },
  { part: 'backups', title: 'Backups', screen: BACKUPS_SCREEN, key: 'K' },
];
