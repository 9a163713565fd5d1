import type { ScreenDef } from '../../app/screen.js';
import { RequestsScreen } from './RequestsScreen.js';

/** `:requests` — the app's own network panel: every API call its client made, whatever the server. */
const requests: ScreenDef[] = [
  {
    id: 'requests',
    title: 'Requests',
    aliases: ['network', 'net', 'calls'],
    description: "The app's own API calls, newest first: Enter for details, Y copies as curl",
    component: RequestsScreen,
    filterable: true,
  },
];

export default requests;
