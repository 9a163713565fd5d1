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
  },
];

export default messages;
