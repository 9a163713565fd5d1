import type { ScreenDef } from '../../app/screen.js';
import { backups } from './backups-screen.js';
import { configs } from './configs-screen.js';
import { disks } from './disks-screen.js';
import { instances } from './instances-screen.js';
import { overview } from './overview-screen.js';

/** Compute instances, and (reached by drilling in) an instance's overview, disks, configs and backups. */
const screens: ScreenDef[] = [instances, overview, disks, configs, backups];

export default screens;
