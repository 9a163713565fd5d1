import type { ScreenDef } from '../../app/screen.js';
import { JobsScreen } from './JobsScreen.js';

/** `:jobs` — this session's long actions and how they ended. */
const jobs: ScreenDef[] = [
  {
    id: 'jobs',
    title: 'Jobs',
    aliases: ['tasks'],
    description: 'Long actions started in this session: their progress and how they ended',
    component: JobsScreen,
    // The session's own record, not an area of the account.
    home: false,
  },
];

export default jobs;
