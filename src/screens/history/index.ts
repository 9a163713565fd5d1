import type { ScreenDef } from '../../app/screen.js';
import { HistoryScreen } from './HistoryScreen.js';

/** `h` on an item: its timeline. */
const history: ScreenDef[] = [
  {
    id: 'history',
    title: 'History',
    description: "An item's events and the changes of its fields seen by the app",
    params: ['path', 'id', 'label'],
    component: HistoryScreen,
  },
];

export default history;
