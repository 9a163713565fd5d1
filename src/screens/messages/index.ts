import type { ScreenDef } from '../../app/screen.js';
import { MessagesScreen } from './MessagesScreen.js';

/** `:messages` — the message line's history. */
const messages: ScreenDef[] = [
  {
    id: 'messages',
    title: 'Messages',
    aliases: ['msgs', 'errors'],
    description: 'The last messages and errors, newest first, whole',
    component: MessagesScreen,
    // Reached by M from anywhere; not an area of the account.
    home: false,
  },
];

export default messages;
