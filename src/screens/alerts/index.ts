import type { ScreenDef } from '../../app/screen.js';
import { AlertsScreen } from './AlertsScreen.js';

/** `:alerts` — what happened on the account while the app ran. */
const alerts: ScreenDef[] = [
  {
    id: 'alerts',
    title: 'Alerts',
    aliases: ['alarms', 'notifications'],
    description: 'What happened on the account while the app ran that was not done from here, newest first',
    component: AlertsScreen,
    filterable: true,
    // The session's own record, not an area of the account.
    home: false,
  },
];

export default alerts;
